/**
 * A run form is read-only until its view has read the form it left last time, so what a user types
 * as soon as the page lets them is kept: not overwritten by the restore, nor (in workshop mode) by
 * the Learn presets applied at load. The story catalog is held back until the test has seen the form
 * read-only, then served: the window a busy machine opens by chance (a CI failure:
 * Learn's S typed before the restore came back as the preset's 15) is opened on purpose, and its
 * length does not depend on the machine's speed (a fixed 1.5 s delay was over before a slow CI
 * machine had checked the field).
 */
import { expect, test, type Page } from '@playwright/test';
import { holdRequests } from './helpers.ts';
import { setNumber } from './run-helpers.ts';

const CASES = [
  { view: 'learn', field: 'learn-steps', key: 'maxSteps', value: 21, query: '' },
  { view: 'learn', field: 'learn-steps', key: 'maxSteps', value: 21, query: '&workshop=1' },
  { view: 'learn', field: 'learn-episodes', key: 'episodes', value: 4, query: '&workshop=1' },
  { view: 'agent', field: 'agent-max-steps', key: 'maxSteps', value: 17, query: '' },
  { view: 'evolve', field: 'evolve-train-repeats', key: 'trainRepeats', value: 2, query: '' },
  { view: 'evaluate', field: 'evaluate-repeats', key: 'repeats', value: 4, query: '' },
] as const;

/** The form a view saved (store setting `form:<view>`, form-memory.svelte.ts), read from IndexedDB. */
function savedForm(page: Page, view: string): Promise<Record<string, unknown> | null> {
  return page.evaluate(
    (key) =>
      new Promise<Record<string, unknown> | null>((resolve, reject) => {
        const open = indexedDB.open('metattl-playground');
        open.onerror = () => reject(new Error(String(open.error)));
        open.onsuccess = () => {
          const request = open.result.transaction('settings').objectStore('settings').get(key);
          request.onsuccess = () => {
            open.result.close();
            resolve((request.result as { value?: Record<string, unknown> } | undefined)?.value ?? null);
          };
          request.onerror = () => reject(new Error(String(request.error)));
        };
      }),
    `form:${view}`,
  );
}

for (const c of CASES) {
  test(`${c.view}${c.query}: ${c.field} waits for the restore and keeps what was typed, across a reload`, async ({ page }) => {
    const { release } = await holdRequests(page, '**/stories/catalog.json'); // every view's library waits for it
    await page.goto(`./?view=${c.view}${c.query}`);
    const root = page.getByTestId(c.view);
    const field = page.getByTestId(c.field);
    await expect(field).toBeVisible();
    await expect(root).not.toHaveAttribute('data-ready', 'true');
    await expect(field).toBeDisabled();
    release();
    await setNumber(page, c.field, c.value); // waits until the field is enabled
    await expect(root).toHaveAttribute('data-ready', 'true');
    await page.waitForTimeout(800); // a preset or restore landing late would show by now
    await expect(field).toHaveValue(String(c.value));
    // The form's store write has landed (a reload before it would find no saved form).
    await expect.poll(async () => (await savedForm(page, c.view))?.[c.key]).toBe(c.value);
    await page.reload();
    await expect(root).toHaveAttribute('data-ready', 'true');
    await expect(field).toHaveValue(String(c.value));
  });
}
