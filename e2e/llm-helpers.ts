/**
 * Shared steps of the Agent and Settings e2e tests: open a view, point the Settings view at a
 * provider (usually the mock LLM started in the test process), start an agent run, and check
 * that the key never leaks into the DOM or the URL. Test ids used here are the views' contract.
 */
import { expect, type Page } from '@playwright/test';

export const KEY = 'test-key-123456';

/** Load the page on `view` (a full page load: the in-memory key is gone afterwards). */
export async function openView(page: Page, view: 'agent' | 'settings'): Promise<void> {
  await page.goto(`./?view=${view}`);
  if (view === 'settings') await expect(page.getByTestId('settings')).toHaveAttribute('data-loaded', 'true');
  else await expect(page.getByTestId('agent')).toHaveAttribute('data-ready', 'true');
}

/** Switch view with the nav (no reload, so the in-memory key stays). */
export async function goTo(page: Page, view: 'play' | 'agent' | 'settings'): Promise<void> {
  await page.getByTestId(`nav-${view}`).click();
  if (view === 'settings') await expect(page.getByTestId('settings')).toHaveAttribute('data-loaded', 'true');
  else if (view === 'agent') await expect(page.getByTestId('agent')).toHaveAttribute('data-ready', 'true');
  else await expect(page.getByTestId('player')).toHaveAttribute('data-ready', 'true');
}

/** Wait until every settings change is in the store. */
export async function settingsSaved(page: Page): Promise<void> {
  await expect(page.getByTestId('settings')).toHaveAttribute('data-pending', '0');
}

export interface ProviderOptions {
  baseUrl: string;
  key?: string;
  actorModel?: string;
}

/** On the Settings view: custom provider at `baseUrl`, the key, the actor's model. */
export async function configureProvider(page: Page, { baseUrl, key = KEY, actorModel = 'mock-model' }: ProviderOptions): Promise<void> {
  await page.getByTestId('provider-preset').selectOption('custom');
  await page.getByTestId('base-url').fill(baseUrl);
  await page.getByTestId('api-key').fill(key);
  await page.getByTestId('model-actor').fill(actorModel);
  await settingsSaved(page);
}

export interface RunOptions {
  story?: string;
  seed?: number;
  maxSteps?: number;
}

/** On the Agent view: choose the story, seed and step limit, then press Start. */
export async function startRun(page: Page, { story = 'advent', seed = 0, maxSteps = 10 }: RunOptions = {}): Promise<void> {
  await page.getByTestId('story-picker').selectOption(story);
  await page.getByTestId('agent-seed').fill(String(seed));
  await page.getByTestId('agent-max-steps').fill(String(maxSteps));
  await page.getByTestId('agent-start').click();
}

/** The key appears nowhere in the page's HTML (a password field's value is not markup) nor in its URL. */
export async function expectNoKeyLeak(page: Page, key = KEY): Promise<void> {
  expect(await page.content()).not.toContain(key);
  expect(page.url()).not.toContain(key);
  const visibleText = await page.evaluate(() => document.body.innerText);
  expect(visibleText).not.toContain(key);
}

/** Collect the page's console messages and uncaught errors (to check that no key is logged). */
export function collectConsole(page: Page): string[] {
  const lines: string[] = [];
  page.on('console', (message) => lines.push(message.text()));
  page.on('pageerror', (error) => lines.push(String(error)));
  return lines;
}
