/**
 * Golden transcripts in Chromium: glkote-term's advent.z5.regtest (written for other
 * interpreters) run against the built page — the same cases and checks as test/regtest.test.ts
 * runs against the engine in Node, here typed into the page and read back from its transcript.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type Page } from '@playwright/test';
import { parseRegtest, runRegtestCase, type RegtestOutput, type RegtestPlayer } from '../test/support/regtest.ts';
import { send, statusLine } from './helpers.ts';

const regtest = parseRegtest(readFileSync(createRequire(import.meta.url).resolve('glkote-term/tests/advent.z5.regtest'), 'utf8'));

/** The page as a regtest player: output = the transcript entries after the last input. */
function pagePlayer(page: Page): RegtestPlayer {
  const read = async (): Promise<RegtestOutput> => {
    const texts = await page.locator('[data-testid="transcript"] .entry').evaluateAll((els) => els.map((e) => ({ kind: e.classList.contains('input') ? 'input' : 'other', text: e.textContent ?? '' })));
    const lastInput = texts.map((t) => t.kind).lastIndexOf('input');
    return { text: texts.slice(lastInput + 1).map((t) => t.text).join('\n'), statusLine: (await statusLine(page).textContent()) ?? '' };
  };
  return {
    start: read(),
    async step(command: string) {
      const inputs = page.locator('[data-testid="transcript"] .entry.input');
      const before = await inputs.count();
      await send(page, command);
      await expect(inputs).toHaveCount(before + 1);
      await expect(page.getByTestId('player')).toHaveAttribute('aria-busy', 'false');
      return read();
    },
  };
}

for (const testCase of regtest.cases) {
  test(`advent.z5.regtest "${testCase.name}" passes in the page`, async ({ page }) => {
    await page.goto('./?story=advent&seed=0');
    await expect(page.getByTestId('player')).toHaveAttribute('data-story', 'advent');
    await expect(page.getByTestId('command-input')).toBeEnabled();
    await expect(statusLine(page)).toContainText('At End Of Road');
    expect(await runRegtestCase(pagePlayer(page), testCase)).toEqual([]);
  });
}
