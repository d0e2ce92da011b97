/**
 * The shipped evolution and evaluation in Replay, with no provider or key: opened from Replay's
 * list, labelled with what produced them (the simulated model, not a language model), the
 * evolution drawn as Evolve draws it — a lineage of ≥ 2 levels below the seed, two accepted
 * children, the best on the Pareto front — and the evaluation's results table by policy names (ids
 * in a title); one of its sessions replays and the overview comes back; axe-core finds no serious or critical violation.
 * At 1280×800 and 1920×1080; screenshots saved.
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { openReplay } from './replay-helpers.ts';

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/w16/shots';

/** axe-core's serious and critical violations on the page (rule id and the first node), for a readable failure. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`);
}

/** Depth below the seed of every lineage node, from its data-parent links. */
async function lineageDepth(page: Page): Promise<number> {
  const links = await page.getByTestId('lineage-node').evaluateAll((nodes) => nodes.map((n) => [n.getAttribute('data-id')!, n.getAttribute('data-parent') ?? ''] as [string, string]));
  const parent = new Map(links);
  const depth = (id: string): number => (parent.get(id) ? 1 + depth(parent.get(id)!) : 0);
  return Math.max(...links.map(([id]) => depth(id)));
}

for (const size of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }]) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('the shipped evolution shows its lineage and Pareto front with no key', async ({ page }) => {
      const llmCalls: string[] = [];
      page.on('request', (r) => {
        if (/chat\/completions|\/models$|api\.openai\.com/.test(r.url())) llmCalls.push(r.url());
      });
      await openReplay(page);
      const entry = page.locator('[data-testid="replay-shipped"][data-id="evolution-scripted"]');
      await expect(entry).toContainText('simulated model — not a language model');
      await expect(page.locator('li', { has: entry }).getByTestId('replay-provenance')).toContainText('simulated model — not a language model; it shows how the loop works');
      await expect(page.locator('li', { has: entry }).getByTestId('replay-provenance')).toContainText('npx tsx scripts/record-show-replays.ts');
      await entry.click();
      const evolution = page.getByTestId('replay-evolution');
      await expect(evolution).toBeVisible();
      await expect(page.getByTestId('lineage-node')).toHaveCount(4);
      expect(await lineageDepth(page)).toBeGreaterThanOrEqual(2);
      expect(Number(await evolution.getAttribute('data-front-size'))).toBeGreaterThanOrEqual(1);
      // The candidate table stars every front member: the best child tops both games.
      await expect(page.getByTestId('candidate-row').filter({ hasText: '★' })).toHaveCount(1);
      await expect(page.getByTestId('candidate-row').filter({ has: page.locator('.status.accepted') })).toHaveCount(2);
      await expect(page.getByTestId('replay-evolution-progress')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByTestId('lineage-node').filter({ hasText: 'c2' }).getByRole('button').click();
      await expect(page.getByTestId('replay-candidate-strategy')).toContainText('FACT BANK');
      await expect(page.getByTestId('replay-candidate-strategy')).toContainText('Drop moves that scored nothing');
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}/E-replay-evolution-${size.width}.png`, fullPage: false });
      expect(llmCalls).toEqual([]);
    });

    test('the shipped evaluation shows its results table by names, and a session replays', async ({ page }) => {
      await openReplay(page, '&replay=evaluation-scripted');
      const table = page.getByTestId('results-table');
      await expect(table).toBeVisible();
      await expect(page.getByTestId('result-policy')).toHaveText(['static', 'naive', /^Evolved c\d+ \(simulated run\)$/]);
      await expect(page.getByTestId('result-policy').nth(2)).toHaveAttribute('title', /^evolved-c\d+$/);
      await expect(page.getByTestId('replay-item')).toHaveCount(6);
      await expect(page.getByTestId('replay-item').nth(4)).toContainText('Evolved');
      expect(await seriousViolations(page)).toEqual([]);
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}/E-replay-evaluation-${size.width}.png`, fullPage: false });
      await page.getByTestId('replay-item').nth(5).click();
      await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'true');
      await page.getByTestId('replay-overview').click();
      await expect(table).toBeVisible();
    });
  });
}
