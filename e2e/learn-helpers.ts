/**
 * Shared steps of the Learn and Library e2e tests: point Settings at the mock LLM (actor and
 * meta-agent models, the key remembered so a reload keeps it), open the Learn view, fill the
 * setup form, start a session, and read a downloaded session export. Test ids are the views'
 * contract.
 */
import { readFileSync } from 'node:fs';
import { expect, type Download, type Page } from '@playwright/test';
import { configureProvider, goTo, openView } from './llm-helpers.ts';

/** Settings → custom provider at `baseUrl`, actor and meta-agent "mock-model", key remembered. */
export async function configureForLearn(page: Page, baseUrl: string): Promise<void> {
  await openView(page, 'settings');
  await configureProvider(page, { baseUrl });
  await page.getByTestId('model-meta-agent').fill('mock-model');
  await page.getByTestId('remember-key').check();
  await expect(page.getByTestId('settings')).toHaveAttribute('data-pending', '0');
}

/** Switch to the Learn view with the nav and wait until its form is ready. */
export async function goToLearn(page: Page): Promise<void> {
  await page.getByTestId('nav-learn').click();
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
}

/** Back to the Settings view with the nav (keeps the in-memory key). */
export const goToSettings = (page: Page): Promise<void> => goTo(page, 'settings');

export interface SessionSetup {
  story?: string;
  seed?: number;
  /** A policy option id: 'static', 'reflexion', 'memory', 'meta:naive', 'meta:<entry id>'. */
  policy?: string;
  episodes: number;
  maxSteps: number;
}

/** Fill the Learn form and press Start. */
export async function startSession(page: Page, { story = 'advent', seed = 0, policy = 'meta:naive', episodes, maxSteps }: SessionSetup): Promise<void> {
  await page.getByTestId('story-picker').selectOption(story);
  await page.getByTestId('learn-seed').fill(String(seed));
  await page.getByTestId('learn-policy').selectOption(policy);
  await page.getByTestId('learn-episodes').fill(String(episodes));
  await page.getByTestId('learn-steps').fill(String(maxSteps));
  await page.getByTestId('learn-start').click();
}

/** Wait until the shown session is complete. */
export async function waitComplete(page: Page, timeout = 60_000): Promise<void> {
  await expect(page.getByTestId('learn-progress')).toHaveAttribute('data-status', 'complete', { timeout });
  await expect(page.getByTestId('learn')).toHaveAttribute('data-phase', 'idle');
}

/** Click `button` and return the text of the file it downloads. */
export async function downloadText(page: Page, click: () => Promise<void>): Promise<string> {
  const downloading: Promise<Download> = page.waitForEvent('download');
  await click();
  return readFileSync(await (await downloading).path(), 'utf8');
}
