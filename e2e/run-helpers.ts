/**
 * Shared steps of the Evolve and Evaluate e2e tests: point Settings at the mock LLM with the same
 * model for every role, open the views, and give shelf stories a role (the views' test ids are
 * their contract).
 */
import { expect, type Page } from '@playwright/test';
import { configureProvider, openView, settingsSaved } from './llm-helpers.ts';

/** Settings: custom provider at `baseUrl`, the test key, 'mock-model' for all three roles. */
export async function useMock(page: Page, baseUrl: string): Promise<void> {
  await openView(page, 'settings');
  await configureProvider(page, { baseUrl });
  await page.getByTestId('model-meta-agent').fill('mock-model');
  await page.getByTestId('model-proposer').fill('mock-model');
  await settingsSaved(page);
}

/** Switch to the Evolve or Evaluate view with the nav (no reload) and wait until it is ready. */
export async function goToRunView(page: Page, view: 'evolve' | 'evaluate'): Promise<void> {
  await page.getByTestId(`nav-${view}`).click();
  await expect(page.getByTestId(view)).toHaveAttribute('data-ready', 'true');
}

/** Give shelf story `id` a role in the view's story list (and optionally its seeds). */
export async function setStoryRole(page: Page, view: 'evolve' | 'evaluate', id: string, role: string, seeds?: string): Promise<void> {
  const row = page.locator(`[data-testid="${view}-story"][data-id="${id}"]`);
  await row.getByTestId(`${view}-role`).selectOption(role);
  if (seeds !== undefined) await row.getByTestId(`${view}-seeds`).fill(seeds);
}

/** Type a value into a NumberField by test id. */
export async function setNumber(page: Page, testid: string, value: number): Promise<void> {
  await page.getByTestId(testid).fill(String(value));
}

/** The page is no wider than the viewport (no horizontal scrolling). */
export async function expectNoHorizontalScroll(page: Page, width = 375): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}
