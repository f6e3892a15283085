// Verifies a Hookrail delivery (docs/verifying-webhooks.md). Node 18+, no dependencies.
// Always verify the raw request body exactly as received: parsing and re-serialising the JSON
// changes the bytes and breaks the signature.
'use strict';
const crypto = require('node:crypto');

const TOLERANCE_SECONDS = 300; // reject signatures older or newer than 5 minutes (replays)

function hmac(algorithm, key, encoding, ...parts) {
  const mac = crypto.createHmac(algorithm, key);
  for (const part of parts) mac.update(part);
  return mac.digest(encoding);
}

function safeEqual(a, b) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

function timestampOk(t, now, toleranceSeconds) {
  return /^\d+$/.test(t) && Math.abs(now - Number(t)) <= toleranceSeconds;
}

/**
 * Simple scheme: the signature header (default X-Hookrail-Signature) is the HMAC of the raw body,
 * keyed with the endpoint secret's UTF-8 bytes. `secrets`: every secret you currently accept.
 */
function verifySimple(rawBody, signature, secrets, { algorithm = 'sha256', encoding = 'hex' } = {}) {
  if (!signature) return false;
  return secrets.some((secret) => safeEqual(hmac(algorithm, secret, encoding, rawBody), signature));
}

/**
 * Advanced scheme: `t=<unix seconds>,v1=<sig>,v1=<sig>...`; each vN signature is the HMAC of
 * "<t>,<raw body>" with one valid secret, using the project's N-th signature version.
 */
function verifyAdvanced(
  rawBody,
  header,
  secrets,
  {
    version = 1,
    algorithm = 'sha256',
    encoding = 'hex',
    toleranceSeconds = TOLERANCE_SECONDS,
    now = Date.now() / 1000,
  } = {},
) {
  if (!header) return false;
  let t = null;
  const candidates = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const name = part.slice(0, eq);
    const value = part.slice(eq + 1);
    if (name === 't') t = value;
    else if (name === `v${version}`) candidates.push(value);
  }
  if (t === null || !timestampOk(t, now, toleranceSeconds)) return false;
  return secrets.some((secret) => {
    const expected = hmac(algorithm, secret, encoding, `${t},`, rawBody);
    return candidates.some((candidate) => safeEqual(expected, candidate));
  });
}

/** Standard Webhooks key: a `whsec_` secret is base64 after the prefix; any other is its UTF-8 bytes. */
function standardWebhooksKey(secret) {
  return secret.startsWith('whsec_')
    ? Buffer.from(secret.slice('whsec_'.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

/**
 * Standard Webhooks mode: `webhook-signature` lists `v1,<base64 HMAC-SHA256>` separated by spaces,
 * each over "<webhook-id>.<webhook-timestamp>.<raw body>". `headers` has lower-case names.
 */
function verifyStandardWebhooks(
  rawBody,
  headers,
  secrets,
  { toleranceSeconds = TOLERANCE_SECONDS, now = Date.now() / 1000 } = {},
) {
  const id = headers['webhook-id'];
  const t = headers['webhook-timestamp'];
  const signatures = (headers['webhook-signature'] || '').split(' ');
  if (!id || !t || !timestampOk(t, now, toleranceSeconds)) return false;
  return secrets.some((secret) => {
    const expected = 'v1,' + hmac('sha256', standardWebhooksKey(secret), 'base64', `${id}.${t}.`, rawBody);
    return signatures.some((candidate) => safeEqual(expected, candidate));
  });
}

module.exports = { verifySimple, verifyAdvanced, verifyStandardWebhooks };

// --- Example receiver: `HOOKRAIL_SECRET=... node verify.js serve 3000` ---
if (require.main === module && process.argv[2] === 'serve') {
  const http = require('node:http');
  const secrets = [process.env.HOOKRAIL_SECRET];
  http
    .createServer((req, res) => {
      const chunks = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks);
        const ok = verifySimple(rawBody, req.headers['x-hookrail-signature'], secrets);
        res.writeHead(ok ? 200 : 401).end(ok ? 'ok' : 'bad signature');
        if (ok) console.log(req.headers['x-hookrail-event-type'], rawBody.toString('utf8'));
      });
    })
    .listen(Number(process.argv[3] || 3000));
}

// --- Used by the docs test (docs/verify/verify.int.spec.ts): one case as JSON on stdin ---
if (require.main === module && process.argv[2] === 'check') {
  const c = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
  const body = Buffer.from(c.body_base64, 'base64');
  const header = c.headers[c.header.toLowerCase()];
  const ok =
    c.scheme === 'simple'
      ? verifySimple(body, header, c.secrets, { algorithm: c.algorithm, encoding: c.encoding })
      : c.scheme === 'advanced'
        ? verifyAdvanced(body, header, c.secrets, {
            version: c.version,
            algorithm: c.algorithm,
            encoding: c.encoding,
            now: c.now,
          })
        : verifyStandardWebhooks(body, c.headers, c.secrets, { now: c.now });
  console.log(ok ? 'valid' : 'invalid');
  process.exit(ok ? 0 : 1);
}
