/**
 * Accessibility (issue 19): axe-core finds no serious or critical violation in any view — at first
 * open, with the tour open, in workshop mode, and after a finished run (a Learn session and an Agent
 * run with the mock LLM, a small Evaluate and Evolve run, Replay with the shipped recording open).
 * No rule is disabled. Runs at 1280×800, workshop mode also at 1920×1080.
 */
import { expect, test, type Page } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { expectNoSeriousViolations } from './axe.ts';
import { configureForLearn, goToLearn, startSession, waitComplete } from './learn-helpers.ts';
import { goTo, startRun } from './llm-helpers.ts';
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

test('Learn and Agent after a finished run with the mock LLM', async ({ page }) => {
  test.setTimeout(120_000);
  mock = await startMockLlm({ script: ['pull yellow lever', 'look', 'pull red lever'] });
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await startSession(page, { story: 'lever-room', episodes: 2, maxSteps: 3 });
  await waitComplete(page);
  await expectNoSeriousViolations(page, 'Learn after a finished session');
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

test('Evolve after a small finished evolution', async ({ page }) => {
  test.setTimeout(180_000);
  mock = await startMockLlm({ exploreCommands: ['take paper', 'west', 'north', 'look'] });
  await useMock(page, mock.baseUrl);
  await goToRunView(page, 'evolve');
  await setStoryRole(page, 'evolve', 'advent', 'train');
  await setStoryRole(page, 'evolve', 'local:detective.z5', 'val');
  await setNumber(page, 'evolve-episodes', 2);
  await setNumber(page, 'evolve-steps', 2);
  await setNumber(page, 'evolve-budget', 4);
  await page.getByTestId('evolve-start').click();
  await expect(page.getByTestId('evolve-run')).toHaveAttribute('data-status', 'complete', { timeout: 150_000 });
  // The mock's children are rejected: select the last one (a dashed, muted node, once 2.96:1 when selected).
  const child = page.getByTestId('lineage-node').last().getByRole('button');
  await expect(child).toHaveClass(/rejected|failed/);
  await child.press('Enter');
  await expect(child).toHaveAttribute('aria-pressed', 'true');
  await expectNoSeriousViolations(page, 'Evolve after a finished evolution, a rejected lineage node selected');
});
