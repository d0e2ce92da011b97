/**
 * Model text cannot break, freeze or widen the page: a replayed session whose
 * meta-agent reply (and a Learn session whose meta-agent answers with it as the new guide) is one
 * of three hostile inputs (2,500 `>`; 15 kB of `_a*`; a 300-column
 * table) shows its feedback panel, throws no page error, and keeps the page within the viewport
 * (1280 × 800); the wide table scrolls inside its own focusable region.
 */
import { expect, test } from '@playwright/test';
import { startMockLlm } from '../test/mock-llm/server.ts';
import { configureForLearn, goToLearn, startSession, waitComplete } from './learn-helpers.ts';
import { openReplay, openReplayFile, SCRIPTED_TEXT } from './replay-helpers.ts';

const table = `|${Array.from({ length: 300 }, (_, i) => `column${i}`).join('|')}|\n|${'-|'.repeat(300)}\n|${'cell|'.repeat(300)}\n`;
const INPUTS: Record<string, string> = {
  'deep quotes': '>'.repeat(2500),
  'emphasis runs': '_a*'.repeat(5000),
  'a 300-column table': table,
};

/** The scripted recording (a fixture) with its first meta-agent reply's analysis replaced by `think`. */
function sessionWith(think: string): string {
  const record = JSON.parse(SCRIPTED_TEXT) as { exchanges: { reply: string }[] };
  record.exchanges[0]!.reply = record.exchanges[0]!.reply.replace(/<think>[\s\S]*?<\/think>/, `<think>${think}</think>`);
  return JSON.stringify(record);
}

test.use({ viewport: { width: 1280, height: 800 } });

for (const [what, think] of Object.entries(INPUTS)) {
  test(`a meta-agent reply with ${what} keeps the Replay feedback panel, no page errors, no sideways scroll`, async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await openReplay(page);
    await openReplayFile(page, 'session.json', sessionWith(think));
    await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'true');
    for (let i = 0; i < 3; i++) await page.getByTestId('replay-forward').click();
    const feedback = page.getByTestId('replay-feedback');
    await expect(feedback.getByTestId('learn-feedback-item')).toHaveCount(1);
    await expect(feedback.getByTestId('learn-think')).toBeVisible();
    await expect(feedback.getByTestId('learn-guide')).toContainText('PULL YELLOW LEVER');
    const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }));
    expect(width.scroll).toBeLessThanOrEqual(width.viewport);
    if (what === 'a 300-column table') {
      const region = feedback.getByRole('region', { name: 'Table' });
      await expect(region).toBeVisible();
      expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      await region.focus();
      await expect(region).toBeFocused();
    } else {
      await expect(feedback.getByTestId('learn-think')).toContainText('Shown as plain text');
    }
    await feedback.screenshot({ path: `test-results/markdown-bounds-replay-${what.replace(/\W+/g, '-')}.png` });
    expect(errors).toEqual([]);
  });

  test(`a Learn session whose meta-agent writes ${what} as the guide keeps its feedback panel, no page errors, no sideways scroll`, async ({ page }) => {
    const mock = await startMockLlm({ script: ['pull yellow lever'], metaAgentRules: [{ whenLogIncludes: 'EPISODE 1', guide: think }] });
    try {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await configureForLearn(page, mock.baseUrl);
      await goToLearn(page);
      await startSession(page, { story: 'lever-room', seed: 1, policy: 'meta:naive', episodes: 2, maxSteps: 2 });
      await waitComplete(page);
      const feedback = page.getByTestId('learn-feedback');
      await expect(feedback).toBeVisible();
      await expect(feedback.getByTestId('learn-feedback-item')).toHaveCount(1);
      await expect(feedback.getByTestId('learn-guide')).toBeVisible();
      if (what !== 'a 300-column table') await expect(feedback.getByTestId('learn-guide')).toContainText('Shown as plain text');
      else await expect(feedback.getByTestId('learn-guide').getByRole('region', { name: 'Table' })).toBeVisible();
      const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }));
      expect(width.scroll).toBeLessThanOrEqual(width.viewport);
      await page.screenshot({ path: `test-results/markdown-bounds-learn-${what.replace(/\W+/g, '-')}.png` });
      expect(errors).toEqual([]);
    } finally {
      await mock.close();
    }
  });
}
