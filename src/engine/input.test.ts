import { describe, expect, it } from 'vitest';
import { keypressFor, MAX_COMMAND_LENGTH, normaliseCommand } from './input.ts';

describe('input hygiene', () => {
  it('straightens quotes, maps dashes and ellipses, strips accents, collapses spaces', () => {
    expect(normaliseCommand('  say \u201Chello\u201D\u2014it\u2019s  caf\u00E9\u2026 ')).toBe('say "hello"-it\'s cafe...');
  });
  it('drops characters the game cannot take and caps the length', () => {
    expect(normaliseCommand('go north \u{1F600}\u0007')).toBe('go north');
    expect(normaliseCommand('x'.repeat(500))).toHaveLength(MAX_COMMAND_LENGTH);
  });
  it('a keypress is the first character, a space for spaces, or Enter for an empty command', () => {
    expect(keypressFor('yes')).toEqual({ value: 'y', recorded: 'y' });
    expect(keypressFor('   ')).toEqual({ value: ' ', recorded: ' ' });
    expect(keypressFor('')).toEqual({ value: 'return', recorded: '' });
  });
});
