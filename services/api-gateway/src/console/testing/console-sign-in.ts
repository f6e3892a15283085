import type { Page } from 'playwright-core';

/**
 * Opens a console page and signs in there with the keyboard alone: waits until the key field has
 * the focus (typing before that would go nowhere), types the key, presses Enter and waits for the
 * signed-in layout.
 */
export async function openSignedIn(page: Page, url: string, key: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
  await page.locator('#key:focus').waitFor();
  await page.keyboard.type(key);
  await page.keyboard.press('Enter');
  await page.locator('#side, #projects').first().waitFor();
}
