import type { Express } from 'express';
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

/** Serves the portal's page at a link's `url` (/portal?token=...); its API is the `portal` surface. */
export function mountPortalPage(app: Express): void {
  app.use('/portal/assets', uiAssets());
  app.get('/portal', (_req, res) =>
    sendUiPage(res, 'portal', 'Webhooks portal', '/portal/assets', PAGE_HEADERS),
  );
}
