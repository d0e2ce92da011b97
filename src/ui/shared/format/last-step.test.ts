import { describe, expect, it } from 'vitest';
import { commandLine, lastStepText } from './last-step.ts';

describe('lastStepText', () => {
  it('says index, command, signed change and score', () => {
    expect(lastStepText({ index: 5, action: 'pull lever', reward: 1, score: 3 })).toBe('#5 pull lever → +1, score 3');
    expect(lastStepText({ index: 2, action: 'north', reward: 0, score: 0 })).toBe('#2 north → ±0, score 0');
    expect(lastStepText({ index: 7, action: 'jump', reward: -2, score: 1 })).toBe('#7 jump → −2, score 1');
  });
  it('names a step that sent nothing and a game without score', () => {
    expect(lastStepText({ index: 1, action: null, reward: 0, score: null })).toBe('#1 (no action) → ±0, no score kept');
    expect(lastStepText({ index: 1, action: '  ', reward: 0, score: 2 })).toBe('#1 (no action) → ±0, score 2');
  });
  it('keeps model output to one plain line', () => {
    expect(commandLine('open\n\tthe  <b>door</b>\u0007')).toBe('open the <b>door</b>');
    expect(commandLine('abcdefghij', 6)).toBe('abcde…');
    expect(commandLine('abcdef', 6)).toBe('abcdef');
  });
});
