import { ENDPOINTS_JS } from './portal-endpoints';

/**
 * The portal page's script (vanilla JS, no build step), served at `/portal/app.js`. It reads the
 * link credential from `?token=` and calls `/portal-api` with it as a Bearer token.
 */
export const PORTAL_JS = `'use strict';
(function () {
  var token = new URLSearchParams(location.search).get('token') || '';
  var state = { link: null, endpoints: [], selected: null, endpoint: null, revealed: {}, filter: {}, cursor: {} };
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
    return promise.then(load).then(function () { if (done) show('notice', done); return true; }).catch(function (e) { show('error', e.message); return false; });
  }

${ENDPOINTS_JS}
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
      // A delivery still in Retry can be retried now instead of at its next backoff.
      var resendable = d.status === 'Failure' || d.status === 'Discarded' || d.status === 'Retry';
      var row = el('tr', { class: 'clickable' + (state.selected === d.uid ? ' selected' : ''), 'data-delivery': d.uid, onclick: function () { showDetail(d.uid); } }, [
        el('td', { text: new Date(d.created_at).toLocaleString() }),
        el('td', { text: d.event_type }),
        el('td', { text: endpointName(d.endpoint_id) }),
        el('td', {}, [badge(d.status)]),
        el('td', { text: String(d.attempts_made) }),
        el('td', { class: d.last_http_status === null && d.last_error ? 'reason' : '', text: d.last_http_status === null ? (d.last_error || '') : String(d.last_http_status) }),
        el('td', {}, [
          resendable ? el('button', { text: d.status === 'Retry' ? 'Retry now' : 'Resend', onclick: function (ev) {
            ev.stopPropagation();
            act(api('PUT', '/eventdeliveries/' + d.uid + '/resend'), 'Delivery resent');
          } }) : null,
          // Force resend (also a delivered one) is for managing links only.
          state.link && state.link.can_manage_endpoint && d.status !== 'Scheduled' && d.status !== 'Processing' && d.status !== 'Retry' ? el('button', { text: 'Force resend', onclick: function (ev) {
            ev.stopPropagation();
            if (confirm('Send this delivery again?')) act(api('PUT', '/eventdeliveries/' + d.uid + '/forceresend'), 'Delivery resent');
          } }) : null
        ])
      ]);
      body.appendChild(row);
    });
  }

  function showDetail(id) {
    state.selected = id;
    api('GET', '/eventdeliveries/' + id).then(function (d) {
      $('detail').hidden = false;
      $('detail-id').textContent = d.uid + ' · ' + d.event_type;
      var replay = $('replay-event');
      replay.hidden = !(state.link && state.link.can_manage_endpoint);
      replay.onclick = function () {
        if (confirm('Replay this event to your endpoints? Each gets a new delivery.'))
          act(api('PUT', '/events/' + d.event_id + '/replay'), 'Event replayed; the new deliveries appear in a moment');
      };
      $('payload').textContent = 'loading…';
      api('GET', '/events/' + d.event_id).then(function (e) { $('payload').textContent = JSON.stringify(e.data, null, 2); })
        .catch(function (e) { $('payload').textContent = e.message; });
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
    var q = new URLSearchParams({ perPage: '25' });
    Object.keys(state.filter).forEach(function (k) { if (state.filter[k]) q.set(k, state.filter[k]); });
    Object.keys(state.cursor).forEach(function (k) { q.set(k, state.cursor[k]); });
    return Promise.all([api('GET', '/link'), api('GET', '/endpoints'), api('GET', '/eventdeliveries?' + q), api('GET', '/event-types')]).then(function (r) {
      state.link = r[0];
      state.endpoints = r[1];
      $('title').textContent = r[0].name;
      $('subtitle').textContent = r[0].endpoint_count + ' endpoint(s)' + (r[0].can_manage_endpoint ? ' · you can manage endpoints' : '');
      $('create-form').hidden = !r[0].can_manage_endpoint;
      renderEndpoints();
      renderDeliveries(r[2]);
      renderEventTypes(r[3]);
      renderPaging(r[2].pagination);
    }).catch(function (e) { show('error', e.message); });
  }

  function renderEventTypes(types) {
    var list = $('event-types');
    list.textContent = '';
    if (types.length === 0) list.appendChild(el('li', { class: 'muted', text: 'No event sent yet.' }));
    types.forEach(function (t) {
      list.appendChild(el('li', { 'data-type': t.event_type, title: 'last sent ' + new Date(t.last_seen_at).toLocaleString(), text: t.event_type }));
    });
  }

  function renderPaging(p) {
    var select = document.querySelector('#delivery-filters select[name="endpointId"]');
    if (select.options.length !== state.endpoints.length + 1) {
      while (select.options.length > 1) select.remove(1);
      state.endpoints.forEach(function (e) { select.appendChild(el('option', { value: e.uid, text: e.name })); });
      select.value = state.filter.endpointId || '';
    }
    $('newer').hidden = !p.has_prev_page;
    $('older').hidden = !p.has_next_page;
    $('newer').onclick = function () { state.cursor = { prev_page_cursor: p.prev_page_cursor, direction: 'prev' }; load(); };
    $('older').onclick = function () { state.cursor = { next_page_cursor: p.next_page_cursor }; load(); };
  }
  $('delivery-filters').addEventListener('submit', function (ev) {
    ev.preventDefault();
    var form = ev.target;
    state.filter = { status: form.status.value, endpointId: form.endpointId.value };
    state.cursor = {};
    load();
  });

  $('create-form').addEventListener('submit', function (ev) {
    ev.preventDefault();
    var form = ev.target;
    var field = function (n) { return form.querySelector('[name="' + n + '"]').value; };
    var body = { name: field('name'), url: field('url') };
    // Empty means every event type (the API's default); else a comma-separated list.
    var types = field('event_types').split(',').map(function (t) { return t.trim(); }).filter(Boolean);
    if (types.length) body.event_types = types;
    act(api('POST', '/endpoints', body), 'Endpoint added').then(function (ok) { if (ok) form.reset(); });
  });
  $('refresh').addEventListener('click', function () { show('notice', ''); load(); });
  if (!token) show('error', 'This page needs the portal link it was shared as (missing ?token=).');
  else load();
})();
`;
