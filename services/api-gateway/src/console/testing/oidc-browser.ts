import type { Page } from 'playwright-core';

/**
 * Signs in through single sign-on as a demo person: the console's button, the dev provider's
 * password form, back to the console. Resolves once the provider's form was submitted and the
 * browser came back to the gateway (signed in or shown the refusal page).
 */
export async function signInThroughProvider(page: Page, gatewayUrl: string, login: string): Promise<void> {
  await page.goto(`${gatewayUrl}/console`);
  await page.getByRole('link', { name: 'Sign in with single sign-on' }).click();
  await providerLogin(page, gatewayUrl, login);
}

/** On the provider's password form: types the demo password (the name) and waits to be back. */
export async function providerLogin(page: Page, gatewayUrl: string, login: string): Promise<void> {
  await page.getByLabel('User name').fill(login);
  await page.getByLabel('Password').fill(login);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.href.startsWith(gatewayUrl));
  await page.locator('#who:not(:empty), #sign-in-refused').first().waitFor();
}
