/**
 * Z-machine conformance suites from ../shared/conformance (see its README): CZECH for v3/v4/v5/v8
 * against the author's expected output (dfrotz passes 349/367/406/406), strictz (object 0) and
 * unicode against dfrotz's output. praxix is in test/praxix.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { textLines } from './support/dfrotz.ts';
import { readShared } from './support/shared.ts';

const story = (name: string): Uint8Array => new Uint8Array(readShared(`conformance/${name}`));
const expected = (name: string): string => readShared(`conformance/${name}`).toString('utf8');

/** CZECH's lines without the interpreter-specific "Header (No tests)" block. */
function czechLines(text: string): string[] {
  const lines = textLines(text);
  const start = lines.findIndex((l) => l.startsWith('Header (No tests)'));
  let end = start + 1;
  while (end < lines.length && lines[end]!.startsWith('    ')) end++;
  return [...lines.slice(0, start + 1), ...lines.slice(end)];
}

describe('CZECH (runs to the end without asking for input)', () => {
  for (const [version, passed] of [[3, 349], [4, 367], [5, 406], [8, 406]] as const) {
    it(`czech.z${version}: Passed: ${passed}, Failed: 0, and the author's expected output`, () => {
      const engine = loadStory(story(`czech.z${version}`), { seed: 0 });
      const start = engine.start;
      expect(start.fault).toBeNull();
      expect(start).toMatchObject({ done: true, endReason: 'quit', inputKind: null });
      expect(start.text).toContain(`Passed: ${passed}, Failed: 0, Print tests: 19`);
      expect(czechLines(start.text)).toEqual(czechLines(expected(`czech.expected-v${version}.txt`)));
      // reset() runs it again from a fresh VM.
      expect(engine.reset().text).toBe(start.text);
    });
  }

  it('the header block shows our interpreter number and no text styles (games fall back to capitals)', () => {
    const text = loadStory(story('czech.z5'), { seed: 0 }).start.text;
    expect(text).toContain('interpreter 6 I (IBM PC)');
    expect(text).toMatch(/Flags off:.* boldface, italic, fixed-space,/);
  });
});

describe('strictz (operations on object 0)', () => {
  it('gives dfrotz\'s answers, with no hang', () => {
    const engine = loadStory(story('strictz.z5'), { seed: 0 });
    const answer = engine.step('n');
    expect(answer.inputKind).toBe('char');
    const end = engine.step(' ');
    expect(end).toMatchObject({ done: true, endReason: 'quit', fault: null });
    const ours = textLines([engine.start.text, answer.text, end.text].join('\n').replace(/\n(?=Testing @jin)/, ' '));
    const theirs = textLines(expected('strictz.dfrotz.txt'));
    const results = (lines: string[]): string[] => lines.filter((l) => /^(?:@|Testing|Test completed)/.test(l));
    expect(results(ours)).toEqual(results(theirs));
    expect(results(ours).filter((l) => l.includes('(correct)'))).toHaveLength(28);
    expect(ours.join('\n')).not.toContain('incorrect');
  });
});

describe('unicode (Unicode translation table, print_unicode, input)', () => {
  it('prints like dfrotz and reads € and é through the story\'s table', () => {
    const engine = loadStory(story('unicode.z5'), { seed: 0 });
    const a = engine.step('a');
    const euro = engine.step('\u20AC');
    const eacute = engine.step('\u00E9');
    const theirs = textLines(expected('unicode.dfrotz.txt')).filter((l) => l !== 'EOT');
    const ours = textLines([engine.start.text, a.text].join('\n'));
    // dfrotz wraps at its screen width; compare the table lines exactly and the rest as words.
    expect(ours.filter((l) => /^[0-9a-f]{4} : /.test(l))).toEqual(theirs.filter((l) => /^[0-9a-f]{4} : /.test(l)));
    expect(ours.join(' ').split(/\s+/)).toEqual(theirs.join(' ').split(/\s+/));
    expect(euro.text.trim()).toBe('ZSCII $00e2 = \u20AC');
    expect(eacute.text.trim()).toBe('ZSCII $00aa = \u00E9');
  });
});
