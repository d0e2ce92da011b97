/**
 * Text the agent must see: upper-window text beyond the status line (quote
 * boxes, chapter cards) and text printed before a screen clear in the same step, on Trinity and
 * Anchorhead at their Jericho seeds. Buffer text is compared with dfrotz's for the same commands
 * and seed; Debian's dfrotz drops styled text (ground-truth.md, "Things that surprised us" 2), so
 * the quote boxes themselves are checked by their attribution lines.
 */
import { describe, expect, it } from 'vitest';
import { findByMd5, parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import type { StepResult } from '../src/engine/interface.ts';
import { md5Hex } from '../src/engine/story-file.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { runDfrotz } from './support/dfrotz.ts';
import { jerichoGame, readShared, REPO_ROOT, sharedDir } from './support/shared.ts';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const catalog = parseCatalog(JSON.parse(readFileSync(resolve(REPO_ROOT, 'public/stories/catalog.json'), 'utf8')));

/** Play the first `steps` walkthrough commands; results by 1-based step, and dfrotz's text. */
function play(name: string, steps: number): { results: StepResult[]; dfrotz: string } {
  const game = jerichoGame(name);
  const bytes = new Uint8Array(readShared(`stories-more/${game.rom}`));
  const engine = loadStory(bytes, { seed: game.seed, rules: rulesFor(findByMd5(catalog, md5Hex(bytes))!) });
  const commands = game.walkthrough.slice(0, steps);
  const results = [engine.start, ...commands.map((c) => engine.step(c))];
  const input = game.intro_actions.map((a) => a.replace(/\n$/, '')).concat(commands).join('\n') + '\n';
  return { results, dfrotz: runDfrotz(resolve(sharedDir(), `stories-more/${game.rom}`), input, game.seed).stdout };
}

/** Whitespace-insensitive text, prompts removed. */
const flat = (text: string): string => text.replace(/(^|\n)>/g, '$1').replace(/\s+/g, ' ').trim();
/** Paragraphs of a step's text. */
const paragraphs = (text: string): string[] => text.split(/\n\s*\n/).map(flat).filter((p) => p !== '');

describe('Trinity (seed 0)', () => {
  const { results, dfrotz } = play('trinity', 83);
  const reference = flat(dfrotz);

  it('step 49 keeps the ~600 characters printed before the screen clear, as dfrotz shows them', () => {
    const text = results[49]!.text;
    const beforeCard = text.slice(0, text.indexOf('An Interactive Fantasy'));
    expect(flat(beforeCard).length).toBeGreaterThan(600);
    for (const p of paragraphs(text)) expect(reference).toContain(p);
  });

  it('quote boxes in the upper window reach the observation after the step\'s text (steps 10, 35, 72, 73, 83)', () => {
    const attributions: [number, string][] = [[10, '-- Lewis Carroll'], [35, '-- Alexander Pope'], [72, '-- Arthur Rimbaud'], [73, '-- Matthew 16:3'], [83, '-- P. David Lebling']];
    for (const [step, attribution] of attributions) {
      const text = results[step]!.text;
      expect(text).toContain(attribution);
      expect(results[step]!.statusLine).not.toContain(attribution);
      // The room text before the box is what dfrotz prints too.
      expect(reference).toContain(paragraphs(text)[0]);
    }
  });

  it('emphasis comes in capitals, as under dfrotz (no text styles advertised in the header)', () => {
    // With bold/italic advertised, Trinity prints these words in mixed case ("Trinity package").
    for (const [step, phrase] of [[49, 'TRINITY is a trademark'], [73, 'in your TRINITY package']] as const) {
      expect(results[step]!.text).toContain(phrase);
      expect(reference).toContain(phrase);
    }
  });
});

describe('Anchorhead (seed 0)', () => {
  it('chapter cards (upper window) reach the observation: steps 41, 245, 432, 527; random events as in Jericho', () => {
    const game = jerichoGame('anchor');
    const bytes = new Uint8Array(readShared(`stories-more/${game.rom}`));
    const engine = loadStory(bytes, { seed: game.seed, rules: rulesFor(findByMd5(catalog, md5Hex(bytes))!) });
    const cards: Record<number, string> = { 41: '-- H.P. Lovecraft', 245: '-- H.P. Lovecraft', 432: '-- H.P. Lovecraft', 527: '-- Edward Verlac' };
    for (const [i, command] of game.walkthrough.slice(0, 527).entries()) {
      const result = engine.step(command);
      const card = cards[i + 1];
      if (card) expect(result.text, `step ${i + 1}`).toContain(card);
      // With ifvms' @remove_obj bug the random calls diverged from Jericho at step 485 and this
      // flurry (a random event) was missing at step 487.
      if (i + 1 === 487) expect(result.text).toContain('A flurry of dead leaves');
    }
  }, 60_000);
});
