/**
 * Meters and labels, at 1280×800 and at 1920×1080 in workshop mode,
 * against the mock LLM (no price for its model): Settings says once that the meta-agent and the
 * proposer use the actor's model; Evolve's and Evaluate's meters show "—" for the cost, also after
 * the run finished ("Spent" stays); the candidate heatmap has a legend scaled from 0; Evolve's
 * selects show their whole option text; a web task's transcript speaks of the page and the task,
 * never the game; the kind toggle and the story picker have distinct labels. Screenshots go to
 * /tmp/w16/shots when that folder exists, else test-results/.
 */
import { existsSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { webScript } from '../test/support/web-scripts.ts';
import { configureProvider, goTo } from './llm-helpers.ts';
import { goToRunView, setNumber, setStoryRole } from './run-helpers.ts';

const SCREENS = [
  { name: '1280x800', width: 1280, height: 800, workshop: false },
  { name: '1920x1080-workshop', width: 1920, height: 1080, workshop: true },
] as const;

const SHOTS = existsSync('/tmp/w16/shots') ? '/tmp/w16/shots/B-' : 'test-results/words-';

let mock: MockLlm | undefined;
test.afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** Settings: the mock at a custom base URL, only the actor's model given. */
async function mockWithActorOnly(page: Page, baseUrl: string, workshop: boolean): Promise<void> {
  await page.goto(`./?view=settings${workshop ? '&workshop=1' : ''}`);
  await expect(page.getByTestId('settings')).toHaveAttribute('data-loaded', 'true');
  await configureProvider(page, { baseUrl });
}

/** Open `view` by its nav link, or by URL where workshop mode shows no link for it. */
async function open(page: Page, view: 'evolve' | 'evaluate' | 'agent', workshop: boolean): Promise<void> {
  if (await page.getByTestId(`nav-${view}`).count()) {
    if (view === 'agent') await goTo(page, 'agent');
    else await goToRunView(page, view);
    return;
  }
  await page.goto(`./?view=${view}${workshop ? '&workshop=1' : ''}`);
  await expect(page.getByTestId(view)).toHaveAttribute('data-ready', 'true');
}

/** Every select inside `scope` is wide enough for its longest option's text (nothing cut off),
 * once the view's layout has settled (its grid is laid out again as the catalog arrives). */
async function expectSelectsFit(page: Page, scope: string): Promise<void> {
  await expect.poll(() => cutSelects(page, scope), { timeout: 10_000 }).toEqual([]);
}

/** The options (with their select's width) whose text does not fit their select. */
async function cutSelects(page: Page, scope: string): Promise<string[]> {
  return page.locator(scope).evaluate((root) => {
    const probe = document.createElement('span');
    probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
    document.body.append(probe);
    const problems: string[] = [];
    for (const select of root.querySelectorAll('select')) {
      probe.style.font = getComputedStyle(select).font;
      for (const option of select.options) {
        probe.textContent = option.text;
        // Room for the padding and the drop-down arrow.
        if (probe.getBoundingClientRect().width + 28 > select.clientWidth) problems.push(`${option.text} (${select.clientWidth}px)`);
      }
    }
    probe.remove();
    return problems;
  });
}

for (const screen of SCREENS) {
  test.describe(screen.name, () => {
    test.use({ viewport: { width: screen.width, height: screen.height } });

    test('Settings says once who uses the actor’s model; an evolution shows — and keeps Spent; heatmap legend; selects fit', async ({ page }) => {
      test.setTimeout(180_000);
      mock = await startMockLlm({ exploreCommands: ['take paper', 'west', 'north', 'look'] });
      await mockWithActorOnly(page, mock.baseUrl, screen.workshop);
      await expect(page.getByTestId('roles-on-actor-model')).toHaveText('No model given for the meta-agent and proposer: they use the actor’s model (mock-model).');
      await expect(page.getByTestId('model-proposer')).toHaveAttribute('placeholder', 'the actor’s model');
      await expect(page.getByTestId('price-note')).toContainText('The built-in rows are OpenAI’s prices and count only with the OpenAI preset');
      await page.screenshot({ path: `${SHOTS}settings-${screen.name}.png`, fullPage: true });

      await open(page, 'evolve', screen.workshop);
      await expectSelectsFit(page, '[data-testid="evolve"]');
      await expect(page.getByRole('combobox', { name: 'Proposer', exact: true })).toHaveValue('llm');
      await setStoryRole(page, 'evolve', 'advent', 'train');
      await setStoryRole(page, 'evolve', 'local:detective.z5', 'val');
      await setNumber(page, 'evolve-episodes', 2);
      await setNumber(page, 'evolve-steps', 4);
      await setNumber(page, 'evolve-budget', 4);
      await expect(page.getByTestId('evolve-estimate-usd')).toContainText('—');
      await page.getByTestId('evolve-seed-strategy').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}evolve-setup-${screen.name}.png` });
      await page.getByTestId('evolve-start').click();
      await expect(page.getByTestId('evolve-cost')).toContainText('—', { timeout: 30_000 });
      await expect(page.getByTestId('evolve-run')).toHaveAttribute('data-status', 'complete', { timeout: 150_000 });
      // After the run: still there, still no invented dollars.
      await expect(page.getByTestId('evolve-cost')).toHaveText(/^[\d,]+ tokens · —$/);
      expect(mock.requests.filter((r) => r.role === 'proposer').every((r) => (r.body as { model: string }).model === 'mock-model')).toBe(true);
      expect(mock.requests.filter((r) => r.role === 'proposer').length).toBeGreaterThan(0);
      await expect(page.getByTestId('evolve-run')).toContainText('LLM proposer: Keep game facts (as GEPA) · seed 0');

      // The proposer's reasoning never shows the raw <strategy> block (the strategy is the diff above it).
      await page.locator('[data-testid="candidate-row"][data-id="c1"]').getByTestId('candidate-select').click();
      await expect(page.getByTestId('candidate-diff')).toBeVisible();
      await expect(page.getByTestId('candidate-reply')).not.toContainText('<strategy>');
      await expect(page.getByTestId('candidate-reply')).not.toBeEmpty();
      await page.getByTestId('candidate-inspector').getByRole('button', { name: 'Close' }).click();

      const legend = page.getByTestId('heatmap-legend');
      await expect(legend).toBeVisible();
      await expect(legend.getByTestId('heatmap-legend-min')).toHaveText('0.000');
      // A 0 is the dark end of the scale, never the bright "best" end.
      const zero = page.locator('[data-testid="candidate-row"] td.heat', { hasText: /^0\.000$/ }).first();
      if (await zero.count()) await expect(zero).toHaveCSS('background-color', 'rgb(68, 1, 84)');
      await page.getByTestId('candidate-table').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}evolve-done-${screen.name}.png` });
      await page.getByTestId('evolve-run').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}evolve-run-${screen.name}.png` });
    });

    test('an evaluation’s meter shows — while it runs and after it finished', async ({ page }) => {
      test.setTimeout(120_000);
      mock = await startMockLlm({ exploreCommands: ['take paper', 'west', 'north', 'look'] });
      await mockWithActorOnly(page, mock.baseUrl, screen.workshop);
      await open(page, 'evaluate', screen.workshop);
      await expectSelectsFit(page, '[data-testid="evaluate"]');
      await setStoryRole(page, 'evaluate', 'advent', 'custom', '0');
      await setNumber(page, 'evaluate-repeats', 1);
      await setNumber(page, 'evaluate-episodes', 2);
      await setNumber(page, 'evaluate-steps', 3);
      await expect(page.getByTestId('evaluate-estimate-usd')).toContainText('—');
      await page.getByTestId('evaluate-start').click();
      await expect(page.getByTestId('evaluate-run')).toHaveAttribute('data-status', 'complete', { timeout: 90_000 });
      await expect(page.getByTestId('evaluate-cost')).toHaveText(/^Spent: [\d,]+ tokens · —$/);
      await expect(page.getByTestId('evaluate-run')).toContainText('custom (1 task) · K 2 · S 3 · 1 repeat · baseline');
      await page.screenshot({ path: `${SHOTS}evaluate-${screen.name}.png` });
    });

    test('a web task’s transcript speaks of the page and the task; the kind and story controls have distinct labels', async ({ page }) => {
      const { goal, actions } = await webScript('web:shop/t1:1');
      mock = await startMockLlm({ exploreCommands: ['noop()'], goalScripts: [{ goal, script: actions }] });
      await mockWithActorOnly(page, mock.baseUrl, screen.workshop);
      await open(page, 'agent', screen.workshop);
      await expect(page.getByLabel('Story to play', { exact: true })).toHaveCount(1);
      await expect(page.getByRole('radio', { name: 'A story (text adventure)' })).toHaveCount(1);
      await expect(page.getByLabel('Story', { exact: true })).toHaveCount(0);
      await page.getByTestId('agent-kind-web').check();
      await page.getByTestId('web-task-id').fill('web:shop/t1:1');
      await page.getByTestId('agent-start').click();
      await expect(page.getByTestId('agent-termination')).toHaveAttribute('data-termination', 'game_over', { timeout: 30_000 });
      await expect(page.getByTestId('agent-transcript-start')).toHaveText('The page as the task opened');
      await expect(page.getByTestId('agent-transcript-ending')).toHaveText('Episode ended: task completed, final score 1 of 1.');
      await expect(page.getByTestId('agent')).not.toContainText('game over');
      await expect(page.getByTestId('agent')).not.toContainText('the game ended');
      await expect(page.getByTestId('agent')).not.toContainText('The game’s opening text');
      await expect(page.getByTestId('agent-step-answer').first()).toHaveAttribute('aria-label', 'The page’s answer to #1');
    });
  });
}
