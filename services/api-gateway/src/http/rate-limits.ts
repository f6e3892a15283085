import type { RequestHandler } from 'express';
import { SURFACE_RATE_LIMITS } from '@hookrail/api-contract';
import type { HookrailConfig } from '@hookrail/config';
import { credentialKey, rateLimiter, type RateLimitRule } from '@hookrail/runtime';
import type { GatewaySurface } from './mount-operations';

type Limits = HookrailConfig['rateLimits'];
type GatewayScope = (typeof SURFACE_RATE_LIMITS)[GatewaySurface][number];

/** What each of the contract's rate-limit scopes counts per, in the gateway (limits per replica). */
const RULES: Record<GatewayScope, (limits: Limits) => RateLimitRule> = {
  'api-key': (l) => ({
    name: 'API key',
    limit: l.apiKey,
    windowMs: l.windowMs,
    key: (req) => credentialKey(req.headers.authorization),
  }),
  project: (l) => ({
    name: 'project',
    limit: l.project,
    windowMs: l.windowMs,
    key: (req) => /^\/v1\/projects\/([^/]+)/.exec(req.path)?.[1] ?? null,
  }),
  'portal-link': (l) => ({
    name: 'portal link',
    limit: l.portalLink,
    windowMs: l.windowMs,
    key: (req) => credentialKey(req.headers.authorization, req.query.token),
  }),
};

/** A surface's limits as the contract's table lists them, in its order; none: no middleware. */
export function surfaceRateLimiter(surface: GatewaySurface, limits: Limits): RequestHandler | undefined {
  const scopes: readonly GatewayScope[] = SURFACE_RATE_LIMITS[surface];
  return scopes.length === 0 ? undefined : rateLimiter(...scopes.map((scope) => RULES[scope](limits)));
}
