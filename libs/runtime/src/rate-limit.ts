import { hash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { MemoryStore, type Options } from 'express-rate-limit';
import { fail } from '@hookrail/domain';

export interface RateLimitRule {
  /** What a client is, in the 429 message: `API key`, `project`, `portal link`, `source`. */
  name: string;
  /** Requests allowed per window and client; 0 turns the rule off. */
  limit: number;
  windowMs: number;
  /** The client a request counts against; null: the rule does not apply to it. */
  key: (req: Request) => string | null;
}

/** A rule with its counts (express-rate-limit's fixed-window store) and its constant texts. */
interface CountedRule {
  rule: RateLimitRule;
  store: MemoryStore;
  limitText: string;
  policy: string;
  message: string;
}

function counted(rule: RateLimitRule): CountedRule {
  const store = new MemoryStore();
  store.init({ windowMs: rule.windowMs } as Options); // the store reads only the window
  const windowSeconds = Math.ceil(rule.windowMs / 1000);
  return {
    rule,
    store,
    limitText: String(rule.limit),
    policy: `${rule.limit};w=${windowSeconds}`,
    message: `rate limit exceeded for this ${rule.name}: at most ${rule.limit} requests per ${windowSeconds} s`,
  };
}

/** The IETF draft-6 headers express-rate-limit sends: `RateLimit-Policy/Limit/Remaining/Reset`. */
function setHeaders(res: Response, c: CountedRule, remaining: number, resetSeconds: number): void {
  res.setHeader('RateLimit-Policy', c.policy);
  res.setHeader('RateLimit-Limit', c.limitText);
  res.setHeader('RateLimit-Remaining', String(remaining));
  res.setHeader('RateLimit-Reset', String(resetSeconds));
}

/**
 * Fixed-window limits per client (express-rate-limit's in-memory store, per replica), one or more
 * per request. A request counts against each rule that applies to it, in order, and stops at the
 * first it exceeds: 429 with `Retry-After` (seconds until that window resets) and the error
 * envelope naming the rule. Within every limit the request goes on with one set of
 * `RateLimit-Limit/Remaining/Reset` headers, the rule's with the fewest requests left: the limit
 * the client will meet first. One middleware for all of a router's rules, not one per rule: each
 * would set the headers again, and the last one's would be sent.
 */
export function rateLimiter(...rules: RateLimitRule[]): RequestHandler {
  const active = rules.filter((r) => r.limit > 0).map(counted);
  if (active.length === 0) return (_req, _res, next) => next();
  return async (req, res, next) => {
    let tightest: CountedRule | undefined;
    let fewest = Infinity;
    let resetAt = 0;
    for (const c of active) {
      const key = c.rule.key(req);
      if (key === null) continue;
      const { totalHits, resetTime } = await c.store.increment(key);
      const remaining = Math.max(0, c.rule.limit - totalHits);
      const reset = resetTime ? resetTime.getTime() : Date.now() + c.rule.windowMs;
      if (totalHits > c.rule.limit) {
        const resetSeconds = secondsUntil(reset);
        setHeaders(res, c, 0, resetSeconds);
        res.setHeader('Retry-After', String(resetSeconds));
        res.status(429).json(fail(c.message, [{ field: '', message: c.message }]));
        return;
      }
      if (remaining < fewest) {
        tightest = c;
        fewest = remaining;
        resetAt = reset;
      }
    }
    if (tightest) setHeaders(res, tightest, fewest, secondsUntil(resetAt));
    next();
  };
}

const secondsUntil = (atMs: number): number => Math.max(0, Math.ceil((atMs - Date.now()) / 1000));

/**
 * The client behind a bearer credential: an API key's id (`hr_<id>` before the secret) or, for
 * any other token, a digest of it, so the limiter never holds a secret.
 */
export function credentialKey(authorization: string | undefined, queryToken?: unknown): string | null {
  const m = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  const token = m?.[1] ?? (typeof queryToken === 'string' && queryToken !== '' ? queryToken : null);
  if (!token) return null;
  const keyId = /^(hr_[A-Za-z0-9]+)\./.exec(token)?.[1];
  return keyId ?? hash('sha256', token, 'base64url').slice(0, 22);
}
