/**
 * The endpoint half of the portal script (see portal-app.ts, which wraps it with the helpers it
 * uses: `el`, `badge`, `api`, `act`, `show`, `state`). The list tells each endpoint's state (status,
 * why it is paused or inactive, an open circuit breaker); the detail holds its signing secrets,
 * hidden until revealed, and for managing links the secret roll.
 */
export const ENDPOINTS_JS = `
  var BREAKER = { open: 'circuit open', half_open: 'circuit half-open' };
  var ROLL_CHOICES = [[3600, 'in 1 hour'], [86400, 'in 24 hours'], [604800, 'in 7 days'], [0, 'now']];
  var when = function (ts) { return new Date(ts).toLocaleString(); };

  function stateBadges(e) {
    var b = e.circuit_breaker.state;
    return [badge(e.status), BREAKER[b] ? el('span', { class: 'badge b-' + b, 'data-breaker': b, text: BREAKER[b] }) : null];
  }
  function stateReasons(e) {
    var lines = [e.status_reason];
    if (BREAKER[e.circuit_breaker.state]) lines.push(e.circuit_breaker.reason || BREAKER[e.circuit_breaker.state]);
    return lines.filter(Boolean).map(function (t) { return el('div', { class: 'reason', text: t }); });
  }
  var stop = function (fn) { return function (ev) { ev.stopPropagation(); fn(); }; };

  function renderEndpoints() {
    var body = $('endpoints');
    body.textContent = '';
    if (state.endpoints.length === 0)
      body.appendChild(el('tr', {}, [el('td', { colspan: '6', class: 'muted', text: 'No endpoints yet.' })]));
    var manage = state.link.can_manage_endpoint;
    state.endpoints.forEach(function (e) {
      var path = '/endpoints/' + e.uid;
      body.appendChild(el('tr', { class: 'clickable' + (state.endpoint === e.uid ? ' selected' : ''), 'data-endpoint': e.uid, onclick: function () { selectEndpoint(e.uid); } }, [
        el('td', { text: e.name }),
        el('td', { class: 'mono', text: e.url }),
        el('td', {}, stateBadges(e).concat(stateReasons(e))),
        el('td', { text: String(e.events) }),
        el('td', { text: e.failure_rate + '%' }),
        el('td', {}, [el('button', { text: 'Secrets', onclick: stop(function () { selectEndpoint(e.uid); }) })].concat(manage ? [
          e.status === 'active'
            ? el('button', { text: 'Pause', onclick: stop(function () { act(api('PUT', path + '/pause'), 'Endpoint paused'); }) })
            : el('button', { text: 'Activate', onclick: stop(function () { act(api('PUT', path + '/activate'), 'Endpoint activated'); }) }),
          el('button', { class: 'danger', text: 'Delete', onclick: stop(function () {
            if (confirm('Delete endpoint ' + e.name + '?')) act(api('DELETE', path), 'Endpoint deleted');
          }) })
        ] : []))
      ]));
    });
    renderEndpointDetail();
  }

  function selectEndpoint(id) {
    state.endpoint = id;
    renderEndpoints();
    $('endpoint-detail').scrollIntoView({ block: 'nearest' });
  }

  // Clipboard API where the page may use it; else a selected textarea and execCommand('copy').
  function copyText(text) {
    var fallback = function () {
      var area = el('textarea', { readonly: '', class: 'offscreen' });
      area.value = text;
      document.body.appendChild(area);
      area.select();
      var ok = false;
      try { ok = document.execCommand('copy'); } catch (err) { ok = false; }
      area.remove();
      if (!ok) throw new Error('Copy is blocked in this browser: reveal the secret and copy it by hand.');
    };
    if (navigator.clipboard && navigator.clipboard.writeText) return navigator.clipboard.writeText(text).catch(fallback);
    return Promise.resolve().then(fallback);
  }

  function secretRow(s) {
    var shown = !!state.revealed[s.uid];
    return el('div', { class: 'secret', 'data-secret': s.uid }, [
      el('code', { class: 'mono secret-value', text: shown ? s.value : '\\u2022'.repeat(24) }),
      el('button', { text: shown ? 'Hide' : 'Reveal', onclick: function () { state.revealed[s.uid] = !shown; renderEndpointDetail(); } }),
      el('button', { text: 'Copy', onclick: function () {
        show('error', '');
        copyText(s.value).then(function () { show('notice', 'Secret copied to the clipboard'); }, function (err) { show('error', err.message); });
      } }),
      el('span', { class: 'muted secret-expiry', text: s.expires_at ? 'expires ' + when(s.expires_at) : 'current' })
    ]);
  }

  function rollForm(e) {
    var choice = el('select', { id: 'roll-expiration', 'aria-label': 'Old secret expires' },
      ROLL_CHOICES.map(function (c) { return el('option', { value: String(c[0]), text: 'old secret expires ' + c[1] }); }));
    return el('div', { class: 'inline' }, [choice, el('button', { text: 'Roll secret', onclick: function () {
      var seconds = Number(choice.value);
      var label = ROLL_CHOICES.find(function (c) { return c[0] === seconds; })[1];
      act(api('PUT', '/endpoints/' + e.uid + '/expire_secret', { expiration: seconds }), 'Secret rolled; the old one expires ' + label);
    } })]);
  }

  function renderEndpointDetail() {
    var e = state.endpoints.find(function (x) { return x.uid === state.endpoint; });
    $('endpoint-detail').hidden = !e;
    if (!e) return;
    $('endpoint-detail-name').textContent = e.name;
    var box = $('endpoint-body');
    box.textContent = '';
    var b = e.circuit_breaker;
    box.appendChild(el('p', {}, stateBadges(e).concat([
      el('span', { class: 'muted', text: ' ' + e.events + ' events · ' + e.failure_rate + '% failures · ' + e.url })
    ])));
    if (e.status_reason) box.appendChild(el('p', { class: 'reason', text: 'Status: ' + e.status + ' (' + e.status_reason + ')' }));
    if (BREAKER[b.state])
      box.appendChild(el('p', { class: 'reason', text: 'Circuit breaker ' + b.state.replace('_', '-') + (b.since ? ' since ' + when(b.since) : '') + (b.reason ? ': ' + b.reason : '') }));
    var types = e.event_types.map(function (t) { return t === '*' ? 'all' : t; });
    box.appendChild(el('p', { class: 'reason', text: 'Event types: ' + (types.length ? types.join(', ') : 'none (no subscription)') }));
    box.appendChild(el('h3', { text: 'Signing secrets' }));
    box.appendChild(el('p', { class: 'muted', text: 'Verify each delivery signature with these. While a rolled secret has not expired, deliveries carry a signature for each.' }));
    if (e.secrets.length === 0) box.appendChild(el('p', { class: 'muted', text: 'No signing secret.' }));
    e.secrets.slice().reverse().forEach(function (s) { box.appendChild(secretRow(s)); });
    if (state.link.can_manage_endpoint) {
      box.appendChild(rollForm(e));
      box.appendChild(testEventForm(e));
      box.appendChild(editForm(e));
    }
  }

  function testEventForm(e) {
    var accepted = e.event_types.filter(function (t) { return t !== '*'; });
    var type = el('input', { id: 'test-event-type', 'aria-label': 'Test event type', value: accepted[0] || 'hookrail.test' });
    return el('div', {}, [el('h3', { text: 'Send a test event' }), el('div', { class: 'inline' }, [type, el('button', { id: 'send-test-event', text: 'Send test event', onclick: function () {
      act(api('POST', '/endpoints/' + e.uid + '/test-event', { event_type: type.value }), 'Test event sent; it appears under Deliveries in a moment');
    } })])]);
  }

  function editForm(e) {
    var field = function (name, label, value) { return el('input', { name: name, 'aria-label': label, placeholder: label, value: value || '' }); };
    var name = field('name', 'Name', e.name), url = field('url', 'URL', e.url), description = field('description', 'Description', e.description);
    var form = el('form', { class: 'inline', id: 'edit-endpoint' }, [name, url, description, el('button', { type: 'submit', text: 'Save endpoint' })]);
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      act(api('PUT', '/endpoints/' + e.uid, { name: name.value, url: url.value, description: description.value }), 'Endpoint saved');
    });
    return el('div', {}, [el('h3', { text: 'Edit endpoint' }), form]);
  }
`;
