/**
 * Walkthrough files as every caller reads them: a text file of one command per line (blank and #
 * lines dropped, "> " prompts dropped), or a games.json-shaped file matched by name, md5 or as its
 * only entry; bad input refused with the file named and what to fix.
 */
import { describe, expect, it } from 'vitest';
import { parseWalkthroughFile, walkthroughFor, WalkthroughFileError } from './walkthrough-file.ts';

describe('walkthrough files', () => {
  it('reads one command per line, and games.json by name, md5 or its only game', () => {
    expect(parseWalkthroughFile('\uFEFF# Lever Room\n> pull lever\n\n  north \r\nx door\n', 'lever.txt')).toEqual({ kind: 'lines', commands: ['pull lever', 'north', 'x door'] });
    const json = JSON.stringify([{ name: 'zork1', rom_md5: 'aa', walkthrough: ['n', 'e'] }, { name: 'bad', walkthrough: 'n' }, { name: 'temple', rom_md5: 'bb', walkthrough: ['w'] }]);
    const file = parseWalkthroughFile(json, 'games.json');
    expect(file).toEqual({ kind: 'games', games: [{ name: 'zork1', md5: 'aa', walkthrough: ['n', 'e'] }, { name: 'temple', md5: 'bb', walkthrough: ['w'] }] });
    expect(walkthroughFor(file, { id: 'temple' }, 'games.json')).toEqual(['w']);
    expect(walkthroughFor(file, { id: 'my-copy', md5: 'aa' }, 'games.json')).toEqual(['n', 'e']);
    expect(walkthroughFor(parseWalkthroughFile('[{"walkthrough":["look"]}]', 'one.json'), { id: 'anything' }, 'one.json')).toEqual(['look']);
    expect(walkthroughFor(parseWalkthroughFile('look\nn', 'w.txt'), { id: 'anything' }, 'w.txt')).toEqual(['look', 'n']);
  });

  it('refuses bad input with the file named and what to fix', () => {
    const problem = (text: string, name: string) => {
      try {
        parseWalkthroughFile(text, name);
      } catch (error) {
        expect(error).toBeInstanceOf(WalkthroughFileError);
        expect((error as WalkthroughFileError).code).toBe('walkthrough_file');
        return (error as Error).message;
      }
      return null;
    };
    expect(problem('  \n', 'empty.txt')).toBe('empty.txt is empty: a walkthrough is one command per line, or Jericho\'s games.json');
    expect(problem('# only a comment\n\n', 'c.txt')).toBe('c.txt has no commands (only blank or # lines)');
    expect(problem('[{"name": "zork1", ', 'g.json')).toMatch(/^g\.json: cannot read it as JSON \(/);
    expect(problem('{"name": "zork1"}', 'g.json')).toBe('g.json: expected Jericho\'s games.json shape (an array of games, each with "name" and "walkthrough"), got an object');
    expect(problem('[{"name": "zork1"}]', 'g.json')).toBe('g.json: none of its 1 entries has a "walkthrough" that is a list of commands');
    expect(problem(`north\n${'x'.repeat(201)}\n`, 'prose.txt')).toBe('prose.txt, line 2: not a command (201 characters): a walkthrough is one command per line');
    expect(problem('north\n\u0001\u0002binary', 'story.z5')).toBe('story.z5, line 2: not a command (control characters): a walkthrough is one command per line');
    const games = parseWalkthroughFile('[{"name":"zork1","walkthrough":["n"]},{"name":"temple","walkthrough":["w"]}]', 'g.json');
    expect(() => walkthroughFor(games, { id: 'detective' }, 'g.json')).toThrow('g.json has no walkthrough for detective (it has zork1, temple)');
  });
});
