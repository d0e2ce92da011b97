/**
 * Runs shown to a room (workshop mode), at 1280×800 and 1920×1080 in workshop mode (screenshots in
 * test-results/screens/). Learn and Agent draw, under each command, the game's answer to
 * it (not the text before it), and end with how the episode ended — the death with its "Next
 * time, try: …"; episodes side by side shows the same answers. With the OpenAI preset and
 * no key, Start refuses before starting, in one plain sentence with a link to Settings.
 */
import { expect, test, type Page } from '@playwright/test';
import { startMockLlm } from '../test/mock-llm/server.ts';
import { configureForLearn, waitComplete } from './learn-helpers.ts';

const SIZES = [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }] as const;
const shot = (page: Page, name: string, size: { width: number }): Promise<Buffer> =>
  page.screenshot({ path: `test-results/screens/${name}-${size.width}.png` });

for (const size of SIZES) {
  test.describe(`${size.width}×${size.height}, workshop mode`, () => {
    test.use({ viewport: size });

    test('Learn draws each command’s answer under it and ends with the death and its hint', async ({ page }) => {
      const mock = await startMockLlm({ exploreCommands: ['pull blue lever'] });
      try {
        await configureForLearn(page, mock.baseUrl);
        await page.goto('./?view=learn&workshop=1');
        await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
        await page.getByTestId('story-picker').selectOption('lever-room');
        await page.getByTestId('learn-seed').fill('1');
        await page.getByTestId('learn-policy').selectOption('meta:naive');
        await page.getByTestId('learn-episodes').fill('2');
        await page.getByTestId('learn-steps').fill('5');
        // mock-model has no price at this provider: no dollar figure.
        await expect(page.getByTestId('learn-estimate-usd')).toHaveText('—');
        await expect(page.getByTestId('learn-estimate-unpriced')).toHaveText('No price at this provider for mock-model (add it to the price table in Settings): no cost shown.');
        await page.getByTestId('learn-start').click();
        await waitComplete(page);
        await expect(page.getByTestId('learn-cost')).toHaveText('—');
        await page.getByTestId('learn-episode-tab').first().click();
        const transcript = page.getByTestId('learn-transcript');
        await expect(transcript).toHaveAttribute('data-episode', '1');
        const first = transcript.getByTestId('agent-step').first();
        await expect(first.getByTestId('agent-step-action')).toHaveText('pull blue lever');
        const answer = first.getByTestId('agent-step-answer');
        await expect(answer).toContainText('You haul the blue lever down');
        await expect(answer).toContainText('Next time, try: PULL YELLOW LEVER.');
        await expect(answer).not.toContainText('You wake on a cold stone floor');
        await expect(transcript.getByTestId('agent-transcript-ending')).toHaveText('Episode ended: game over (death), final score 0 of 5.');
        await first.scrollIntoViewIfNeeded();
        await shot(page, 'learn-transcript', size);

        // Episodes side by side: the chosen step's answer is the same text.
        await page.getByTestId('learn-side-by-side').click();
        await page.getByTestId('compare-a-action').first().getByRole('button').click();
        await expect(page.getByTestId('compare-detail-a-answer')).toContainText('Next time, try: PULL YELLOW LEVER.');
        await page.getByTestId('compare-detail').scrollIntoViewIfNeeded();
        await shot(page, 'learn-side-by-side', size);
      } finally {
        await mock.close();
      }
    });

    test('Agent draws each command’s answer under it, the last one included', async ({ page }) => {
      const mock = await startMockLlm({ script: ['pull yellow lever', 'pull red lever'] });
      try {
        await configureForLearn(page, mock.baseUrl);
        await page.goto('./?view=agent&workshop=1');
        await expect(page.getByTestId('agent')).toHaveAttribute('data-ready', 'true');
        await page.getByTestId('story-picker').selectOption('lever-room');
        await page.getByTestId('agent-seed').fill('1');
        await page.getByTestId('agent-max-steps').fill('5');
        await page.getByTestId('agent-start').click();
        const steps = page.getByTestId('agent-step');
        await expect(page.getByTestId('agent-transcript-ending')).toHaveText('Episode ended: game over (death), final score 1 of 5.', { timeout: 30_000 });
        await expect(steps).toHaveCount(2);
        await expect(steps.nth(0).getByTestId('agent-step-answer')).toContainText('You haul the yellow lever down. Click!');
        await expect(steps.nth(1).getByTestId('agent-step-answer')).toContainText('You haul the red lever down. Nothing clicks.');
        await expect(steps.nth(1).getByTestId('agent-step-answer')).toContainText('Next time, try:');
        await expect(steps.nth(1).getByTestId('agent-step-answer')).toContainText('You have died');
        await expect(steps.first().getByTestId('agent-step-reply')).toBeHidden(); // the model's reply is folded
        await shot(page, 'agent-transcript', size);
      } finally {
        await mock.close();
      }
    });
  });
}


for (const size of SIZES) {
  test.describe(`${size.width}×${size.height}, workshop mode, no key`, () => {
    test.use({ viewport: size });

    test('Start with the OpenAI preset and no key refuses before starting, in one sentence linking to Settings', async ({ page }) => {
      const calls: string[] = [];
      page.on('request', (r) => { if (!r.url().startsWith('http://127.0.0.1')) calls.push(r.url()); });
      await page.goto('./?view=settings&workshop=1');
      await expect(page.getByTestId('settings')).toHaveAttribute('data-loaded', 'true');
      await page.getByTestId('provider-preset').selectOption('openai');
      await page.getByTestId('api-key').fill('');
      await expect(page.getByTestId('settings')).toHaveAttribute('data-pending', '0');
      const sentence = 'OpenAI needs an API key: add yours in Settings.';

      // Workshop mode's nav has no Agent link: open it by URL (the settings are stored).
      await page.goto('./?view=agent&workshop=1');
      await expect(page.getByTestId('agent')).toHaveAttribute('data-ready', 'true');
      await page.getByTestId('story-picker').selectOption('lever-room');
      await page.getByTestId('agent-start').click();
      await expect(page.getByRole('alert')).toHaveCount(1);
      await expect(page.getByTestId('agent-error').locator('.text')).toHaveText(sentence);
      await expect(page.getByTestId('agent-step')).toHaveCount(0);
      const box = (await page.getByTestId('agent-error').boundingBox())!;
      expect(box.height, 'one or two lines, not a paragraph').toBeLessThan(120);
      await shot(page, 'agent-no-key', size);

      await page.getByTestId('nav-learn').click();
      await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
      await page.getByTestId('learn-start').click();
      await expect(page.getByRole('alert')).toHaveCount(1);
      await expect(page.getByRole('alert').locator('.text')).toHaveText(sentence);
      await expect(page.getByTestId('learn')).toHaveAttribute('data-phase', 'idle');
      await shot(page, 'learn-no-key', size);
      await page.getByRole('alert').getByTestId('settings-link').click();
      await expect(page.getByTestId('settings')).toHaveAttribute('data-loaded', 'true');
      expect(calls.filter((u) => u.includes('openai.com')), 'no request went to the provider').toEqual([]);
    });
  });
}

for (const size of SIZES) {
  test.describe(`${size.width}×${size.height}, workshop mode, costs`, () => {
    test.use({ viewport: size });

    test('with a custom base URL, a model named like an OpenAI one gets no OpenAI cost: "—"', async ({ page }) => {
      const mock = await startMockLlm({ script: ['pull yellow lever', 'pull red lever'] });
      try {
        await page.goto('./?view=settings&workshop=1');
        await expect(page.getByTestId('settings')).toHaveAttribute('data-loaded', 'true');
        await page.getByTestId('provider-preset').selectOption('custom');
        await page.getByTestId('base-url').fill(mock.baseUrl);
        await page.getByTestId('model-actor').fill('gpt-4o-mini');
        await expect(page.getByTestId('settings')).toHaveAttribute('data-pending', '0');
        await page.goto('./?view=agent&workshop=1');
        await expect(page.getByTestId('agent')).toHaveAttribute('data-ready', 'true');
        await page.getByTestId('story-picker').selectOption('lever-room');
        await page.getByTestId('agent-seed').fill('1');
        await page.getByTestId('agent-start').click();
        await expect(page.getByTestId('agent-transcript-ending')).toBeVisible({ timeout: 30_000 });
        await expect(page.getByTestId('agent-cost')).toHaveText('—');
        await expect(page.getByText('No price for “gpt-4o-mini” at this provider')).toBeVisible();
        await shot(page, 'agent-no-price', size);
      } finally {
        await mock.close();
      }
    });
  });
}
