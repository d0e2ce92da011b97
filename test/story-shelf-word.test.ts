/**
 * One meaning per word (docs/glossary.md): "library" is the meta-prompt Library only; the stories
 * the page plays are the story shelf. No source file (tests included) holds a `StoryShelf` under
 * the name `library`, reads a shelf's members through a `library` name, or calls the shelf's panel
 * by it. The meta-prompt Library's own names (its view, `src/ui/meta-library/`, `MetaLibraryState`)
 * and the Jericho game called Library are untouched.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === 'vendor' || d.name === 'node_modules' ? [] : files(path);
    return /\.(ts|svelte)$/.test(d.name) ? [path] : [];
  });
}

/** A story shelf called a library: its type, its members, or its panel. */
const SHELF_AS_LIBRARY = [
  /\blibrary\s*[:=]\s*(?:new\s+)?StoryShelf\b/,
  /\blibrary\s*:\s*\(\)\s*=>\s*StoryShelf\b/,
  /\blibrary\.(?:entries|catalogEntries|defaultSeed|loadOptions|maxScoreOf|setMaxScore|addFile|addUrl|catalogProblem|memoryOnlyReason)\b/,
  /class="library(?:-area)?"/,
];

describe('the story shelf is never called a library', () => {
  it('in src, test and e2e', () => {
    const found = [...files(join(ROOT, 'src')), ...files(join(ROOT, 'test')), ...files(join(ROOT, 'e2e'))]
      // The meta-prompt Library's own view state is rightly called `library` there.
      .filter((f) => !f.endsWith('story-shelf-word.test.ts') && !relative(ROOT, f).startsWith('src/ui/meta-library/'))
      .flatMap((f) => readFileSync(f, 'utf8').split('\n').flatMap((line, i) => (SHELF_AS_LIBRARY.some((re) => re.test(line)) ? [`${relative(ROOT, f)}:${i + 1}: ${line.trim()}`] : [])));
    expect(found).toEqual([]);
  });

  it('the check finds what it is for', () => {
    for (const line of ['const library = new StoryShelf(services);', 'readonly library: StoryShelf,', 'player.library.entries.map((e) => e.id)', '<section class="library" aria-label="Story shelf">']) {
      expect(SHELF_AS_LIBRARY.some((re) => re.test(line)), line).toBe(true);
    }
    for (const line of ["router.view === 'library'", '<MetaLibraryView library={state} />', "const PAPER = ['balances', 'library'];"]) {
      expect(SHELF_AS_LIBRARY.some((re) => re.test(line)), line).toBe(false);
    }
  });
});
