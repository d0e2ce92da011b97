/**
 * README is a map: at most 200 lines, none longer than 200 characters, and every relative link
 * in README.md, docs/*.md and the folder READMEs (src/<folder>/README.md) resolves to a file of
 * the repository — and to a heading of it when the link names an anchor (GitHub's heading ids).
 * Every section the long README once held is a heading of a docs/ page, and every src/ folder
 * opens with a README that says what it holds, what it may import and its entry points.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/shared.ts';

/** The Markdown files whose links are checked, relative to the repository's root. */
function markdownFiles(): string[] {
  const docs = readdirSync(resolve(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  const folders = srcFolders().map((f) => `src/${f}/README.md`).filter((f) => existsSync(resolve(REPO_ROOT, f)));
  return ['README.md', ...docs, ...folders];
}

function srcFolders(): string[] {
  return readdirSync(resolve(REPO_ROOT, 'src')).filter((f) => statSync(resolve(REPO_ROOT, 'src', f)).isDirectory());
}

/** Text outside fenced code blocks and inline code spans (links there are examples, not links). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's id of a heading: its text lower-cased, punctuation but `-` and `_` dropped, spaces as `-`. */
function headingId(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** The anchors a Markdown file offers: its headings' ids, a repeated id suffixed -1, -2 … as GitHub does. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const ids = new Set<string>();
  const withoutCode = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const [, heading] of withoutCode.matchAll(/^#{1,6} +(.+?)\s*#*\s*$/gm)) {
    const id = headingId(heading!);
    const n = seen.get(id) ?? 0;
    ids.add(n === 0 ? id : `${id}-${n}`);
    seen.set(id, n + 1);
  }
  return ids;
}

/** Every relative link target (`[text](target)`, images too) of a Markdown text, with the file it is in. */
function relativeLinks(markdown: string): string[] {
  const targets: string[] = [];
  for (const [, target] of prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (!/^[a-z][a-z0-9+.-]*:/i.test(target!)) targets.push(target!);
  }
  return targets;
}

/** Why a link of `file` does not resolve, or null when it does. */
function brokenLink(file: string, target: string): string | null {
  const [path, anchor] = target.split('#') as [string, string | undefined];
  const absolute = path === '' ? resolve(REPO_ROOT, file) : resolve(REPO_ROOT, dirname(file), decodeURIComponent(path));
  if (!absolute.startsWith(REPO_ROOT)) return `${file}: ${target} leaves the repository`;
  if (!existsSync(absolute)) return `${file}: ${target} names no file (${relative(REPO_ROOT, absolute)})`;
  if (anchor !== undefined && anchor !== '') {
    if (!absolute.endsWith('.md')) return `${file}: ${target} puts an anchor on a file that is not Markdown`;
    if (!anchors(readFileSync(absolute, 'utf8')).has(anchor)) return `${file}: ${target} names no heading of ${relative(REPO_ROOT, absolute)}`;
  }
  return null;
}

/** The sections of the long README (its ## and ### headings), each now a heading of a docs/ page. */
const MOVED_SECTIONS = [
  'The two commands', 'Stories', 'First load and main thread', 'CLI', 'Providers', 'A local model in the page',
  'A local model in the CLI', 'Local model speed: Node and Chromium', 'A classroom without keys', 'Engine',
  'Engine speed', "Speed and cost at the paper's scale", 'Web tasks', 'Experiments', 'The Experiments view',
  'Method: where we still differ from the reference and GEPA', 'Other optimizers as baselines', 'A human in the loop',
  'Reliability', 'Architecture',
];

describe('README as a map and its docs pages', () => {
  it('README.md has at most 200 lines, none longer than 200 characters', () => {
    const lines = readFileSync(resolve(REPO_ROOT, 'README.md'), 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(200);
    expect(lines.filter((l) => [...l].length > 200)).toEqual([]);
  });

  it('every relative link of README, docs/ and the folder READMEs resolves, anchors included', () => {
    const files = markdownFiles();
    expect(files).toContain('docs/architecture.md');
    const links = files.flatMap((file) => relativeLinks(readFileSync(resolve(REPO_ROOT, file), 'utf8')).map((t) => [file, t] as const));
    expect(links.length).toBeGreaterThan(30);
    expect(links.map(([file, target]) => brokenLink(file, target)).filter((e) => e !== null)).toEqual([]);
  });

  it('README links every docs/ page', () => {
    const readme = relativeLinks(readFileSync(resolve(REPO_ROOT, 'README.md'), 'utf8'));
    const pages = markdownFiles().filter((f) => f.startsWith('docs/'));
    expect(pages.filter((page) => !readme.includes(page))).toEqual([]);
  });

  it('every section the long README held is a heading of a docs/ page', () => {
    const ids = new Set(markdownFiles().filter((f) => f.startsWith('docs/')).flatMap((f) => [...anchors(readFileSync(resolve(REPO_ROOT, f), 'utf8'))]));
    expect(MOVED_SECTIONS.filter((s) => !ids.has(headingId(s)))).toEqual([]);
  });

  it('finds a broken link and a missing anchor (the checker itself)', () => {
    expect(brokenLink('README.md', 'docs/no-such-page.md')).toMatch(/names no file/);
    expect(brokenLink('README.md', 'docs/cli.md#no-such-heading')).toMatch(/names no heading/);
    expect(brokenLink('docs/cli.md', '../README.md#the-two-commands')).toBeNull();
    expect(headingId("Speed and cost at the paper's scale")).toBe('speed-and-cost-at-the-papers-scale');
    expect(headingId('Local model speed: Node and Chromium')).toBe('local-model-speed-node-and-chromium');
    expect(relativeLinks('a [x](a.md) `[y](b.md)` ![i](img/p.png) [w](https://x.org)\n```\n[z](c.md)\n```\n')).toEqual(['a.md', 'img/p.png']);
  });
});

describe('folder READMEs', () => {
  it('every src/ folder opens with a README of 10–25 lines naming what it holds, may import and its entry points', () => {
    const bad: string[] = [];
    for (const folder of srcFolders()) {
      const file = resolve(REPO_ROOT, 'src', folder, 'README.md');
      if (!existsSync(file)) {
        bad.push(`${folder}: no README.md`);
        continue;
      }
      const text = readFileSync(file, 'utf8');
      const lines = text.trimEnd().split('\n').length;
      if (lines < 10 || lines > 25) bad.push(`${folder}: ${lines} lines`);
      for (const section of ['## Holds', '## May import', '## Entry points']) {
        if (!text.includes(section)) bad.push(`${folder}: no "${section}"`);
      }
    }
    expect(bad).toEqual([]);
  });
});
