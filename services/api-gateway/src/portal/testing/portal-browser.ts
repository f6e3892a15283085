import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { GatewayHarness } from '../../testing/gateway-harness';

const ARTIFACTS = path.resolve(__dirname, '../../../../../test-artifacts/portal');

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The system Chromium the portal's and console's browser tests drive (installed by the test setup):
 * Debian's headless shell, which costs about a third less CPU per suite than the full browser
 * in headless mode.
 */
export async function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: '/usr/bin/chromium-headless-shell', args: CHROMIUM_ARGS });
}

/**
 * For a describe block: starts the gateway harness (with `env`) and Chromium before its tests and
 * stops both after them. Returns the browser, there once the tests run.
 */
export function gatewayAndChromium(h: GatewayHarness, env?: Record<string, string>): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    await h.start(env);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await h.stop();
  });
  return () => browser!;
}

/**
 * For a describe block: each test gets a page in a context of its own, and the script errors and
 * CSP refusals the page logs (HTTP errors the page handles, e.g. a 401 before sign-in, are logged
 * as resources that failed to load: not counted).
 */
export function pagePerTest(browser: () => Browser): { page: () => Page; errors: () => string[] } {
  let context: BrowserContext | undefined;
  let page: Page;
  let errors: string[] = [];
  beforeEach(async () => {
    context = await browser().newContext({ viewport: { width: 1300, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(10_000); // a missing element fails with its locator, before jest's 30 s
    errors = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
    });
    page.on('pageerror', (e) => void errors.push(e.message));
  });
  afterEach(async () => context?.close());
  return { page: () => page, errors: () => errors };
}

/** A full-page screenshot under test-artifacts/portal, for a human to look at. */
export function screenshot(page: Page, name: string): Promise<Buffer> {
  return page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Answers the page's confirmation dialog (components/ConfirmDialog) with its confirm button; returns its question. */
export async function confirmDialog(page: Page): Promise<string> {
  const dialog = page.locator('dialog#confirm[open]');
  const question = await dialog.locator('#confirm-message').innerText();
  await dialog.locator('button.primary').click();
  await dialog.waitFor({ state: 'detached' });
  return question;
}

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical findings on the page as it is now (id and elements). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const result = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as {
    violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[];
  };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(' ')}`);
}

/**
 * Presses Tab until the element matching `selector` has the focus, as a keyboard user gets there
 * (it fails when the element is not reachable by Tab within `max` presses).
 */
export async function tabTo(page: Page, selector: string, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate(`!!document.activeElement?.matches(${JSON.stringify(selector)})`)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`tabTo: ${selector} not reached in ${max} presses of Tab`);
}
