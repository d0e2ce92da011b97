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
  it('keeps the characters the story can encode, in composed form; strips the accents of the rest', () => {
    const latin1 = (code: number): boolean => code === 0xe9 || code === 0x20ac;
    expect(normaliseCommand('caf\u00E9 na\u00EFve', latin1)).toBe('caf\u00E9 naive');
    expect(normaliseCommand('cafe\u0301', latin1)).toBe('caf\u00E9');
    expect(keypressFor('\u20AC', latin1)).toEqual({ value: '\u20AC', recorded: '\u20AC' });
    expect(keypressFor('\u20AC')).toEqual({ value: 'return', recorded: '' });
  });
  it('a keypress is the first character, a space for spaces, or Enter for an empty command', () => {
    expect(keypressFor('yes')).toEqual({ value: 'y', recorded: 'y' });
    expect(keypressFor('   ')).toEqual({ value: ' ', recorded: ' ' });
    expect(keypressFor('')).toEqual({ value: 'return', recorded: '' });
  });
});
