/**
 * Names, remembered forms and links, at 1280×800 and at 1920×1080 in workshop mode:
 * Evaluate's results name their policies (ids in a title) and the Δ W-AUC column is reachable by
 * keyboard; Learn, Agent, Evolve and Evaluate keep their forms across a reload; a stale
 * `?replay=` does not ride along into other views or their links. Screenshots go to test-results/.
 */
import { expect, test } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { goToRunView, setNumber, setStoryRole, useMock } from './run-helpers.ts';

const SCREENS = [
  { name: '1280x800', width: 1280, height: 800, workshop: false },
  { name: '1920x1080-workshop', width: 1920, height: 1080, workshop: true },
] as const;

let mock: MockLlm;
test.beforeEach(async () => {
  mock = await startMockLlm({ exploreCommands: ['east', 'look'] });
});
test.afterEach(async () => {
  await mock.close();
});

for (const screen of SCREENS) {
  test.describe(screen.name, () => {
    test.use({ viewport: { width: screen.width, height: screen.height } });
    const query = screen.workshop ? '&workshop=1' : '';
    /** The nav's link to `view` when it shows one (workshop mode lists fewer views), else the URL. */
    const go = async (page: import('@playwright/test').Page, view: string): Promise<void> => {
      const link = page.getByTestId(`nav-${view}`);
      if (await link.count()) await link.click();
      else await page.goto(`./?view=${view}${query}`);
    };

    test('a stale ?replay= is dropped when switching views and is in no nav link', async ({ page }) => {
      await page.goto(`./?view=replay&replay=lever-room-naive${query}`);
      await expect(page.getByTestId('nav-learn')).toBeVisible();
      for (const view of ['play', 'agent', 'learn', 'library', 'evolve', 'evaluate', 'settings']) {
        const link = page.getByTestId(`nav-${view}`);
        if (await link.count()) expect(await link.getAttribute('href')).not.toContain('replay=');
      }
      await go(page, 'learn');
      await expect(page).toHaveURL(/view=learn/);
      expect(page.url()).not.toContain('replay=');
      if (screen.workshop) expect(page.url()).toContain('workshop=1');
      await go(page, 'library');
      expect(page.url()).not.toContain('replay=');
      await page.screenshot({ path: `test-results/url-${screen.name}.png` });
    });

    test('Learn, Agent, Evolve and Evaluate keep their forms across a reload', async ({ page }) => {
      await page.goto(`./?view=learn${query}`);
      await expect(page.getByTestId('learn-episodes')).toBeVisible();
      await setNumber(page, 'learn-episodes', 3);
      await setNumber(page, 'learn-steps', 21);
      await go(page, 'agent');
      await setNumber(page, 'agent-max-steps', 17);
      await go(page, 'evolve');
      await expect(page.getByTestId('evolve')).toHaveAttribute('data-ready', 'true');
      await setNumber(page, 'evolve-train-repeats', 2);
      await go(page, 'evaluate');
      await expect(page.getByTestId('evaluate')).toHaveAttribute('data-ready', 'true');
      await setNumber(page, 'evaluate-repeats', 4);
      await page.waitForTimeout(1500); // let the last store write land before the reload (300 ms lost it under load)
      await page.reload();
      await expect(page.getByTestId('evaluate')).toHaveAttribute('data-ready', 'true');
      await expect(page.getByTestId('evaluate-repeats')).toHaveValue('4');
      await go(page, 'evolve');
      await expect(page.getByTestId('evolve-train-repeats')).toHaveValue('2');
      await go(page, 'agent');
      await expect(page.getByTestId('agent-max-steps')).toHaveValue('17');
      await go(page, 'learn');
      await expect(page.getByTestId('learn-episodes')).toHaveValue('3');
      await expect(page.getByTestId('learn-steps')).toHaveValue('21');
      await page.screenshot({ path: `test-results/learn-${screen.name}.png` });
    });

    test('Evaluate names its policies, keeps ids in titles, and the Δ W-AUC column is reachable by keyboard', async ({ page }) => {
      test.setTimeout(120_000);
      await useMock(page, mock.baseUrl);
      if (screen.workshop) await page.goto('./?view=evaluate&workshop=1');
      else await goToRunView(page, 'evaluate');
      await expect(page.getByTestId('evaluate')).toHaveAttribute('data-ready', 'true');
      await setStoryRole(page, 'evaluate', 'advent', 'custom', '0');
      await setNumber(page, 'evaluate-repeats', 1);
      await setNumber(page, 'evaluate-episodes', 1);
      await setNumber(page, 'evaluate-steps', 2);
      await page.getByTestId('evaluate-start').click();
      await expect(page.getByTestId('evaluate-run')).toHaveAttribute('data-status', 'complete', { timeout: 90_000 });
      const names = page.getByTestId('result-policy');
      await expect(names).toHaveText(['Static', /naive/i]);
      expect(await names.evaluateAll((els) => els.map((e) => e.getAttribute('title')))).toEqual(['static', 'naive']);
      const region = page.getByRole('region', { name: /Results per policy/ });
      const delta = page.getByRole('columnheader', { name: /Δ W-AUC/ });
      await region.focus();
      await expect(region).toBeFocused();
      for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowRight');
      const box = await region.boundingBox();
      const cell = await delta.boundingBox();
      expect(box && cell).toBeTruthy();
      // The Δ header lies inside the visible part of the scroll box after keyboard scrolling.
      expect(cell!.x + cell!.width).toBeLessThanOrEqual(box!.x + box!.width + 1);
      await expect(delta).toContainText(/naive/i);
      await page.getByTestId('results-table').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/evaluate-${screen.name}.png` });
    });
  });
}
