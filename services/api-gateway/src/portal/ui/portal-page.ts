/**
 * The portal page, served at `/portal?token=...`. Kept as a TypeScript string module so the esbuild
 * service bundle carries it (no static folder to copy). All data is rendered with textContent by
 * portal-app.ts, never as HTML.
 */
export const PORTAL_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Webhooks portal</title>
<style>
  :root { --fg:#1d2430; --muted:#5d6b7e; --line:#dde3ea; --bg:#f6f8fb; --accent:#2456d6; --ok:#1d7a46; --bad:#b42318; --warn:#a15c00; }
  * { box-sizing: border-box; }
  [hidden] { display:none !important; }
  body { margin:0; font:14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color:var(--fg); background:var(--bg); }
  header { background:#fff; border-bottom:1px solid var(--line); padding:14px 24px; display:flex; align-items:baseline; gap:12px; }
  header h1 { font-size:18px; margin:0; }
  header .muted { color:var(--muted); }
  main { max-width:1100px; margin:0 auto; padding:20px 24px 60px; }
  section { background:#fff; border:1px solid var(--line); border-radius:8px; padding:16px; margin-bottom:18px; }
  section h2 { font-size:15px; margin:0 0 12px; display:flex; justify-content:space-between; align-items:center; }
  table { width:100%; border-collapse:collapse; }
  th, td { text-align:left; padding:7px 8px; border-bottom:1px solid var(--line); vertical-align:top; }
  th { color:var(--muted); font-weight:600; font-size:12px; text-transform:uppercase; letter-spacing:.03em; }
  tr.clickable { cursor:pointer; } tr.clickable:hover { background:#f0f4fb; } tr.selected { background:#e6eefc; }
  .badge { display:inline-block; padding:1px 8px; border-radius:10px; font-size:12px; font-weight:600; background:#eef1f5; }
  .s-active, .s-Success { background:#e3f5ea; color:var(--ok); }
  .s-paused, .s-Retry, .s-Scheduled, .s-Processing { background:#fff3df; color:var(--warn); }
  .s-inactive, .s-Failure, .s-Discarded { background:#fdeceb; color:var(--bad); }
  .b-open { background:var(--bad); color:#fff; margin-left:4px; } .b-half_open { background:var(--warn); color:#fff; margin-left:4px; }
  .reason { color:var(--muted); font-size:12px; margin:2px 0; }
  .secret { display:flex; align-items:center; gap:8px; margin:6px 0; }
  .secret-value { background:#f0f3f7; padding:3px 8px; border-radius:4px; word-break:break-all; }
  .offscreen { position:fixed; left:-9999px; top:0; }
  select { font:inherit; padding:4px 6px; border:1px solid var(--line); border-radius:6px; }
  div.inline { display:flex; gap:8px; align-items:center; margin-top:10px; }
  h3 { font-size:13px; margin:14px 0 4px; }
  button { font:inherit; padding:4px 10px; border:1px solid var(--line); border-radius:6px; background:#fff; cursor:pointer; }
  button.primary { background:var(--accent); border-color:var(--accent); color:#fff; }
  button.danger { color:var(--bad); }
  button + button { margin-left:4px; }
  form.inline { display:flex; gap:8px; flex-wrap:wrap; margin-bottom:12px; }
  input { font:inherit; padding:5px 8px; border:1px solid var(--line); border-radius:6px; min-width:220px; }
  pre { background:#0f1720; color:#e6edf3; padding:10px; border-radius:6px; overflow:auto; max-height:260px; font-size:12px; margin:4px 0 10px; }
  .grid { display:grid; grid-template-columns:1fr 1fr; gap:12px; }
  .muted { color:var(--muted); }
  ul.types { display:flex; flex-wrap:wrap; gap:6px; list-style:none; padding:0; margin:0 0 12px; }
  ul.types li { background:#eef1f5; border-radius:10px; padding:1px 10px; font-size:12px; }
  .mono { font-family:ui-monospace, SFMono-Regular, Menlo, monospace; font-size:12px; }
  #error { display:none; background:#fdeceb; color:var(--bad); border:1px solid #f3c4c0; padding:10px 14px; border-radius:8px; margin-bottom:16px; }
  #notice { display:none; background:#e3f5ea; color:var(--ok); padding:8px 14px; border-radius:8px; margin-bottom:16px; }
</style>
</head>
<body>
<header><h1 id="title">Webhooks</h1><span class="muted" id="subtitle"></span></header>
<main>
  <div id="error" role="alert"></div>
  <div id="notice" role="status"></div>
  <section id="endpoints-section">
    <h2>Endpoints</h2>
    <form id="create-form" class="inline" hidden>
      <input name="name" placeholder="Name" required>
      <input name="url" placeholder="https://example.com/webhooks" required type="url">
      <input name="event_types" placeholder="Event types, comma-separated (empty: all)" aria-label="Event types">
      <button class="primary" type="submit">Add endpoint</button>
    </form>
    <table><thead><tr><th>Name</th><th>URL</th><th>Status</th><th>Events</th><th>Failure rate</th><th></th></tr></thead>
    <tbody id="endpoints"></tbody></table>
  </section>
  <section id="endpoint-detail" hidden>
    <h2><span>Endpoint <span id="endpoint-detail-name"></span></span></h2>
    <div id="endpoint-body"></div>
  </section>
  <section id="event-types-section">
    <h2>Event types sent so far</h2>
    <ul id="event-types" class="types"></ul>
  </section>
  <section>
    <h2><span>Deliveries</span><button id="refresh" type="button">Refresh</button></h2>
    <form id="delivery-filters" class="inline" aria-label="Delivery filters">
      <select name="status" aria-label="Status"><option value="">any status</option><option>Success</option><option>Failure</option><option>Retry</option><option>Scheduled</option><option>Processing</option><option>Discarded</option></select>
      <select name="endpointId" aria-label="Endpoint"><option value="">any endpoint</option></select>
      <button type="submit">Filter</button>
    </form>
    <table><thead><tr><th>Created</th><th>Event type</th><th>Endpoint</th><th>Status</th><th>Attempts</th><th>Last response</th><th></th></tr></thead>
    <tbody id="deliveries"></tbody></table>
    <div class="inline"><button id="newer" type="button" hidden>Newer</button><button id="older" type="button" hidden>Older</button></div>
  </section>
  <section id="detail" hidden>
    <h2><span>Delivery <span class="mono" id="detail-id"></span></span><button id="replay-event" type="button" hidden>Replay event</button></h2>
    <h3>Payload sent</h3>
    <pre id="payload"></pre>
    <div id="attempts"></div>
  </section>
</main>
<script src="/portal/app.js"></script>
</body>
</html>
`;
