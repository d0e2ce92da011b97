/**
 * Accessibility: axe-core finds no serious or critical violation in any view — at first
 * open, with the tour open, in workshop mode, and with a finished run (a Learn session and an
 * evolution imported from the shipped recordings, an Agent run and a small evaluation with the mock
 * LLM, Replay with the shipped recording open).
 * No rule is disabled. Runs at 1280×800, workshop mode also at 1920×1080.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { EVOLUTION_EXPORT_FORMAT } from '../src/evolve/evolution-io.ts';
import { REPO_ROOT } from '../test/support/shared.ts';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { expectNoSeriousViolations } from './axe.ts';
import { configureForLearn, goToLearn } from './learn-helpers.ts';
import { goTo, startRun } from './llm-helpers.ts';
import { SHIPPED_TEXT } from './replay-helpers.ts';
import { goToRunView, setNumber, setStoryRole, useMock } from './run-helpers.ts';

type View = 'play' | 'agent' | 'learn' | 'replay' | 'library' | 'evolve' | 'evaluate' | 'experiments' | 'settings';
const VIEWS: View[] = ['play', 'agent', 'learn', 'replay', 'library', 'evolve', 'evaluate', 'experiments', 'settings'];

/** The element and attribute that say a view is ready to be checked. */
const READY: Record<View, [string, string, string]> = {
  play: ['player', 'data-ready', 'true'],
  agent: ['agent', 'data-ready', 'true'],
  learn: ['learn', 'data-ready', 'true'],
  replay: ['replay', 'data-loaded', 'false'],
  library: ['meta-library', 'data-ready', 'true'],
  evolve: ['evolve', 'data-ready', 'true'],
  evaluate: ['evaluate', 'data-ready', 'true'],
  experiments: ['experiments', 'data-ready', 'true'],
  settings: ['settings', 'data-loaded', 'true'],
};

test.use({ viewport: { width: 1280, height: 800 } });

let mock: MockLlm | undefined;
test.afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** Switch to `view` with the nav and wait until it is ready. */
async function show(page: Page, view: View): Promise<void> {
  await page.getByTestId(`nav-${view}`).click();
  const [testid, attribute, value] = READY[view];
  await expect(page.getByTestId(testid)).toHaveAttribute(attribute, value);
  await expect(page.locator('.app')).toHaveAttribute('data-view', view);
  // One `main` landmark per page (the view); a view's columns are named regions inside it.
  await expect(page.getByRole('main')).toHaveCount(1);
  await expect(page.getByRole('main')).toHaveAccessibleName(`The ${view} view`);
}

/** Load the page (first visit: the tour opens) and close the tour. */
async function openClosingTour(page: Page, query = ''): Promise<void> {
  await page.goto(`./${query}`);
  await expect(page.locator('.app')).toHaveAttribute('data-tour-ready', 'true');
  if ((await page.locator('.app').getAttribute('data-tour-open')) === 'true') {
    await expect(page.getByTestId('tour')).toBeVisible();
    await page.getByTestId('tour').press('Escape');
  }
  await expect(page.getByTestId('tour')).toHaveCount(0);
}

test('every view at first open', async ({ page }) => {
  // Nine views, each opened and scanned by axe (~5 s a view on a slow 2-core machine).
  test.setTimeout(150_000);
  await openClosingTour(page);
  for (const view of VIEWS) {
    await show(page, view);
    await expectNoSeriousViolations(page, `the ${view} view at first open`);
  }
});

test('the first-visit tour, open over the Play view', async ({ page }) => {
  await page.goto('./');
  await expect(page.getByTestId('tour')).toBeVisible();
  await expect(page.getByTestId('player')).toHaveAttribute('data-ready', 'true');
  await expectNoSeriousViolations(page, 'the tour on the Play view');
});

test('workshop mode, every view it shows', async ({ page }) => {
  test.setTimeout(120_000);
  await openClosingTour(page, '?workshop=1');
  await expect(page.locator('.app')).toHaveAttribute('data-workshop', 'true');
  for (const view of ['play', 'learn', 'replay', 'settings'] as const) {
    await show(page, view);
    await expectNoSeriousViolations(page, `the ${view} view in workshop mode`);
  }
});

test.describe('at 1920×1080 (a projector)', () => {
  test.use({ viewport: { width: 1920, height: 1080 } });
  test('workshop mode, every view it shows', async ({ page }) => {
    test.setTimeout(120_000);
    await openClosingTour(page, '?workshop=1');
    for (const view of ['play', 'learn', 'replay', 'settings'] as const) {
      await show(page, view);
      await expectNoSeriousViolations(page, `the ${view} view in workshop mode at 1920×1080`);
    }
  });
});

test('Replay with the shipped recording open, at its end', async ({ page }) => {
  await openClosingTour(page);
  await show(page, 'replay');
  await page.locator('[data-testid="replay-shipped"][data-id="lever-room-naive"]').click();
  await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'true');
  await expectNoSeriousViolations(page, 'Replay with the recording open');
  await page.getByTestId('replay-speed').selectOption('32');
  await page.getByTestId('replay-play').click();
  await expect(page.getByTestId('replay')).toHaveAttribute('data-at-end', 'true', { timeout: 30_000 });
  await expectNoSeriousViolations(page, 'Replay at the end of the recording');
});

test('Learn with a finished session open (the shipped recording, imported), and Agent after a finished run with the mock LLM', async ({ page }) => {
  test.setTimeout(90_000);
  mock = await startMockLlm({ script: ['pull yellow lever', 'look', 'pull red lever'] });
  await configureForLearn(page, mock.baseUrl);
  // A finished session seeded from a recording: the Learn form plays sessions in learn.spec.ts.
  await goToLearn(page);
  await page.getByTestId('learn-import').setInputFiles({ name: 'lever-room-naive.json', mimeType: 'application/json', buffer: Buffer.from(SHIPPED_TEXT) });
  await expect(page.getByTestId('learn-progress')).toHaveAttribute('data-status', 'complete');
  await expect(page.getByTestId('learn-runs-error')).toHaveCount(0);
  await expectNoSeriousViolations(page, 'Learn with a finished session open');
  await goTo(page, 'agent');
  await startRun(page, { story: 'lever-room', maxSteps: 3 });
  await expect(page.getByTestId('agent-termination')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('agent')).toHaveAttribute('data-phase', 'idle');
  await expectNoSeriousViolations(page, 'Agent after a finished run');
});

test('Evaluate after a small finished evaluation', async ({ page }) => {
  test.setTimeout(150_000);
  mock = await startMockLlm({ exploreCommands: ['east', 'get all', 'west', 'north'] });
  await useMock(page, mock.baseUrl);
  await goToRunView(page, 'evaluate');
  await setStoryRole(page, 'evaluate', 'advent', 'custom', '0');
  await setNumber(page, 'evaluate-repeats', 1);
  await setNumber(page, 'evaluate-episodes', 2);
  await setNumber(page, 'evaluate-steps', 2);
  await page.getByTestId('evaluate-start').click();
  await expect(page.getByTestId('evaluate-run')).toHaveAttribute('data-status', 'complete', { timeout: 120_000 });
  await expectNoSeriousViolations(page, 'Evaluate after a finished evaluation');
});

test('Evolve with a finished evolution open (the shipped recording, imported)', async ({ page }) => {
  // A finished evolution seeded from a recording: the Evolve form plays evolutions in evolve.spec.ts.
  await openClosingTour(page, '?view=evolve');
  await expect(page.getByTestId('evolve')).toHaveAttribute('data-ready', 'true');
  const state: unknown = JSON.parse(readFileSync(resolve(REPO_ROOT, 'public/replays/evolution-scripted.json'), 'utf8'));
  const text = JSON.stringify({ format: EVOLUTION_EXPORT_FORMAT, state, events: [] });
  await page.getByTestId('evolve-import').setInputFiles({ name: 'evolution-scripted.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect(page.getByTestId('evolve-run')).toHaveAttribute('data-status', 'complete');
  // Its last child is rejected: select it (a dashed, muted node, once 2.96:1 when selected).
  const child = page.getByTestId('lineage-node').last().getByRole('button');
  await expect(child).toHaveClass(/rejected|failed/);
  await child.press('Enter');
  await expect(child).toHaveAttribute('aria-pressed', 'true');
  await expectNoSeriousViolations(page, 'Evolve with a finished evolution, a rejected lineage node selected');
});
