import { Router, type Express } from 'express';
import { fail } from '@hookrail/domain';
import { credentialKey, rateLimiter } from '@hookrail/runtime';
import type { GatewayDeps } from '../deps';
import { errorMapper } from '../http/error-mapper';
import { portalApiRouter } from './portal-api.router';
import { gatewayEndpointOps } from './portal-endpoint-ops';
import { sendUiPage, uiAssets } from '../ui-assets/ui-assets';

/**
 * The page may run only its own script and stylesheet and talk only to its own origin; images may
 * also come over https (the project's branding logo, config.portal_branding.logo_url); the token
 * never leaks in a Referer.
 */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' https:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

/** Serves the portal: its API under /portal-api and the page at a link's `url` (/portal?token=...). */
export function mountPortal(app: Express, deps: GatewayDeps): void {
  const api = Router();
  api.use(
    rateLimiter({
      name: 'portal link',
      limit: deps.config.rateLimits.portalLink,
      windowMs: deps.config.rateLimits.windowMs,
      key: (req) => credentialKey(req.headers.authorization, req.query.token),
    }),
  );
  api.use(portalApiRouter(deps, gatewayEndpointOps(deps)));
  api.use((req, res) => {
    res.status(404).json(fail(`no route for ${req.method} ${req.originalUrl.split('?')[0]}`));
  });
  api.use(errorMapper(deps.logger));
  app.use('/portal-api', api);
  app.use('/portal/assets', uiAssets());
  app.get('/portal', (_req, res) =>
    sendUiPage(res, 'portal', 'Webhooks portal', '/portal/assets', PAGE_HEADERS),
  );
}
