import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

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

/** The system Chromium the portal's browser tests drive (installed by the test setup). */
export async function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
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
