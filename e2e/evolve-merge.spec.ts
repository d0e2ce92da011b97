/**
 * The Evolve view shows GEPA's merge proposer and P×N proposals: an exported run whose
 * fourth iteration merged c2 and c3 (the scripted world of test/support/merge-world.ts) is
 * imported; the "Outer loop" line names the options, the candidate table and the inspector name
 * both parents of the merge.
 */
import { expect, test } from '@playwright/test';
import { EVOLUTION_EXPORT_FORMAT } from '../src/evolve/evolution-io.ts';
import { acceptedMergeDraws, mergeConfig, scriptedRng, world } from '../test/support/merge-world.ts';
import { runScripted } from '../test/support/scripted-evolution.ts';

test('an imported run with a merge shows both parents and the outer-loop options', async ({ page }) => {
  const { state } = await runScripted(world, mergeConfig(24), { rng: scriptedRng(acceptedMergeDraws()) });
  // The exported config also names 1×2 proposals (the run itself made one an iteration), for the line.
  const text = JSON.stringify({ format: EVOLUTION_EXPORT_FORMAT, state: { ...state, id: 'merge-run', config: { ...state.config, proposals: { parents: 1, mutations: 2 } } }, events: [] });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('./?view=evolve');
  await expect(page.getByTestId('evolve')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('evolve-import').setInputFiles({ name: 'merge-run.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect(page.getByTestId('evolve-notice')).toContainText('Imported run merge-run.');
  await expect(page.getByTestId('evolve-strategy')).toHaveText('parent: current_best · accept: improvement or equal · proposals: 1×2 (parents × mutations) · merge: up to 5');
  const row = page.locator('[data-testid="candidate-row"][data-id="c4"]');
  await expect(row).toHaveAttribute('data-status', 'accepted');
  await expect(row.locator('td').first()).toHaveText('c2 + c3 (merge)');
  await expect(page.locator('[data-testid="lineage-node"][data-id="c4"]')).toHaveAttribute('data-parent', 'c2');
  await expect(page.locator('[data-testid="lineage-node"][data-id="c4"]').getByTestId('lineage-merge')).toHaveText('+ c3');
  await row.getByTestId('candidate-select').click();
  await expect(page.getByTestId('candidate-inspector').locator('h3')).toContainText('merge of c2 and c3 (ancestor c0)');
  await page.screenshot({ path: process.env.SHOT_DIR ? `${process.env.SHOT_DIR}/evolve-merge.png` : test.info().outputPath('evolve-merge.png'), fullPage: false });
});
