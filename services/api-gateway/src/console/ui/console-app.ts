/**
 * The console's script (no build step, no framework), served at `/console/assets/console.js`.
 * Every view is a client of the documented management API under /api/v1 on the same origin; the
 * session cookie authenticates the calls, state-changing ones also send the anti-CSRF header.
 * The view and its filters live in the URL (path + query), so any screen is a shareable link.
 * (String.raw: the script's own backslashes reach the browser unchanged.)
 */
export const CONSOLE_JS = String.raw`'use strict';
(function () {
  var session = null;
  var app = document.getElementById('app');
  var side = document.getElementById('side');
  var PER_PAGE = 20;

  // ---- DOM helpers: text only, never HTML ----
  function h(tag, attrs) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === undefined || v === null || v === false) return;
      if (k === 'text') node.textContent = v;
      else if (k.slice(0, 2) === 'on') node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : v);
    });
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }
  function append(node, child) {
    if (child === undefined || child === null || child === false) return;
    if (Array.isArray(child)) return child.forEach(function (c) { append(node, c); });
    node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  function badge(s) { return h('span', { class: 'badge s-' + s, text: s }); }
  function link(href, text, attrs) { return h('a', Object.assign({ href: href, 'data-nav': true, text: text }, attrs || {})); }
  function when(iso) { return iso ? new Date(iso).toLocaleString() : ''; }
  function json(v) { try { return JSON.stringify(v, null, 2); } catch (e) { return String(v); } }
  function toast(msg) {
    var t = document.getElementById('toast');
    t.textContent = msg; t.className = 'show';
    clearTimeout(toast.timer); toast.timer = setTimeout(function () { t.className = ''; }, 3500);
  }
  function copy(text, what) {
    var done = function () { toast((what || 'Value') + ' copied'); };
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text).then(done, done);
    var ta = h('textarea', { 'aria-hidden': 'true', class: 'offscreen' });
    ta.value = text; document.body.appendChild(ta); ta.select();
    try { document.execCommand('copy'); } catch (e) { /* nothing to do */ }
    ta.remove(); done();
  }
  function copyButton(text, what) { return h('button', { type: 'button', onclick: function () { copy(text, what); } , text: 'Copy', 'aria-label': 'Copy ' + (what || 'value') }); }

  // ---- API ----
  function Halt() {}
  async function call(method, url, body) {
    var init = { method: method, headers: {}, credentials: 'same-origin' };
    if (method !== 'GET' && session) init.headers[session.csrf_header] = session.csrf_token;
    if (body !== undefined) { init.headers['content-type'] = 'application/json'; init.body = JSON.stringify(body); }
    var res = await fetch(url, init);
    var data = await res.json().catch(function () { return { message: 'HTTP ' + res.status }; });
    if (res.status === 401 && url.indexOf('/console/session') !== 0) { expired(data.message); throw new Halt(); }
    if (!res.ok) {
      var detail = (data.errors || []).map(function (e) { return (e.field ? e.field + ': ' : '') + e.message; }).join('; ');
      throw new Error((data.message || 'HTTP ' + res.status) + (detail ? ' (' + detail + ')' : ''));
    }
    return data.data;
  }
  function api(method, path, body) { return call(method, '/api/v1' + path, body); }

  // ---- routing: /console/projects/:pid/:section/:id ----
  function navigate(href, replace) {
    history[replace ? 'replaceState' : 'pushState'](null, '', href);
    render();
  }
  document.addEventListener('click', function (e) {
    var a = e.target.closest && e.target.closest('a[data-nav]');
    if (!a || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault(); navigate(a.getAttribute('href'));
  });
  window.addEventListener('popstate', function () { render(); });

  function query() { return new URLSearchParams(location.search); }
  function withQuery(path, params) {
    var q = new URLSearchParams();
    Object.keys(params).forEach(function (k) { if (params[k] !== undefined && params[k] !== null && params[k] !== '') q.set(k, params[k]); });
    var s = q.toString();
    return path + (s ? '?' + s : '');
  }

  function screen(title) {
    app.textContent = '';
    document.title = title + ' · Hookrail console';
    var h1 = h('h1', { text: title });
    app.appendChild(h1);
    return app;
  }
  function fail(err) {
    if (err instanceof Halt) return;
    app.appendChild(h('div', { class: 'alert', role: 'alert', text: err.message }));
  }

  // Live refresh (overview, ?live=<seconds>): re-rendered on a timer while the tab is visible.
  var liveTimer = null;
  function scheduleLive(section) {
    clearTimeout(liveTimer);
    var secs = Number(query().get('live'));
    if ((section !== 'overview' && section !== 'endpoint') || !(secs >= 5)) return;
    liveTimer = setTimeout(function () { if (document.hidden) scheduleLive(section); else render(true); }, secs * 1000);
  }
  async function render(live) {
    clearTimeout(liveTimer);
    var parts = location.pathname.replace(/\/+$/, '').split('/').slice(2); // after /console
    try {
      if (!session) {
        try { session = await call('GET', '/console/session'); }
        catch (e) {
          if (/expired|no longer valid|invalid console session/.test(e.message)) return expired(e.message);
          return signIn();
        }
      }
      chrome();
      if (parts[0] !== 'projects' || !parts[1]) {
        if (session.kind === 'project') return navigate('/console/projects/' + session.project_id, true);
        side.hidden = true;
        return await projectsView();
      }
      var pid = parts[1], section = parts[2] || 'overview', id = parts[3];
      await projectNav(pid, section);
      var views = {
        overview: overviewView, endpoints: id ? endpointView : endpointsView, events: id ? eventView : eventsView,
        deliveries: id ? deliveryView : deliveriesView, sources: sourcesView, subscriptions: subscriptionsView,
        'portal-links': portalLinksView, 'meta-events': metaEventsView,
      };
      var view = views[section];
      if (!view) { screen('Not found'); return app.appendChild(h('p', { text: 'There is no such console page.' })); }
      await view(pid, id);
      if (!live) app.focus();
      scheduleLive(section === 'endpoints' && id ? 'endpoint' : section);
    } catch (e) { fail(e); }
  }

  function chrome() {
    document.getElementById('who').textContent = session.kind === 'admin' ? 'Signed in with the admin key' : 'Signed in with a project key';
    var out = document.getElementById('sign-out');
    out.hidden = false;
    out.onclick = async function () {
      try { await call('DELETE', '/console/session'); } catch (e) { /* the cookie is cleared anyway */ }
      session = null; side.hidden = true; out.hidden = true;
      document.getElementById('who').textContent = '';
      history.pushState(null, '', '/console');
      signIn('You are signed out.');
    };
  }

  // ---- sign-in and expiry ----
  function signIn(note, heading) {
    clearTimeout(liveTimer); // a live refresh must not wipe the form
    side.hidden = true;
    app.textContent = '';
    document.title = 'Sign in · Hookrail console';
    var input = h('input', { id: 'key', name: 'key', type: 'password', autocomplete: 'off', required: true });
    var error = h('div', { class: 'alert', role: 'alert', hidden: true });
    var form = h('form', { class: 'signin', id: 'sign-in' },
      h('h1', { text: heading || 'Sign in' }),
      note ? h('p', { class: 'muted', id: 'sign-in-note', text: note }) : null,
      error,
      h('label', { for: 'key', text: 'Admin key or project API key' }), input,
      h('button', { class: 'primary', type: 'submit', text: 'Sign in' }),
      h('p', { class: 'muted', text: 'The key is exchanged for a session of 30 minutes held in an httpOnly cookie; it is not stored in this browser.' }));
    form.addEventListener('submit', async function (e) {
      e.preventDefault();
      try {
        session = await call('POST', '/console/session', { key: input.value });
        input.value = '';
        var target = location.pathname.indexOf('/console/projects/') === 0 ? location.pathname + location.search : '/console';
        navigate(target, true);
      } catch (err) { error.hidden = false; error.textContent = err.message; }
    });
    app.appendChild(form);
    input.focus();
  }
  function expired(message) {
    session = null;
    document.getElementById('sign-out').hidden = true;
    document.getElementById('who').textContent = '';
    signIn((message || 'Your console session has expired.') + ' Sign in again to continue where you were.', 'Session expired');
  }

  // ---- generic list view with filters in the URL and cursor paging ----
  async function listView(opts) {
    var q = query();
    var params = { perPage: PER_PAGE };
    (opts.filters || []).forEach(function (f) { if (q.get(f.key)) params[f.key] = q.get(f.key); });
    var active = Object.keys(params).length > 1;
    ['next_page_cursor', 'prev_page_cursor', 'direction'].forEach(function (k) { if (q.get(k)) params[k] = q.get(k); });
    if (opts.filters && opts.filters.length) app.appendChild(filterForm(opts.filters, q));
    var page = await api('GET', withQuery(opts.path, params));
    if (opts.toolbar) append(app, opts.toolbar(page, params));
    if (page.content.length === 0) {
      app.appendChild(h('div', { class: 'empty', id: 'empty' },
        h('p', { text: active ? 'Nothing matches these filters.' : opts.empty }),
        active ? link(location.pathname, 'Clear filters') : null));
      return page;
    }
    var table = h('table', { id: opts.id || 'list' },
      h('thead', {}, h('tr', {}, opts.columns.map(function (c) { return h('th', { scope: 'col', text: c.label }); }))),
      h('tbody', {}, page.content.map(function (row) {
        return h('tr', { 'data-id': row.uid }, opts.columns.map(function (c) { return h('td', {}, c.cell(row)); }));
      })));
    app.appendChild(table);
    var pg = page.pagination, base = {};
    (opts.filters || []).forEach(function (f) { if (q.get(f.key)) base[f.key] = q.get(f.key); });
    app.appendChild(h('div', { class: 'pager' },
      pg.has_prev_page ? link(withQuery(location.pathname, Object.assign({}, base, { prev_page_cursor: pg.prev_page_cursor, direction: 'prev' })), '← Newer', { rel: 'prev' }) : null,
      pg.has_next_page ? link(withQuery(location.pathname, Object.assign({}, base, { next_page_cursor: pg.next_page_cursor })), 'Older →', { rel: 'next' }) : null));
    return page;
  }
  function filterForm(filters, q) {
    var form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filters' });
    filters.forEach(function (f) {
      var input;
      if (f.options) {
        input = h('select', { name: f.key }, h('option', { value: '', text: 'any' }),
          f.options.map(function (o) { return h('option', { value: o, text: o, selected: q.get(f.key) === o }); }));
      } else {
        input = h('input', { name: f.key, value: q.get(f.key) || '', placeholder: f.placeholder || '' });
      }
      form.appendChild(h('label', {}, f.label, input));
    });
    form.appendChild(h('button', { type: 'submit', class: 'primary', text: 'Apply' }));
    form.appendChild(link(location.pathname, 'Reset'));
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var params = {};
      new FormData(form).forEach(function (v, k) { params[k] = String(v).trim(); });
      navigate(withQuery(location.pathname, params));
    });
    return form;
  }
  function base(pid) { return '/console/projects/' + encodeURIComponent(pid); }
  function P(pid) { return '/projects/' + encodeURIComponent(pid); }
  async function act(promise, message) {
    try { await promise; toast(message); await render(); return true; }
    catch (e) { if (!(e instanceof Halt)) toast('Failed: ' + e.message); return false; }
  }

  // ---- navigation ----
  var SECTIONS = [['overview', 'Overview'], ['endpoints', 'Endpoints'], ['events', 'Events'], ['deliveries', 'Deliveries'],
    ['sources', 'Sources'], ['subscriptions', 'Subscriptions'], ['portal-links', 'Portal links'], ['meta-events', 'Meta events']];
  var projectCache = {};
  async function projectNav(pid, section) {
    var project = projectCache[pid] || (projectCache[pid] = await api('GET', P(pid)));
    side.textContent = '';
    side.hidden = false;
    side.appendChild(h('div', { class: 'project', text: project.name }));
    if (session.kind === 'admin') side.appendChild(link('/console', '← All projects'));
    SECTIONS.forEach(function (s) {
      side.appendChild(link(base(pid) + (s[0] === 'overview' ? '' : '/' + s[0]), s[1], { 'aria-current': s[0] === section ? 'page' : null }));
    });
    return project;
  }

  // ---- charts: accessible SVG drawn here (no chart library in the build), from /delivery-stats ----
  function liveToggle() {
    var live = h('input', { type: 'checkbox', id: 'live', checked: !!query().get('live'), onchange: function (e) {
      var q = Object.fromEntries(query()); q.live = e.target.checked ? '10' : '';
      navigate(withQuery(location.pathname, q), true);
    } });
    return h('p', {}, h('label', {}, live, ' Live refresh (every ' + (query().get('live') || '10') + ' s)'));
  }
  function statsWindow() { return query().get('window') === 'day' ? 'day' : 'hour'; }
  var SVGNS = 'http://www.w3.org/2000/svg';
  function svg(tag, attrs) {
    var node = document.createElementNS(SVGNS, tag);
    Object.keys(attrs || {}).forEach(function (k) { if (k === 'text') node.textContent = attrs[k]; else node.setAttribute(k, attrs[k]); });
    for (var i = 2; i < arguments.length; i++) if (arguments[i]) node.appendChild(arguments[i]);
    return node;
  }
  function hhmm(iso) { var d = new Date(iso); return ('0' + d.getHours()).slice(-2) + ':' + ('0' + d.getMinutes()).slice(-2); }
  var OUTCOME_COLOURS = { Success: '#2f8f57', Retry: '#d08a1a', Failure: '#c0392b', Discarded: '#7a8594' };
  var W = 640, H = 170, L = 44, B = 22, T = 8;
  function frame(id, label, max, unit, points) {
    var chart = svg('svg', { id: id, class: 'chart', viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': label },
      svg('title', { text: label }),
      svg('line', { x1: L, y1: H - B, x2: W, y2: H - B, stroke: '#9aa6b5' }),
      svg('text', { x: L - 6, y: T + 10, 'text-anchor': 'end', class: 'tick', text: String(max) }),
      svg('text', { x: L - 6, y: H - B, 'text-anchor': 'end', class: 'tick', text: '0' }),
      svg('text', { x: L - 6, y: T + 24, 'text-anchor': 'end', class: 'tick', text: unit }));
    if (points.length) {
      chart.appendChild(svg('text', { x: L, y: H - 6, class: 'tick', text: hhmm(points[0].at) }));
      chart.appendChild(svg('text', { x: W, y: H - 6, 'text-anchor': 'end', class: 'tick', text: hhmm(points[points.length - 1].at) }));
    }
    return chart;
  }
  function outcomeChart(stats) {
    var pts = stats.points, step = stats.step_seconds / 60;
    var totals = pts.map(function (p) { return p.outcomes.Success + p.outcomes.Retry + p.outcomes.Failure + p.outcomes.Discarded; });
    var max = Math.max(1, Math.max.apply(null, totals));
    var t = stats.totals;
    var label = 'Deliveries per ' + (step === 1 ? 'minute' : step + ' minutes') + ' by outcome: ' + t.Success + ' succeeded, ' + t.Retry + ' to retry, ' + t.Failure + ' failed, ' + t.Discarded + ' discarded in total';
    var chart = frame('chart-outcomes', label, max, 'count', pts);
    var bw = (W - L) / Math.max(1, pts.length), scale = (H - B - T) / max;
    pts.forEach(function (p, i) {
      var y = H - B;
      ['Success', 'Retry', 'Failure', 'Discarded'].forEach(function (k) {
        var n = p.outcomes[k]; if (!n) return;
        y -= n * scale;
        chart.appendChild(svg('rect', { x: (L + i * bw + 0.5).toFixed(1), y: y.toFixed(1), width: Math.max(1, bw - 1).toFixed(1), height: (n * scale).toFixed(1), fill: OUTCOME_COLOURS[k], 'data-outcome': k },
          svg('title', { text: hhmm(p.at) + ' ' + k + ': ' + n })));
      });
    });
    return chart;
  }
  function latencyChart(stats) {
    var pts = stats.points;
    var max = Math.max(1, Math.max.apply(null, pts.map(function (p) { return p.p95_ms || 0; })));
    var label = 'Attempt latency p50 ' + (stats.p50_ms === null ? 'none' : stats.p50_ms + ' ms') + ', p95 ' + (stats.p95_ms === null ? 'none' : stats.p95_ms + ' ms');
    var chart = frame('chart-latency', label, max, 'ms', pts);
    var bw = (W - L) / Math.max(1, pts.length), scale = (H - B - T) / max;
    [['p50_ms', '#1f4fc4'], ['p95_ms', '#8e44ad']].forEach(function (line) {
      var d = '', gap = true;
      pts.forEach(function (p, i) {
        var v = p[line[0]];
        if (v === null) { gap = true; return; }
        var x = (L + (i + 0.5) * bw).toFixed(1), y = (H - B - v * scale).toFixed(1);
        d += (gap ? 'M' : 'L') + x + ' ' + y + ' ';
        gap = false;
        // a dot per step, so a lone minute between gaps still shows
        chart.appendChild(svg('circle', { cx: x, cy: y, r: '2.5', fill: line[1] }, svg('title', { text: hhmm(p.at) + ' ' + line[0].replace('_ms', '') + ': ' + v + ' ms' })));
      });
      if (d) chart.appendChild(svg('path', { d: d, fill: 'none', stroke: line[1], 'stroke-width': '2', 'data-line': line[0] }));
    });
    return chart;
  }
  function legend(items) {
    return h('ul', { class: 'legend' }, items.map(function (it) {
      return h('li', {}, h('span', { class: 'swatch sw-' + it[0], 'aria-hidden': 'true' }), it[1]);
    }));
  }
  function statsPanel(pid, stats) {
    var win = stats.window, t = stats.totals, b = stats.retry_backlog;
    var tab = function (w, text) {
      var q = Object.fromEntries(query()); q.window = w === 'hour' ? '' : w;
      return link(withQuery(location.pathname, q), text, { 'aria-current': win === w ? 'true' : null, class: 'tab' });
    };
    return h('section', { class: 'card', id: 'stats', 'aria-label': 'Delivery charts' },
      h('div', { class: 'toolbar' }, h('strong', { text: 'Deliveries' }), tab('hour', 'Last hour'), tab('day', 'Last day'),
        h('span', { class: 'muted', text: 'updated ' + new Date().toLocaleTimeString() })),
      h('p', { id: 'stats-summary', text: (win === 'day' ? 'Last day: ' : 'Last hour: ') + t.Success + ' succeeded, ' + t.Retry + ' to retry, ' + t.Failure + ' failed, ' + t.Discarded + ' discarded · latency p50 ' +
        (stats.p50_ms === null ? '—' : stats.p50_ms + ' ms') + ', p95 ' + (stats.p95_ms === null ? '—' : stats.p95_ms + ' ms') }),
      h('p', {}, h('b', { id: 'retry-backlog', text: b.count + (b.capped ? '+' : '') }), ' ',
        link(base(pid) + '/deliveries?status=Retry' + (stats.endpoint_id ? '&endpoint_id=' + encodeURIComponent(stats.endpoint_id) : ''), 'deliveries waiting for a retry (retry backlog)')),
      h('div', { class: 'grid charts' },
        h('figure', {}, outcomeChart(stats), h('figcaption', {}, 'Outcomes per ' + (stats.step_seconds === 60 ? 'minute' : stats.step_seconds / 60 + ' minutes'),
          legend([['Success', 'succeeded'], ['Retry', 'to retry'], ['Failure', 'failed'], ['Discarded', 'discarded']]))),
        h('figure', {}, latencyChart(stats), h('figcaption', {}, 'Attempt latency (estimated from histogram buckets)',
          legend([['p50', 'p50'], ['p95', 'p95']])))));
  }

  // ---- views ----
  async function projectsView() {
    screen('Projects');
    await listView({ path: '/projects', id: 'projects', empty: 'No projects yet. Create one with POST /api/v1/projects.', columns: [
      { label: 'Name', cell: function (p) { return link(base(p.uid), p.name); } },
      { label: 'Type', cell: function (p) { return p.type; } },
      { label: 'Id', cell: function (p) { return h('span', { class: 'mono', text: p.uid }); } },
      { label: 'Created', cell: function (p) { return when(p.created_at); } },
    ] });
  }

  async function overviewView(pid) {
    var project = projectCache[pid];
    screen(project.name);
    app.appendChild(liveToggle());
    var results = await Promise.all([
      api('GET', P(pid) + '/endpoints?perPage=100'),
      api('GET', P(pid) + '/eventdeliveries?perPage=10&status=Failure'),
      api('GET', withQuery(P(pid) + '/delivery-stats', { window: statsWindow() })),
    ]);
    var endpoints = results[0].content;
    var open = endpoints.filter(function (e) { return e.circuit_breaker && e.circuit_breaker.state !== 'closed'; });
    var paused = endpoints.filter(function (e) { return e.status !== 'active'; });
    var retrying = results[2].retry_backlog.count + (results[2].retry_backlog.capped ? '+' : '');
    app.appendChild(h('div', { class: 'grid' },
      h('div', { class: 'stat' }, h('b', { text: String(endpoints.length) + (results[0].pagination.has_next_page ? '+' : '') }), 'endpoints'),
      h('div', { class: 'stat' }, h('b', { text: String(paused.length) }), 'paused or inactive endpoints'),
      h('div', { class: 'stat' }, h('b', { text: String(open.length) }), 'endpoints with an open circuit breaker'),
      h('div', { class: 'stat' }, h('b', { text: String(retrying) }), link(base(pid) + '/deliveries?status=Retry', 'deliveries waiting for a retry'))));
    app.appendChild(statsPanel(pid, results[2]));
    app.appendChild(h('h2', { text: 'Project' }));
    app.appendChild(h('p', {}, 'Id ', h('span', { class: 'mono', text: project.uid }), ' · type ' + project.type + ' · created ' + when(project.created_at)));
    app.appendChild(h('h2', {}, 'Latest failed deliveries ', link(base(pid) + '/deliveries?status=Failure', 'see all')));
    if (results[1].content.length === 0) app.appendChild(h('div', { class: 'empty', text: 'No failed deliveries.' }));
    else app.appendChild(deliveryTable(pid, results[1].content, false));
  }

  function breaker(e) {
    var cb = e.circuit_breaker || { state: 'closed' };
    return [badge(cb.state), cb.reason ? h('div', { class: 'muted', text: cb.reason }) : null];
  }
  function endpointStatus(e) {
    return [badge(e.status), e.status_reason ? h('div', { class: 'muted', text: e.status_reason }) : null];
  }
  function pauseButton(pid, e) {
    return e.status === 'paused'
      ? h('button', { type: 'button', text: 'Activate', onclick: function () { act(api('PUT', P(pid) + '/endpoints/' + e.uid + '/activate'), 'Endpoint activated'); } })
      : h('button', { type: 'button', text: 'Pause', onclick: function () { act(api('PUT', P(pid) + '/endpoints/' + e.uid + '/pause'), 'Endpoint paused'); } });
  }
  async function endpointsView(pid) {
    screen('Endpoints');
    await listView({ path: P(pid) + '/endpoints', id: 'endpoints', empty: 'No endpoints yet.', filters: [
      { key: 'status', label: 'Status', options: ['active', 'paused', 'inactive'] }, { key: 'owner_id', label: 'Owner id' }],
    columns: [
      { label: 'Name', cell: function (e) { return link(base(pid) + '/endpoints/' + e.uid, e.name); } },
      { label: 'URL', cell: function (e) { return h('span', { class: 'mono', text: e.url }); } },
      { label: 'Status', cell: endpointStatus },
      { label: 'Circuit breaker', cell: breaker },
      { label: 'Failure rate', cell: function (e) { return Math.round((e.failure_rate || 0) * 100) + ' %'; } },
      { label: 'Actions', cell: function (e) { return h('span', { class: 'row-actions' }, pauseButton(pid, e), link(base(pid) + '/deliveries?endpoint_id=' + e.uid, 'Deliveries')); } },
    ] });
  }
  async function endpointView(pid, id) {
    var e = await api('GET', P(pid) + '/endpoints/' + id);
    screen('Endpoint ' + e.name);
    app.appendChild(h('section', { class: 'card' },
      h('p', {}, h('span', { class: 'mono', text: e.url })),
      h('p', {}, 'Status ', endpointStatus(e), ' · circuit breaker ', breaker(e), ' · failure rate ' + Math.round((e.failure_rate || 0) * 100) + ' %'),
      h('p', { class: 'muted', text: 'Owner ' + (e.owner_id || '—') + ' · timeout ' + e.http_timeout + ' s · rate limit ' + e.rate_limit + ' per ' + e.rate_limit_duration + ' s' }),
      h('div', { class: 'toolbar' }, pauseButton(pid, e), link(base(pid) + '/deliveries?endpoint_id=' + e.uid, 'Deliveries of this endpoint'),
        link(base(pid) + '/events?endpoint_id=' + e.uid, 'Events'))));
    app.appendChild(liveToggle());
    app.appendChild(statsPanel(pid, await api('GET', withQuery(P(pid) + '/delivery-stats', { window: statsWindow(), endpointId: id }))));
    app.appendChild(h('h2', { text: 'Signing secrets' }));
    var secrets = (e.secrets || []).filter(function (s) { return !s.deleted_at; });
    app.appendChild(h('table', { id: 'secrets' }, h('thead', {}, h('tr', {}, ['Secret', 'Created', 'Expires', ''].map(function (t) { return h('th', { scope: 'col', text: t }); }))),
      h('tbody', {}, secrets.map(function (s) {
        var value = h('span', { class: 'mono', text: '••••••••••••' });
        var reveal = h('button', { type: 'button', text: 'Reveal', onclick: function () {
          var shown = reveal.textContent === 'Hide';
          value.textContent = shown ? '••••••••••••' : s.value; reveal.textContent = shown ? 'Reveal' : 'Hide';
        } });
        return h('tr', {}, h('td', {}, value), h('td', { text: when(s.created_at) }), h('td', { text: s.expires_at ? when(s.expires_at) : 'current' }),
          h('td', { class: 'row-actions' }, reveal, copyButton(s.value, 'Secret')));
      }))));
    var hours = h('input', { id: 'roll-expiration', type: 'number', min: '0', value: '3600', class: 'narrow' });
    app.appendChild(h('form', { class: 'filters', id: 'roll-form', onsubmit: function (ev) {
      ev.preventDefault();
      if (!confirm('Roll the signing secret? The current one stays valid for ' + hours.value + ' seconds.')) return;
      act(api('PUT', P(pid) + '/endpoints/' + id + '/expire_secret', { expiration: Number(hours.value) }), 'Secret rolled');
    } }, h('label', {}, 'Old secret stays valid (seconds)', hours), h('button', { type: 'submit', text: 'Roll secret' })));
  }

  var EVENT_STATUSES = ['Pending', 'Processing', 'Success', 'Failure', 'Retry', 'Scheduled', 'Discarded'];
  async function eventsView(pid) {
    screen('Events');
    await listView({ path: P(pid) + '/events', id: 'events', empty: 'No events yet.', filters: [
      { key: 'event_type', label: 'Event type' }, { key: 'source_id', label: 'Source id' }, { key: 'endpoint_id', label: 'Endpoint id' },
      { key: 'idempotency_key', label: 'Idempotency key' }, { key: 'status', label: 'Status', options: EVENT_STATUSES },
      { key: 'start_date', label: 'From (ISO time)', placeholder: '2026-01-01T00:00:00Z' }, { key: 'end_date', label: 'To (ISO time)' }],
    columns: [
      { label: 'Created', cell: function (e) { return link(base(pid) + '/events/' + e.uid, when(e.created_at)); } },
      { label: 'Type', cell: function (e) { return e.event_type; } },
      { label: 'Status', cell: function (e) { return [badge(e.status), e.status_reason ? h('div', { class: 'muted', text: e.status_reason }) : null]; } },
      { label: 'Source', cell: function (e) { return e.source_metadata ? e.source_metadata.name : (e.source_id || '—'); } },
      { label: 'Endpoints', cell: function (e) { return (e.endpoint_metadata || []).map(function (x) { return x.name; }).join(', '); } },
    ] });
  }
  async function eventView(pid, id) {
    var e = await api('GET', P(pid) + '/events/' + id);
    screen('Event ' + e.event_type);
    app.appendChild(h('p', {}, h('span', { class: 'mono', text: e.uid }), ' · ', badge(e.status), ' · ' + when(e.created_at) + (e.idempotency_key ? ' · idempotency key ' + e.idempotency_key : '')));
    if (e.status_reason) app.appendChild(h('p', { class: 'muted', text: e.status_reason }));
    app.appendChild(h('div', { class: 'toolbar' }, h('button', { type: 'button', text: 'Replay event', onclick: function () {
      if (confirm('Replay this event to its endpoints?')) act(api('PUT', P(pid) + '/events/' + id + '/replay'), 'Event replayed');
    } })));
    app.appendChild(h('h2', {}, 'Payload ', copyButton(json(e.data), 'Payload')));
    app.appendChild(h('pre', { id: 'payload', text: json(e.data) }));
    app.appendChild(h('h2', { text: 'Headers' }));
    app.appendChild(h('pre', { text: json(e.headers || {}) }));
    app.appendChild(h('h2', { text: 'Deliveries of this event' }));
    var page = await api('GET', P(pid) + '/eventdeliveries?perPage=100&event_id=' + encodeURIComponent(id));
    if (page.content.length === 0) app.appendChild(h('div', { class: 'empty', text: 'This event made no deliveries.' }));
    else app.appendChild(deliveryTable(pid, page.content, false));
  }

  var DELIVERY_STATUSES = ['Scheduled', 'Processing', 'Success', 'Failure', 'Retry', 'Discarded'];
  function resendButtons(pid, d) {
    var out = [];
    // What the API resends: Failure/Discarded; force also Success (libs/operations RESENDABLE).
    if (d.status === 'Failure' || d.status === 'Discarded')
      out.push(h('button', { type: 'button', text: 'Retry', onclick: function () { act(api('PUT', P(pid) + '/eventdeliveries/' + d.uid + '/resend'), 'Delivery retried'); } }));
    if (d.status === 'Failure' || d.status === 'Discarded' || d.status === 'Success') out.push(h('button', { type: 'button', text: 'Force resend', onclick: function () {
      if (confirm('Send this delivery again, even if it succeeded?')) act(api('PUT', P(pid) + '/eventdeliveries/' + d.uid + '/forceresend'), 'Delivery resent');
    } }));
    return h('span', { class: 'row-actions' }, out);
  }
  function deliveryColumns(pid, selectable, selected) {
    var cols = [
      { label: 'Created', cell: function (d) { return link(base(pid) + '/deliveries/' + d.uid, when(d.created_at)); } },
      { label: 'Event type', cell: function (d) { return d.event_type; } },
      { label: 'Endpoint', cell: function (d) { return link(base(pid) + '/endpoints/' + d.endpoint_id, d.endpoint_id, { class: 'mono' }); } },
      { label: 'Status', cell: function (d) { return [badge(d.status), d.status_reason ? h('div', { class: 'muted', text: d.status_reason }) : null]; } },
      { label: 'Attempts', cell: function (d) { return String(d.attempts_made); } },
      { label: 'Last HTTP', cell: function (d) { return d.last_http_status === null || d.last_http_status === undefined ? '—' : String(d.last_http_status); } },
      { label: 'Actions', cell: function (d) { return resendButtons(pid, d); } },
    ];
    if (selectable) cols.unshift({ label: 'Select', cell: function (d) {
      return h('input', { type: 'checkbox', 'aria-label': 'Select delivery ' + d.uid, onchange: function (ev) {
        if (ev.target.checked) selected.add(d.uid); else selected.delete(d.uid);
      } });
    } });
    return cols;
  }
  function deliveryTable(pid, rows) {
    var cols = deliveryColumns(pid, false);
    return h('table', { class: 'deliveries' }, h('thead', {}, h('tr', {}, cols.map(function (c) { return h('th', { scope: 'col', text: c.label }); }))),
      h('tbody', {}, rows.map(function (d) { return h('tr', { 'data-id': d.uid }, cols.map(function (c) { return h('td', {}, c.cell(d)); })); })));
  }
  async function deliveriesView(pid) {
    screen('Deliveries');
    var selected = new Set();
    await listView({ path: P(pid) + '/eventdeliveries', id: 'deliveries', empty: 'No deliveries yet.', filters: [
      { key: 'status', label: 'Status', options: DELIVERY_STATUSES }, { key: 'endpoint_id', label: 'Endpoint id' },
      { key: 'event_id', label: 'Event id' }, { key: 'start_date', label: 'From (ISO time)', placeholder: '2026-01-01T00:00:00Z' },
      { key: 'end_date', label: 'To (ISO time)' }],
    columns: deliveryColumns(pid, true, selected),
    toolbar: function (page, params) {
      var filter = {};
      ['endpoint_id', 'event_id', 'start_date', 'end_date'].forEach(function (k) { if (params[k]) filter[k] = params[k]; });
      var statuses = params.status === 'Failure' || params.status === 'Discarded' ? [params.status] : ['Failure', 'Discarded'];
      filter.status = statuses;
      var describe = Object.keys(filter).filter(function (k) { return k !== 'status'; }).map(function (k) { return k + ' = ' + filter[k]; });
      return h('div', { class: 'toolbar' },
        h('button', { type: 'button', text: 'Force resend selected', onclick: function () {
          var ids = Array.from(selected);
          if (ids.length === 0) return toast('Select deliveries first');
          if (confirm('Force resend ' + ids.length + ' selected deliveries?'))
            act(api('POST', P(pid) + '/eventdeliveries/forceresend', { ids: ids }), 'Resent ' + ids.length + ' deliveries');
        } }),
        h('button', { type: 'button', id: 'batch-retry', text: 'Batch retry matching filter', onclick: async function () {
          // Count first, so the confirmation says how many (one list call per status, 100 at most each).
          try {
          var counts = await Promise.all(statuses.map(function (st) {
            var q = Object.assign({}, filter, { status: st, perPage: 100 });
            return api('GET', withQuery(P(pid) + '/eventdeliveries', q)).then(function (pg) { return pg.content.length + (pg.pagination.has_next_page ? '+' : ''); });
          }));
          var howMany = statuses.map(function (st, i) { return counts[i] + ' ' + st; }).join(' and ');
          var msg = 'Retry ' + howMany + ' deliveries' + (describe.length ? ' with ' + describe.join(', ') : ' of this project') + ' (up to 1,000 per run)?';
          if (!confirm(msg)) return;
            var r = await api('POST', P(pid) + '/eventdeliveries/batchretry', filter);
            toast('Batch retry: ' + r.resent + ' of ' + r.matched + ' matching deliveries resent' + (r.more ? '; more remain, run it again' : ''));
            await render();
          } catch (e) { if (!(e instanceof Halt)) toast('Failed: ' + e.message); }
        } }));
    } });
  }
  async function deliveryView(pid, id) {
    var results = await Promise.all([api('GET', P(pid) + '/eventdeliveries/' + id), api('GET', P(pid) + '/eventdeliveries/' + id + '/deliveryattempts')]);
    var d = results[0], attempts = results[1];
    screen('Delivery');
    app.appendChild(h('p', {}, h('span', { class: 'mono', text: d.uid }), ' · ', badge(d.status), ' · ' + d.event_type + ' · ',
      link(base(pid) + '/events/' + d.event_id, 'event'), ' · ', link(base(pid) + '/endpoints/' + d.endpoint_id, 'endpoint'),
      d.next_attempt_at ? ' · next attempt ' + when(d.next_attempt_at) : ''));
    if (d.status_reason) app.appendChild(h('p', { class: 'muted', text: d.status_reason }));
    app.appendChild(h('div', { class: 'toolbar' }, resendButtons(pid, d)));
    app.appendChild(h('h2', { text: 'Attempts (' + attempts.length + ')' }));
    if (attempts.length === 0) app.appendChild(h('div', { class: 'empty', text: 'No attempt yet.' }));
    attempts.forEach(function (a, i) {
      app.appendChild(h('section', { class: 'card attempt' },
        h('h2', { text: '#' + (i + 1) + ' · ' + when(a.created_at) + ' · ' + (a.http_status === null || a.http_status === undefined || a.http_status === '' ? 'no response' : 'HTTP ' + a.http_status) + ' · ' + Math.round(a.latency_ms) + ' ms' }),
        a.error ? h('div', { class: 'alert', text: 'Error: ' + a.error }) : null,
        h('p', { class: 'mono', text: a.method + ' ' + a.url }),
        h('div', { class: 'grid' },
          h('div', {}, h('strong', { text: 'Request headers' }), h('pre', { text: json(a.request_http_header) })),
          h('div', {}, h('strong', { text: 'Response headers' }), h('pre', { text: json(a.response_http_header) }))),
        h('strong', { text: 'Response body' }), h('pre', { text: a.response_data || '(empty)' })));
    });
  }

  async function sourcesView(pid) {
    screen('Sources');
    await listView({ path: P(pid) + '/sources', id: 'sources', empty: 'No sources yet.',
      filters: [{ key: 'name', label: 'Name' }, { key: 'type', label: 'Type', options: ['http', 'rest_api', 'pub_sub', 'db_change_stream'] }], columns: [
      { label: 'Name', cell: function (s) { return s.name; } },
      { label: 'Type', cell: function (s) { return s.type + (s.provider ? ' · ' + s.provider : ''); } },
      { label: 'Verifier', cell: function (s) { return s.verifier && s.verifier.type ? s.verifier.type : 'none'; } },
      { label: 'Ingest URL', cell: function (s) { return s.url ? [h('span', { class: 'mono', text: s.url }), ' ', copyButton(s.url, 'Ingest URL')] : '—'; } },
      { label: 'Functions', cell: function (s) { return [s.body_function ? 'body' : null, s.header_function ? 'headers' : null].filter(Boolean).join(', ') || '—'; } },
      { label: 'State', cell: function (s) { return s.is_disabled ? badge('paused') : badge('active'); } },
    ] });
  }

  async function subscriptionsView(pid) {
    screen('Subscriptions');
    var page = await listView({ path: P(pid) + '/subscriptions', id: 'subscriptions', empty: 'No subscriptions yet.',
      filters: [{ key: 'name', label: 'Name' }, { key: 'endpoint_id', label: 'Endpoint id' }, { key: 'source_id', label: 'Source id' }], columns: [
      { label: 'Name', cell: function (s) { return s.name; } },
      { label: 'Endpoint', cell: function (s) { return s.endpoint_metadata ? link(base(pid) + '/endpoints/' + s.endpoint_metadata.uid, s.endpoint_metadata.name) : '—'; } },
      { label: 'Event types', cell: function (s) { return (s.filter_config.event_types || []).join(', '); } },
      { label: 'Filter', cell: function (s) { return h('pre', { text: json({ body: s.filter_config.filter.body, headers: s.filter_config.filter.headers }) }); } },
      { label: '', cell: function (s) { return h('button', { type: 'button', text: 'Test filter', onclick: function () { tester(s); } }); } },
    ] });
    app.appendChild(h('section', { class: 'card', id: 'tester' }));
    if (page.content.length) tester(page.content[0]);
    function tester(s) {
      var box = document.getElementById('tester');
      box.textContent = '';
      var filter = h('textarea', { id: 'tester-filter', 'aria-label': 'Filter (body and headers)' });
      filter.value = json({ body: s.filter_config.filter.body, headers: s.filter_config.filter.headers });
      var payload = h('textarea', { id: 'tester-payload', 'aria-label': 'Sample payload' }); payload.value = '{}';
      var headers = h('textarea', { id: 'tester-headers', 'aria-label': 'Sample headers' }); headers.value = '{}';
      var result = h('p', { id: 'tester-result', role: 'status' });
      box.appendChild(h('h2', { text: 'Filter tester · ' + s.name }));
      box.appendChild(h('p', { class: 'muted', text: 'Runs the same filter engine as routing on a pasted payload and headers.' }));
      box.appendChild(h('div', { class: 'grid' }, h('label', {}, 'Filter', filter), h('label', {}, 'Payload', payload), h('label', {}, 'Headers', headers)));
      append(box, [h('button', { type: 'button', class: 'primary', id: 'tester-run', text: 'Test', onclick: async function () {
        result.className = 'match'; result.textContent = '';
        try {
          var f = JSON.parse(filter.value), body = { request: { body: JSON.parse(payload.value), headers: JSON.parse(headers.value) }, schema: { body: f.body || {}, headers: f.headers || {} } };
          var r = await api('POST', P(pid) + '/subscriptions/test_filter', body);
          result.className = 'match ' + (r.is_match ? 'yes' : 'no');
          result.textContent = r.is_match ? 'Match: this subscription would receive the event.' : 'No match: this subscription would skip the event.';
        } catch (e) { if (!(e instanceof Halt)) { result.className = 'alert'; result.textContent = e instanceof SyntaxError ? 'Not valid JSON: ' + e.message : e.message; } }
      } }), ' ', h('button', { type: 'button', id: 'tester-save', text: 'Save as the subscription filter', onclick: async function () {
        try {
          var f = JSON.parse(filter.value);
          if (!confirm('Replace the filter of subscription ' + s.name + '?')) return;
          await api('PUT', P(pid) + '/subscriptions/' + s.uid, { filter_config: { event_types: s.filter_config.event_types, filter: { body: f.body || {}, headers: f.headers || {} } } });
          toast('Filter saved'); await render();
        } catch (e) { if (!(e instanceof Halt)) { result.className = 'alert'; result.textContent = e instanceof SyntaxError ? 'Not valid JSON: ' + e.message : e.message; } }
      } }), result]);
      functionTester(box, s);
    }
    function functionTester(box, s) {
      var fn = h('textarea', { id: 'function-source', 'aria-label': 'Transform function' });
      fn.value = s.function || 'function transform(payload) {\n  return payload;\n}';
      var sample = h('textarea', { id: 'function-payload', 'aria-label': 'Sample payload for the function' }); sample.value = '{}';
      var out = h('pre', { id: 'function-result', text: '' });
      box.appendChild(h('h2', { text: 'Function tester' }));
      box.appendChild(h('p', { class: 'muted', text: 'Runs a transform function on a sample payload in the delivery sandbox.' }));
      box.appendChild(h('div', { class: 'grid' }, h('label', {}, 'Function', fn), h('label', {}, 'Payload', sample)));
      box.appendChild(h('button', { type: 'button', id: 'function-run', text: 'Run function', onclick: async function () {
        out.textContent = '';
        try {
          var r = await api('POST', P(pid) + '/subscriptions/test_function', { function: fn.value, payload: JSON.parse(sample.value) });
          out.textContent = json(r.payload);
        } catch (e) { if (!(e instanceof Halt)) out.textContent = e instanceof SyntaxError ? 'Not valid JSON: ' + e.message : e.message; }
      } }));
      box.appendChild(out);
    }
  }

  async function portalLinksView(pid) {
    screen('Portal links');
    var name = h('input', { name: 'name', required: true }), owner = h('input', { name: 'owner_id', required: true });
    var manage = h('input', { type: 'checkbox', name: 'can_manage_endpoint' });
    app.appendChild(h('form', { class: 'filters', id: 'portal-link-form', onsubmit: function (e) {
      e.preventDefault();
      act(api('POST', P(pid) + '/portal-links', { name: name.value, owner_id: owner.value, can_manage_endpoint: manage.checked }), 'Portal link created');
    } }, h('label', {}, 'Name', name), h('label', {}, 'Owner id', owner), h('label', {}, 'Can manage endpoints', manage),
      h('button', { type: 'submit', text: 'Create link' })));
    await listView({ path: P(pid) + '/portal-links', id: 'portal-links', empty: 'No portal links yet.',
      filters: [{ key: 'owner_id', label: 'Owner id' }], columns: [
      { label: 'Name', cell: function (l) { return l.name; } },
      { label: 'Owner', cell: function (l) { return l.owner_id || (l.endpoints || []).join(', '); } },
      { label: 'Manage', cell: function (l) { return l.can_manage_endpoint ? 'yes' : 'no'; } },
      { label: 'URL', cell: function (l) { return l.url ? [h('a', { href: l.url, target: '_blank', rel: 'noopener noreferrer', text: 'open' }), ' ', copyButton(l.url, 'Portal URL')] : '—'; } },
    ] });
  }

  async function metaEventsView(pid) {
    screen('Meta events');
    await listView({ path: P(pid) + '/meta-events', id: 'meta-events', empty: 'No meta events yet (configure them on the project).', filters: [
      { key: 'event_type', label: 'Event type' }, { key: 'status', label: 'Status', options: ['Scheduled', 'Processing', 'Success', 'Failure', 'Retry', 'Discarded'] }],
    columns: [
      { label: 'Created', cell: function (m) { return when(m.created_at); } },
      { label: 'Type', cell: function (m) { return m.event_type; } },
      { label: 'Status', cell: function (m) { return badge(m.status); } },
      { label: 'Payload', cell: function (m) { return h('pre', { text: json(m.metadata && m.metadata.data) }); } },
      { label: '', cell: function (m) { return h('button', { type: 'button', text: 'Resend', onclick: function () { act(api('PUT', P(pid) + '/meta-events/' + m.uid + '/resend'), 'Meta event resent'); } }); } },
    ] });
  }

  render();
})();
`;
