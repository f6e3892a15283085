import type { Browser } from 'playwright-core';
import { GatewayHarness } from '../testing/gateway-harness';
import { launchChromium } from '../portal/testing/portal-browser';
import { seedLink } from '../portal/testing/portal-fixtures';

jest.setTimeout(120_000);

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The only URLs a bundle may hold: XML namespace names (identifiers, never fetched). */
const NAMESPACES = new Set([
  'http://www.w3.org/1998/Math/MathML',
  'http://www.w3.org/1999/xhtml',
  'http://www.w3.org/2000/svg',
]);

/** The console's and the portal's bundles: hashed, cached for good, self-contained. */
describe('console and portal assets', () => {
  const h = new GatewayHarness();
  let browser: Browser;

  beforeAll(async () => {
    await h.start();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await h.stop();
  });

  /** The page's script and stylesheet URLs, as its HTML names them. */
  async function assetsOf(pagePath: string) {
    const res = await fetch(`${h.gateway.url}${pagePath}`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<style|style=|<script>/); // nothing inline: the CSP allows none
    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls).toHaveLength(2);
    return urls;
  }

  it.each([
    ['console', '/console', /^\/console\/assets\/console-[A-Z0-9]{8}\.(js|css)$/],
    ['portal', '/portal?token=x', /^\/portal\/assets\/portal-[A-Z0-9]{8}\.(js|css)$/],
  ])(
    'serves the %s bundle under hashed names, immutable, with no external URL',
    async (_name, path, name) => {
      for (const url of await assetsOf(path)) {
        expect(url).toMatch(name);
        const res = await fetch(`${h.gateway.url}${url}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('cache-control')).toBe(IMMUTABLE);
        expect(res.headers.get('content-type')).toMatch(url.endsWith('.js') ? /javascript/ : /text\/css/);
        const external = [...(await res.text()).matchAll(/https?:\/\/[^\s"'`)]*/g)].map((m) => m[0]);
        expect(external.filter((u) => !NAMESPACES.has(u))).toEqual([]);
      }
      const missing = await fetch(`${h.gateway.url}${path.split('?')[0]}/assets/console-00000000.js`);
      expect(missing.status).toBe(404);
    },
  );

  it('works with every other host unreachable: the console and the portal fetch only their own origin', async () => {
    const context = await browser.newContext();
    const elsewhere: string[] = [];
    await context.route('**/*', (route) => {
      if (route.request().url().startsWith(h.gateway.url)) return route.continue();
      elsewhere.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    const page = await context.newPage();
    // script errors and content-security-policy refusals (logged as console errors)
    const errors: string[] = [];
    page.on('pageerror', (e) => void errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
    });

    const p = await h.createProject();
    await page.goto(`${h.gateway.url}/console`);
    await page.locator('#key').fill(p.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#chart-outcomes canvas').waitFor();
    await page.locator('#chart-latency canvas').waitFor();

    const { token } = await seedLink(h.store, p.id, { owner_id: 'acme' });
    await page.goto(`${h.gateway.url}/portal?token=${token}`);
    await page.locator('#deliveries', { hasText: 'No deliveries yet' }).waitFor();

    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
