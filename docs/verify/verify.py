"""Verifies a Hookrail delivery (docs/verifying-webhooks.md). Python 3.8+, standard library only.

Always verify the raw request body exactly as received: parsing and re-serialising the JSON
changes the bytes and breaks the signature.
"""
import base64
import hashlib
import hmac
import time

TOLERANCE_SECONDS = 300  # reject signatures older or newer than 5 minutes (replays)


def _hmac(algorithm, key, encoding, *parts):
    mac = hmac.new(key, digestmod=getattr(hashlib, algorithm))
    for part in parts:
        mac.update(part)
    digest = mac.digest()
    return digest.hex() if encoding == "hex" else base64.b64encode(digest).decode()


def _equal(a, b):
    return hmac.compare_digest(a.encode(), b.encode())


def _timestamp_ok(t, now, tolerance_seconds):
    return t.isascii() and t.isdigit() and abs(now - int(t)) <= tolerance_seconds


def verify_simple(raw_body, signature, secrets, algorithm="sha256", encoding="hex"):
    """Simple scheme: the signature header (default X-Hookrail-Signature) is the HMAC of the raw
    body, keyed with the endpoint secret's UTF-8 bytes. `secrets`: every secret you accept now."""
    if not signature:
        return False
    return any(
        _equal(_hmac(algorithm, s.encode(), encoding, raw_body), signature) for s in secrets
    )


def verify_advanced(raw_body, header, secrets, version=1, algorithm="sha256", encoding="hex",
                    tolerance_seconds=TOLERANCE_SECONDS, now=None):
    """Advanced scheme: `t=<unix seconds>,v1=<sig>,v1=<sig>...`; each vN signature is the HMAC of
    "<t>,<raw body>" with one valid secret, using the project's N-th signature version."""
    if not header:
        return False
    now = time.time() if now is None else now
    t, candidates = None, []
    for part in header.split(","):
        name, _, value = part.partition("=")
        if name == "t":
            t = value
        elif name == f"v{version}":
            candidates.append(value)
    if t is None or not _timestamp_ok(t, now, tolerance_seconds):
        return False
    for s in secrets:
        expected = _hmac(algorithm, s.encode(), encoding, f"{t},".encode(), raw_body)
        if any(_equal(expected, c) for c in candidates):
            return True
    return False


def standard_webhooks_key(secret):
    """A `whsec_` secret is base64 after the prefix; any other secret is its UTF-8 bytes."""
    if secret.startswith("whsec_"):
        return base64.b64decode(secret[len("whsec_"):])
    return secret.encode()


def verify_standard_webhooks(raw_body, headers, secrets, tolerance_seconds=TOLERANCE_SECONDS, now=None):
    """Standard Webhooks mode: `webhook-signature` lists `v1,<base64 HMAC-SHA256>` separated by
    spaces, each over "<webhook-id>.<webhook-timestamp>.<raw body>". `headers`: lower-case names."""
    now = time.time() if now is None else now
    msg_id = headers.get("webhook-id")
    t = headers.get("webhook-timestamp", "")
    signatures = headers.get("webhook-signature", "").split(" ")
    if not msg_id or not _timestamp_ok(t, now, tolerance_seconds):
        return False
    for s in secrets:
        mac = _hmac("sha256", standard_webhooks_key(s), "base64", f"{msg_id}.{t}.".encode(), raw_body)
        if any(_equal("v1," + mac, c) for c in signatures):
            return True
    return False


# --- Used by the docs test (docs/verify/verify.int.spec.ts): one case as JSON on stdin ---
if __name__ == "__main__":
    import json
    import sys

    if sys.argv[1:] == ["check"]:
        c = json.load(sys.stdin)
        body = base64.b64decode(c["body_base64"])
        header = c["headers"].get(c["header"].lower())
        if c["scheme"] == "simple":
            ok = verify_simple(body, header, c["secrets"], c["algorithm"], c["encoding"])
        elif c["scheme"] == "advanced":
            ok = verify_advanced(body, header, c["secrets"], c["version"], c["algorithm"], c["encoding"],
                                 now=c["now"])
        else:
            ok = verify_standard_webhooks(body, c["headers"], c["secrets"], now=c["now"])
        print("valid" if ok else "invalid")
        sys.exit(0 if ok else 1)
