import { describe, expect, it } from 'vitest';
import { ACTOR_PREAMBLE, buildActorMessages } from './actor-prompt.ts';
import { parseActorReply } from './reply-parser.ts';

/** Real-looking replies → (action, status, extras). */
const TABLE: [string, string, string | null, string | null, string, string[]][] = [
  ['the contract', 'REASONING: The mailbox may hold something.\nACTION: open mailbox', 'stop', 'open mailbox', 'ok', []],
  ['a fenced reply with no closing fence', '```\nREASONING: Go north to explore.\nACTION: north', 'stop', 'north', 'ok', []],
  ['a closed fence with a language', '```text\nREASONING: x\nACTION: take lamp\n```', 'stop', 'take lamp', 'ok', []],
  ['think text is never used', '<think>maybe ACTION: eat leaflet</think>ACTION: open mailbox', 'stop', 'open mailbox', 'ok', []],
  ['two ACTION lines → the last (as the reference), the others kept', 'REASONING: both\nACTION: open door\nACTION: go east', 'stop', 'go east', 'ok', ['open door']],
  ['a draft corrected at the end', 'ACTION: take all\nREASONING: no, the parser wants a noun.\nACTION: take lamp', 'stop', 'take lamp', 'ok', ['take all']],
  ['no action at all', 'I am not sure.', 'stop', null, 'parse_failure', []],
  ['empty content cut off by the token limit', '', 'length', null, 'truncated', []],
  ['an unclosed think', '<think>I should consider the lamp and then', 'length', null, 'truncated', []],
  ['lower-case key, quotes and backticks', 'reasoning: hm\naction: `"take the sword"`', 'stop', 'take the sword', 'ok', []],
  ['markdown bold keys and a full stop', '**Reasoning:** dark here.\n**Action:** turn on lamp.', 'stop', 'turn on lamp', 'ok', []],
  ['curly quotes around the command', 'ACTION: \u201Cread leaflet\u201D', 'stop', 'read leaflet', 'ok', []],
  ['empty content without a length stop', '', 'stop', null, 'parse_failure', []],
];

describe('parseActorReply', () => {
  for (const [label, content, finish, action, status, extras] of TABLE) {
    it(label, () => {
      const parsed = parseActorReply(content, finish);
      expect(parsed.action).toBe(action);
      expect(parsed.status).toBe(status);
      expect(parsed.extraActions).toEqual(extras);
    });
  }

  it('keeps the reasoning line', () => {
    expect(parseActorReply('REASONING: It is dark.\nACTION: light lamp', 'stop').reasoning).toBe('It is dark.');
  });
});

describe('the actor preamble', () => {
  it('gives the practical parser advice: short one-word nouns, no repeating a failed command, no meta-commands', () => {
    expect(ACTOR_PREAMBLE).toMatch(/one-word noun/);
    expect(ACTOR_PREAMBLE).toMatch(/did not understand or refused a command, do not type it again/);
    expect(ACTOR_PREAMBLE).toMatch(/never type commands about the game itself \(save, restore, restart, quit, undo/);
    const [system] = buildActorMessages({ guidingPrompt: 'g', history: [], observation: 'o' });
    expect(system!.content.startsWith(ACTOR_PREAMBLE)).toBe(true);
  });
});
