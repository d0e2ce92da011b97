import { expect, it } from 'vitest';
import type { Catalog } from '../../../engine/catalog.ts';
import { identifyStory } from '../../../engine/story-file.ts';
import { localEntries, maxScoreHint, nameFromUrl, shippedEntries, storyUrl, userEntry } from './shelf.ts';

const entry = (id: string, file: string | null, localName: string, md5: string): Catalog['stories'][number] => ({
  id, title: id.toUpperCase(), author: '', licence: '', file, localName, format: 'zcode', md5, maxScore: 10, defaultSeed: 0,
  tags: [], scoreRead: null, movesRead: null, victoryText: null, gameOverText: null, victoryScore: null, introActions: [],
});
const catalog: Catalog = { version: 1, stories: [entry('advent', 'advent.z5', 'advent.z5', 'a'.repeat(32)), entry('detective', null, 'detective.z5', 'b'.repeat(32))] };

it('lists shipped stories by catalog id with page-relative paths', () => {
  expect(shippedEntries(catalog).map((e) => [e.id, e.path])).toEqual([['advent', 'stories/advent.z5']]);
});

it('lists local stories by file name, titled from the catalog, skipping junk', () => {
  const entries = localEntries(['detective.z5', 'notes.txt', '../x.z5', 42, 'mine.zblorb'], catalog);
  expect(entries.map((e) => [e.id, e.title, e.path])).toEqual([
    ['local:detective.z5', 'DETECTIVE (detective.z5)', 'local-stories/detective.z5'],
    ['local:mine.zblorb', 'mine.zblorb', 'local-stories/mine.zblorb'],
  ]);
  expect(localEntries({ not: 'a list' }, catalog)).toEqual([]);
});

it('titles user stories from the catalog by md5', () => {
  expect(userEntry({ id: 'user:b', name: 'det.z5', md5: 'b'.repeat(32), maxScore: null }, catalog).title).toBe('DETECTIVE (det.z5)');
  expect(userEntry({ id: 'user:c', name: 'mine.z5', md5: 'c'.repeat(32), maxScore: 7 }, catalog)).toMatchObject({ title: 'mine.z5', storedMaxScore: 7 });
});

it('finds the max score a game states', () => {
  expect(maxScoreHint(['You have so far scored 36 out of a possible 350, in 2 turns.'])).toEqual({ maxScore: 350, quote: 'out of a possible 350' });
  expect(maxScoreHint(['Your score is 0 (of 350 points), in 0 moves.', 'nothing'])).toEqual({ maxScore: 350, quote: '(of 350 points)' });
  expect(maxScoreHint(['scored 3 out of a maximum of 40', 'later: out of 50'])).toEqual({ maxScore: 50, quote: 'out of 50' });
  expect(maxScoreHint(['no score here'])).toBeNull();
});

it('names a downloaded story after its URL', () => {
  expect(nameFromUrl(new URL('https://example.org/games/Zork%20I.z5?x=1'))).toBe('Zork I.z5');
  expect(nameFromUrl(new URL('https://example.org/'))).toBe('example.org');
});

it('storyUrl takes http(s) URLs and paths, and says "not a URL" for anything else', () => {
  const base = new URL('https://example.org/app/');
  expect(storyUrl(' https://x.org/a.z5 ', base).href).toBe('https://x.org/a.z5');
  expect(storyUrl('stories/a.z5', base).href).toBe('https://example.org/app/stories/a.z5');
  for (const bad of ['', 'lever room', 'ftp://x.org/a.z5', 'javascript:alert(1)']) expect(() => storyUrl(bad, base)).toThrow(/is not a URL/);
});

it('a file that is not a story is named by its kind, with no header jargon', () => {
  const message = (bytes: number[] | string): string => {
    try {
      identifyStory(typeof bytes === 'string' ? new Uint8Array([...bytes].map((c) => c.charCodeAt(0))) : new Uint8Array(bytes));
    } catch (error) {
      return (error as Error).message;
    }
    return 'no error';
  };
  expect(message([0xff, 0xd8, 0xff, 0xe0, 0, 16])).toBe('This is not a Z-machine story file: it looks like a JPEG image.');
  expect(message([0x89, 0x50, 0x4e, 0x47, 13, 10])).toBe('This is not a Z-machine story file: it looks like a PNG image.');
  expect(message('<!doctype html><html><body>index</body></html>')).toBe('This is not a Z-machine story file: it looks like a web page (HTML).');
  expect(message('Once upon a time there was a story.')).toBe('This is not a Z-machine story file: it looks like a text file.');
  expect(message([0, 200, 13, 0xfe])).toBe('This is not a Z-machine story file.');
  for (const m of [message('hello'), message([0xff, 0xd8, 0xff])]) expect(m).not.toMatch(/header|byte/);
});
