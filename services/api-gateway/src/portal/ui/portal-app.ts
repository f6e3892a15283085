/**
 * The portal page's script (vanilla JS, no build step), served at `/portal/app.js`. It reads the
 * link credential from `?token=` and calls `/portal-api` with it as a Bearer token.
 */
export const PORTAL_JS = `'use strict';
(function () {
  var token = new URLSearchParams(location.search).get('token') || '';
  var state = { link: null, endpoints: [], selected: null };
  var $ = function (id) { return document.getElementById(id); };

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') node.textContent = attrs[k];
      else if (k === 'onclick') node.addEventListener('click', attrs[k]);
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }
  function badge(status) { return el('span', { class: 'badge s-' + status, text: status }); }
  function show(id, message) {
    var box = $(id);
    box.textContent = message;
    box.style.display = message ? 'block' : 'none';
  }

  function api(method, path, body) {
    var init = { method: method, headers: { authorization: 'Bearer ' + token } };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch('/portal-api' + path, init).then(function (res) {
      return res.json().catch(function () { return { message: 'HTTP ' + res.status }; }).then(function (json) {
        if (!res.ok) throw new Error(json.message || 'HTTP ' + res.status);
        return json.data;
      });
    });
  }
  function act(promise, done) {
    show('error', '');
    return promise.then(load).then(function () { if (done) show('notice', done); }).catch(function (e) { show('error', e.message); });
  }

  function renderEndpoints() {
    var body = $('endpoints');
    body.textContent = '';
    if (state.endpoints.length === 0)
      body.appendChild(el('tr', {}, [el('td', { colspan: '6', class: 'muted', text: 'No endpoints yet.' })]));
    state.endpoints.forEach(function (e) {
      var manage = state.link.can_manage_endpoint;
      var secret = e.secrets.length ? e.secrets[e.secrets.length - 1].value : '';
      body.appendChild(el('tr', { 'data-endpoint': e.uid }, [
        el('td', { text: e.name }),
        el('td', { class: 'mono', text: e.url }),
        el('td', {}, [badge(e.status)]),
        el('td', { text: e.failure_rate + '%' }),
        el('td', { class: 'mono', text: secret ? secret.slice(0, 6) + '…' : '' }),
        el('td', {}, manage ? [
          e.status === 'active'
            ? el('button', { text: 'Pause', onclick: function () { act(api('PUT', '/endpoints/' + e.uid + '/pause'), 'Endpoint paused'); } })
            : el('button', { text: 'Activate', onclick: function () { act(api('PUT', '/endpoints/' + e.uid + '/activate'), 'Endpoint activated'); } }),
          el('button', { text: 'Roll secret', onclick: function () { act(api('PUT', '/endpoints/' + e.uid + '/expire_secret', { expiration: 3600 }), 'Secret rolled; the old one expires in an hour'); } }),
          el('button', { class: 'danger', text: 'Delete', onclick: function () {
            if (confirm('Delete endpoint ' + e.name + '?')) act(api('DELETE', '/endpoints/' + e.uid), 'Endpoint deleted');
          } })
        ] : [])
      ]));
    });
  }

  function endpointName(id) {
    var e = state.endpoints.find(function (x) { return x.uid === id; });
    return e ? e.name : id;
  }

  function renderDeliveries(page) {
    var body = $('deliveries');
    body.textContent = '';
    if (page.content.length === 0)
      body.appendChild(el('tr', {}, [el('td', { colspan: '7', class: 'muted', text: 'No deliveries yet.' })]));
    page.content.forEach(function (d) {
      var resendable = d.status === 'Failure' || d.status === 'Discarded';
      var row = el('tr', { class: 'clickable' + (state.selected === d.uid ? ' selected' : ''), 'data-delivery': d.uid, onclick: function () { showDetail(d.uid); } }, [
        el('td', { text: new Date(d.created_at).toLocaleString() }),
        el('td', { text: d.event_type }),
        el('td', { text: endpointName(d.endpoint_id) }),
        el('td', {}, [badge(d.status)]),
        el('td', { text: String(d.attempts_made) }),
        el('td', { text: d.last_http_status === null ? '' : String(d.last_http_status) }),
        el('td', {}, resendable ? [el('button', { text: 'Resend', onclick: function (ev) {
          ev.stopPropagation();
          act(api('PUT', '/eventdeliveries/' + d.uid + '/resend'), 'Delivery resent');
        } })] : [])
      ]);
      body.appendChild(row);
    });
  }

  function showDetail(id) {
    state.selected = id;
    api('GET', '/eventdeliveries/' + id).then(function (d) {
      $('detail').hidden = false;
      $('detail-id').textContent = d.uid + ' · ' + d.event_type;
      var box = $('attempts');
      box.textContent = '';
      if (d.attempts.length === 0) box.appendChild(el('p', { class: 'muted', text: 'Not attempted yet.' }));
      d.attempts.slice().reverse().forEach(function (a, i) {
        box.appendChild(el('h3', { text: 'Attempt ' + (d.attempts.length - i) + ' · ' + new Date(a.created_at).toLocaleString() + ' · ' + (a.http_status === null ? (a.error || 'no response') : 'HTTP ' + a.http_status) + ' · ' + a.latency_ms + ' ms' }));
        box.appendChild(el('div', { class: 'grid' }, [
          el('div', {}, [el('strong', { text: 'Request headers' }), el('pre', { text: JSON.stringify(a.request_http_header, null, 2) })]),
          el('div', {}, [el('strong', { text: 'Response headers' }), el('pre', { text: JSON.stringify(a.response_http_header, null, 2) })])
        ]));
        box.appendChild(el('strong', { text: 'Response body' }));
        box.appendChild(el('pre', { text: a.response_data || '(empty)' }));
      });
      load();
    }).catch(function (e) { show('error', e.message); });
  }

  function load() {
    return Promise.all([api('GET', '/link'), api('GET', '/endpoints'), api('GET', '/eventdeliveries?perPage=25')]).then(function (r) {
      state.link = r[0];
      state.endpoints = r[1];
      $('title').textContent = r[0].name;
      $('subtitle').textContent = r[0].endpoint_count + ' endpoint(s)' + (r[0].can_manage_endpoint ? ' · you can manage endpoints' : '');
      $('create-form').hidden = !r[0].can_manage_endpoint;
      renderEndpoints();
      renderDeliveries(r[2]);
    }).catch(function (e) { show('error', e.message); });
  }

  $('create-form').addEventListener('submit', function (ev) {
    ev.preventDefault();
    var form = ev.target;
    var field = function (n) { return form.querySelector('[name="' + n + '"]').value; };
    act(api('POST', '/endpoints', { name: field('name'), url: field('url') }), 'Endpoint added').then(function () { form.reset(); });
  });
  $('refresh').addEventListener('click', function () { show('notice', ''); load(); });
  if (!token) show('error', 'This page needs the portal link it was shared as (missing ?token=).');
  else load();
})();
`;
