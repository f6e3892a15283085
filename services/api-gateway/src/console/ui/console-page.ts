/**
 * The console's page and stylesheet, kept as TypeScript string modules so the esbuild service
 * bundle carries them (no static folder to copy). All data is rendered with textContent by
 * console-app.ts, never as HTML.
 */
export const CONSOLE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Hookrail console</title>
<link rel="stylesheet" href="/console/assets/console.css">
</head>
<body>
<header class="top">
  <a class="brand" href="/console" data-nav>Hookrail console</a>
  <span id="who" class="muted"></span>
  <button id="sign-out" type="button" hidden>Sign out</button>
</header>
<div class="layout">
  <nav id="side" aria-label="Project sections" hidden></nav>
  <main id="app" tabindex="-1"><p class="muted">Loading…</p></main>
</div>
<div id="toast" role="status" aria-live="polite"></div>
<script src="/console/assets/console.js"></script>
</body>
</html>
`;

export const CONSOLE_CSS = `:root { --fg:#1d2430; --muted:#5d6b7e; --line:#dde3ea; --bg:#f6f8fb; --accent:#1f4fc4; --ok:#1d6b3f; --bad:#a61b12; --warn:#8a4f00; }
* { box-sizing: border-box; }
[hidden] { display:none !important; }
body { margin:0; font:14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color:var(--fg); background:var(--bg); }
a { color:var(--accent); }
header.top { background:#fff; border-bottom:1px solid var(--line); padding:12px 20px; display:flex; gap:14px; align-items:center; }
header.top .brand { font-weight:700; font-size:16px; text-decoration:none; color:var(--fg); }
header.top #who { margin-left:auto; }
.layout { display:flex; min-height:calc(100vh - 50px); }
nav#side { width:200px; background:#fff; border-right:1px solid var(--line); padding:14px 0; }
nav#side a { display:block; padding:6px 18px; text-decoration:none; color:var(--fg); }
nav#side a[aria-current="page"] { background:#e6eefc; font-weight:600; }
nav#side .project { padding:0 18px 10px; font-weight:600; word-break:break-all; }
main { flex:1; padding:18px 24px 60px; min-width:0; }
main:focus { outline:none; }
h1 { font-size:19px; margin:0 0 14px; }
h2 { font-size:15px; margin:18px 0 8px; }
section.card { background:#fff; border:1px solid var(--line); border-radius:8px; padding:14px 16px; margin-bottom:16px; }
table { width:100%; border-collapse:collapse; background:#fff; border:1px solid var(--line); }
th, td { text-align:left; padding:7px 8px; border-bottom:1px solid var(--line); vertical-align:top; }
th { color:var(--muted); font-weight:600; font-size:12px; text-transform:uppercase; letter-spacing:.03em; }
.badge { display:inline-block; padding:1px 8px; border-radius:10px; font-size:12px; font-weight:600; background:#eef1f5; }
.s-active, .s-Success, .s-closed { background:#e3f5ea; color:var(--ok); }
.s-paused, .s-Retry, .s-Scheduled, .s-Processing, .s-half_open, .s-Pending { background:#fff3df; color:var(--warn); }
.s-inactive, .s-Failure, .s-Discarded, .s-open { background:#fdeceb; color:var(--bad); }
.muted { color:var(--muted); }
.mono { font-family:ui-monospace, SFMono-Regular, Menlo, monospace; font-size:12px; word-break:break-all; }
form.filters { display:flex; flex-wrap:wrap; gap:10px; align-items:flex-end; margin-bottom:12px; }
form.filters label, form.stack label { display:flex; flex-direction:column; font-size:12px; color:var(--muted); gap:2px; }
input, select, textarea { font:inherit; padding:5px 8px; border:1px solid #b8c2cf; border-radius:6px; background:#fff; color:var(--fg); }
textarea { width:100%; min-height:110px; font-family:ui-monospace, Menlo, monospace; font-size:12px; }
button { font:inherit; padding:4px 10px; border:1px solid #b8c2cf; border-radius:6px; background:#fff; cursor:pointer; color:var(--fg); }
button.primary { background:var(--accent); border-color:var(--accent); color:#fff; }
button.danger { color:var(--bad); }
button:focus-visible, a:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible { outline:2px solid var(--accent); outline-offset:2px; }
.row-actions button + button { margin-left:4px; }
.toolbar { display:flex; gap:8px; align-items:center; margin:10px 0; flex-wrap:wrap; }
.pager { display:flex; gap:12px; margin-top:10px; }
.empty { padding:24px; text-align:center; color:var(--muted); background:#fff; border:1px dashed var(--line); border-radius:8px; }
pre { background:#0f1720; color:#e6edf3; padding:10px; border-radius:6px; overflow:auto; max-height:320px; font-size:12px; margin:4px 0 10px; white-space:pre-wrap; word-break:break-all; }
.grid { display:grid; grid-template-columns:repeat(auto-fit, minmax(260px, 1fr)); gap:12px; }
.stat { background:#fff; border:1px solid var(--line); border-radius:8px; padding:12px 14px; }
.stat b { display:block; font-size:22px; }
.alert { background:#fdeceb; color:var(--bad); border:1px solid #f3c4c0; padding:10px 14px; border-radius:8px; margin-bottom:14px; }
.signin { max-width:420px; margin:60px auto; background:#fff; border:1px solid var(--line); border-radius:10px; padding:24px; }
.signin input { width:100%; margin:6px 0 14px; }
#toast { position:fixed; bottom:18px; right:18px; background:#1d2430; color:#fff; padding:8px 14px; border-radius:8px; display:none; }
#toast.show { display:block; }
.offscreen { position:fixed; left:-9999px; top:0; }
input.narrow { width:110px; }
svg.chart { width:100%; height:auto; background:#fff; }
svg.chart .tick { font-size:11px; fill:var(--muted); }
figure { margin:0; }
figcaption { font-size:12px; color:var(--muted); }
ul.legend { list-style:none; display:flex; gap:12px; padding:0; margin:4px 0 0; }
.swatch { display:inline-block; width:10px; height:10px; margin-right:4px; border-radius:2px; }
.sw-Success { background:#2f8f57; } .sw-Retry { background:#d08a1a; } .sw-Failure { background:#c0392b; } .sw-Discarded { background:#7a8594; }
.sw-p50 { background:#1f4fc4; } .sw-p95 { background:#8e44ad; }
a.tab[aria-current="true"] { font-weight:700; text-decoration:none; color:var(--fg); }
#retry-backlog { font-size:18px; }
.match { font-weight:700; } .match.yes { color:var(--ok); } .match.no { color:var(--bad); }
`;
