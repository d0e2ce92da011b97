/**
 * The actor's reply grammar (src/llm/reply-grammars.ts) can type every command the games need: each
 * command of the teaching games (games/README.md: their walkthroughs, every keypad form with every
 * code 100–999, every lever, the hint line's command) and every command of every Jericho
 * walkthrough (../shared/jericho/games.json, intro actions included), as the engine sends it
 * (engine/input.ts `normaliseCommand`) in lower case — the game folds case, checked here on both
 * teaching games — is admitted as the `ACTION:` of a reply under the grammar of the default actor
 * budget. The grammar is read with test/support/gbnf.ts (its agreement with the grammar on known
 * replies is tested in src/llm/reply-grammars.test.ts).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseActorReply } from '../src/agents/reply-parser.ts';
import { parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { normaliseCommand } from '../src/engine/input.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import { grammarText } from '../src/llm/reply-grammars.ts';
import { gbnfRegex, parseGbnf } from './support/gbnf.ts';
import { readSharedJson, REPO_ROOT, type JerichoGame } from './support/shared.ts';

const ACTOR = gbnfRegex(parseGbnf(grammarText('actor', defaultLlmSettings().roles.actor.maxTokens)));
const admitted = (command: string): boolean => ACTOR.test(`REASONING: the walkthrough says so.\nACTION: ${command}`);
/** What the game receives for a walkthrough command, in lower case (the Z-machine folds case). */
const typed = (command: string): string => normaliseCommand(command).toLowerCase();

/** The commands games/README.md names in backticks that are commands (upper-case hints and lower-case walkthrough steps). */
function teachingCommands(): string[] {
  const readme = readFileSync(resolve(REPO_ROOT, 'games/README.md'), 'utf8');
  const quoted = [...readme.matchAll(/`([A-Za-z][A-Za-z0-9 ]*)`/g)].map((m) => m[1]!).filter((c) => !/^(HELP|HINT|ABOUT)$/.test(c) && !c.includes('-'));
  const hints = [...readme.matchAll(/^Next time, try: ([A-Z0-9 ]+)\.$/gm)].map((m) => m[1]!);
  const codes = Array.from({ length: 900 }, (_, i) => String(100 + i));
  const keypad = codes.flatMap((code) => [`ENTER ${code}`, `TYPE ${code} ON KEYPAD`, `PUSH ${code}`, `DIAL ${code}`, `KEY IN ${code}`]);
  const levers = ['RED', 'GREEN', 'BLUE', 'YELLOW'].map((colour) => `PULL ${colour} LEVER`);
  return [...quoted, ...hints, ...keypad, ...levers, 'NORTH', 'TAKE CARD', 'EAST', 'TAKE GEM'];
}

describe("the actor's grammar types every command the games need", () => {
  it('the teaching games: walkthroughs, the Vault keypad with every code (enter 417), every lever', () => {
    const commands = teachingCommands();
    expect(commands).toEqual(expect.arrayContaining(['ENTER 417', 'pull yellow lever', 'enter 290', 'PULL BLUE LEVER']));
    const refused = commands.filter((c) => !admitted(typed(c)));
    expect(refused).toEqual([]);
    // Parsed back from the reply as the same command.
    expect(parseActorReply('REASONING: the guard said 417.\nACTION: enter 417', 'stop').action).toBe('enter 417');
  });

  it('upper case is not needed: the games fold it (the same text for a hint in capitals and in lower case)', () => {
    const catalog = parseCatalog(JSON.parse(readFileSync(resolve(REPO_ROOT, 'public/stories/catalog.json'), 'utf8')));
    for (const [id, commands] of [['vault', ['TAKE CARD', 'EAST', 'ENTER 417']], ['lever-room', ['LOOK', 'PULL YELLOW LEVER', 'PULL RED LEVER']]] as const) {
      const entry = catalog.stories.find((s) => s.id === id)!;
      const bytes = new Uint8Array(readFileSync(resolve(REPO_ROOT, 'public/stories', entry.file!)));
      const play = (cs: readonly string[]) => {
        const engine = loadStory(bytes, { seed: 1, rules: rulesFor(entry) });
        return cs.map((c) => {
          const r = engine.step(c);
          return [r.text, r.score, r.done];
        });
      };
      expect(play(commands.map((c) => c.toLowerCase()))).toEqual(play(commands));
    }
  });

  it('every Jericho walkthrough command (and intro action), as the engine sends it', () => {
    const games = readSharedJson<JerichoGame[]>('jericho/games.json');
    expect(games.length).toBeGreaterThanOrEqual(50);
    const commands = games.flatMap((g) => [...g.walkthrough, ...g.intro_actions].map((c) => ({ game: g.name, command: c })));
    // An empty line (Enter at a "press a key" or [MORE] prompt) is no command: at a key prompt any
    // reply is a keypress (engine/input.ts `keypressFor`), so there is nothing to type.
    // A line in square brackets is a note of the walkthrough's author (curses: "[ Repeatedly "turn
    // sceptre" until the coffin opens ]"), not a command.
    const lines = commands.filter(({ command }) => typed(command) !== '' && !typed(command).startsWith('['));
    expect(commands.length - lines.length).toBeLessThan(40);
    const refused = lines.filter(({ command }) => !admitted(typed(command))).map(({ game, command }) => `${game}: ${command}`);
    expect(refused).toEqual([]);
    // The hardest ones, spelled out: digits, $, commas, hyphens, apostrophes, quotes, the longest command.
    for (const c of ['withdraw $603', 'dial 576-3190', 'get tobacco,knife,pipe', "put it on henry's tomb", 'say "float"', 'punch cat_robot->desist(); on blank card', 'take zm$100000',
      'give violin, necklace, ruby, stamp, zorkmid, crown and dragon to demon']) {
      expect(lines.some(({ command }) => typed(command) === c), c).toBe(true);
      expect(admitted(c), c).toBe(true);
    }
  });
});
