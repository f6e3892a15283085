import { hash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
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

/**
 * A fixed-window limit per client (express-rate-limit, in memory, per replica): within the limit
 * a request goes on with `RateLimit-Limit/Remaining/Reset` headers; past it the answer is 429 with
 * `Retry-After` (seconds until the window resets) and the error envelope.
 */
export function rateLimiter(rule: RateLimitRule): RequestHandler {
  if (rule.limit <= 0) return (_req, _res, next) => next();
  const windowSeconds = Math.ceil(rule.windowMs / 1000);
  const message = `rate limit exceeded for this ${rule.name}: at most ${rule.limit} requests per ${windowSeconds} s`;
  return rateLimit({
    windowMs: rule.windowMs,
    limit: rule.limit,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    skip: (req) => rule.key(req) === null,
    keyGenerator: (req) => rule.key(req) ?? '',
    // Clients are keys, projects, links and sources, never IP addresses.
    validate: { keyGeneratorIpFallback: false, ip: false, trustProxy: false, xForwardedForHeader: false },
    handler: (_req, res) => void res.status(429).json(fail(message, [{ field: '', message }])),
  });
}

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
