import { expect, it } from 'vitest';
import { roomPart, statusText, withoutPrompt } from './game-session.svelte.ts';

it('drops only the trailing input prompt line', () => {
  expect(withoutPrompt('Taken.\n\n>')).toBe('Taken.');
  expect(withoutPrompt('>')).toBe('');
  expect(withoutPrompt('<< Closet >>')).toBe('<< Closet >>');
  expect(withoutPrompt('<< Closet >>\n\n> ')).toBe('<< Closet >>');
  expect(withoutPrompt('a > b\n')).toBe('a > b');
});

it('reprints the room: the status line as one line, the text from the line naming the room', () => {
  expect(statusText(' At End Of Road          Score: 36    Moves: 0 ')).toBe('At End Of Road — Score: 36 — Moves: 0');
  const opening = 'Welcome to Adventure!\n\nADVENTURE\nRelease 9\n\nAt End Of Road\nYou are standing at the end of a road.';
  expect(roomPart(opening, 'At End Of Road')).toBe('At End Of Road\nYou are standing at the end of a road.');
  expect(roomPart('Taken.', 'At End Of Road')).toBe('Taken.');
  expect(roomPart('Taken.', '')).toBe('Taken.');
});
