/**
 * A run form is read-only until its view has read the form it left last time, so what a user types
 * as soon as the page lets them is kept: not overwritten by the restore, nor (in workshop mode) by
 * the Learn presets applied at load. The story catalog is held back until the test has seen the form
 * read-only, then served: the window a busy machine opens by chance (a CI failure:
 * Learn's S typed before the restore came back as the preset's 15) is opened on purpose, and its
 * length does not depend on the machine's speed (a fixed 1.5 s delay was over before a slow CI
 * machine had checked the field).
 */
import { expect, test } from '@playwright/test';
import { holdRequests } from './helpers.ts';
import { setNumber } from './run-helpers.ts';

const CASES = [
  { view: 'learn', field: 'learn-steps', value: 21, query: '' },
  { view: 'learn', field: 'learn-steps', value: 21, query: '&workshop=1' },
  { view: 'learn', field: 'learn-episodes', value: 4, query: '&workshop=1' },
  { view: 'agent', field: 'agent-max-steps', value: 17, query: '' },
  { view: 'evolve', field: 'evolve-train-repeats', value: 2, query: '' },
  { view: 'evaluate', field: 'evaluate-repeats', value: 4, query: '' },
] as const;

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
    await page.waitForTimeout(700); // the form's store write
    await page.reload();
    await expect(root).toHaveAttribute('data-ready', 'true');
    await expect(field).toHaveValue(String(c.value));
  });
}
