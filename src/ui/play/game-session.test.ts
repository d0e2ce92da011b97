import { expect, it } from 'vitest';
import { withoutPrompt } from './game-session.svelte.ts';

it('drops only the trailing input prompt line', () => {
  expect(withoutPrompt('Taken.\n\n>')).toBe('Taken.');
  expect(withoutPrompt('>')).toBe('');
  expect(withoutPrompt('<< Closet >>')).toBe('<< Closet >>');
  expect(withoutPrompt('<< Closet >>\n\n> ')).toBe('<< Closet >>');
  expect(withoutPrompt('a > b\n')).toBe('a > b');
});
