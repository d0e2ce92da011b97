import { expect, it } from 'vitest';
import { CommandHistory } from './command-history.ts';

it('walks back and forth and keeps the draft', () => {
  const h = new CommandHistory();
  h.push('east');
  h.push('take lamp');
  h.push('take lamp');
  h.push('  ');
  expect(h.previous('dra')).toBe('take lamp');
  expect(h.previous('take lamp')).toBe('east');
  expect(h.previous('east')).toBe('east');
  expect(h.next('east')).toBe('take lamp');
  expect(h.next('take lamp')).toBe('dra');
  expect(h.next('dra')).toBe('dra');
});

it('returns the current text when empty', () => {
  const h = new CommandHistory();
  expect(h.previous('x')).toBe('x');
  expect(h.next('x')).toBe('x');
});
