/** Rendering untrusted Markdown is bounded and contained: generated
 * pathological inputs (deep `>` and list nesting, `_a*` and `*` runs, `[` nesting, wide and long
 * tables, backticks, raw HTML) each go through the bounded Markdown layer without throwing within a
 * per-render CPU-time budget that the unguarded renderer exceeds (15 kB of `_a*` took 3.2 s in Node,
 * 6.8 s in the page). The sanitiser's layer is checked in markdown-render.test.ts (jsdom) and the
 * page in Chromium by e2e/markdown-bounds.spec.ts. */
import { describe, expect, it } from 'vitest';
import { boundedMarkdownToHtml, escapeHtml, markdownToHtml } from './markdown.ts';
import { MARKDOWN_MAX_CHARS, markdownFallbackReason } from './markdown-guard.ts';

/** CPU time per render (this process's user + system time, so a busy shared machine's waits for
 * a core do not count): guarded renders take ≤ ~100 ms; the freezes this guards against took
 * seconds (15 kB of `_a*`: 3.2 s in Node). */
const BUDGET_PER_RENDER_MS = 500;
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** mulberry32: a small seeded generator, so the fuzz cases are the same on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const table = (columns: number, rows: number): string =>
  `|${Array.from({ length: columns }, (_, i) => `col${i}`).join('|')}|\n|${'-|'.repeat(columns)}\n` + `|${'cell|'.repeat(columns)}\n`.repeat(rows);

/** Generators of one pathological kind each, given a size n (repetitions). */
const KINDS: Record<string, (n: number) => string> = {
  quoteNesting: (n) => '>'.repeat(n),
  quoteNestingSpaced: (n) => '> '.repeat(n) + 'x',
  listNesting: (n) => '- '.repeat(n) + 'x',
  orderedNesting: (n) => '1. '.repeat(n) + 'x',
  indentedLists: (n) => Array.from({ length: n }, (_, i) => `${' '.repeat(2 * i)}- item ${i}`).join('\n'),
  underscoreStar: (n) => '_a*'.repeat(n),
  starUnderscore: (n) => '*a_'.repeat(n),
  emphasisParagraphsAtTheLimit: (n) => `${'_a*'.repeat(166)}\n\n`.repeat(Math.ceil(n / 100)),
  emphasisListItems: (n) => `- ${'_a*'.repeat(150)}\n`.repeat(Math.ceil(n / 100)),
  starRun: (n) => '*'.repeat(n) + 'a' + '*'.repeat(n),
  starWords: (n) => '*a'.repeat(n),
  strongWords: (n) => '__a'.repeat(n),
  tildes: (n) => '~a'.repeat(n),
  bracketNesting: (n) => '['.repeat(n) + 'a' + ']'.repeat(n) + '(x)',
  linkOpeners: (n) => '[a]('.repeat(n),
  backticks: (n) => '`'.repeat(n) + 'a' + '`'.repeat(n >> 1),
  backtickWords: (n) => '``a`'.repeat(n),
  html: (n) => '<div><b onclick="x()">'.repeat(n),
  angles: (n) => '<a'.repeat(n),
  backslashes: (n) => '\\'.repeat(n) + '*a*',
  wideTable: (n) => table(Math.min(n, 600), 3),
  longTable: (n) => table(5, n),
  headings: (n) => '#'.repeat(n) + ' a',
  lineBreaks: (n) => 'a  \n'.repeat(n),
};

const SIZES = [10, 100, 1000, 2500, 5000];

describe('markdown rendering under pathological inputs', () => {
  for (const [kind, make] of Object.entries(KINDS)) {
    it(`${kind}: every size renders within ${BUDGET_PER_RENDER_MS} ms of CPU and never throws`, () => {
      for (const n of SIZES) {
        const text = make(n);
        const started = cpuMs();
        let html = '';
        expect(() => (html = boundedMarkdownToHtml(text).html), `${kind} × ${n}`).not.toThrow();
        expect(cpuMs() - started, `${kind} × ${n} (${text.length} chars)`).toBeLessThan(BUDGET_PER_RENDER_MS);
        expect(html.length).toBeGreaterThan(0);
        expect(html).not.toMatch(/<script|<[^>]*\sonclick=|<img/i);
      }
    });
  }

  it('random mixes of the kinds with prose render within budget and never throw (seeded)', () => {
    const random = rng(24);
    const kinds = Object.values(KINDS);
    for (let round = 0; round < 60; round++) {
      const parts: string[] = [];
      for (let k = 0; k < 1 + Math.floor(random() * 4); k++) {
        parts.push(kinds[Math.floor(random() * kinds.length)]!(1 + Math.floor(random() * 3000)));
        parts.push(random() < 0.5 ? '\n\n' : ' plain words here ');
      }
      const text = parts.join('');
      const started = cpuMs();
      expect(() => boundedMarkdownToHtml(text), `round ${round}`).not.toThrow();
      expect(cpuMs() - started, `round ${round} (${text.length} chars)`).toBeLessThan(BUDGET_PER_RENDER_MS);
    }
  });

  it('the issue’s inputs come back as escaped plain text with a note saying why', () => {
    const quotes = '>'.repeat(2500);
    expect(() => markdownToHtml(quotes)).toThrow(); // marked #1462, which the guard keeps away
    expect(boundedMarkdownToHtml(quotes)).toEqual({
      html: `<p class="markdown-note">Shown as plain text: nested too deeply to format.</p><p class="markdown-plain">${escapeHtml(quotes)}</p>`,
      fallback: 'too_deep',
    });
    const emphasis = '_a*'.repeat(5000);
    expect(markdownFallbackReason(emphasis)).toBe('too_many_delimiters');
    expect(boundedMarkdownToHtml(emphasis).html).toContain(`<p class="markdown-plain">${emphasis}</p>`);
    expect(boundedMarkdownToHtml('word '.repeat(MARKDOWN_MAX_CHARS / 5 + 1)).fallback).toBe('too_long');
    expect(markdownFallbackReason(`${' '.repeat(80)}- deep`)).toBe('too_deep');
  });

  it('ordinary guides stay Markdown: rules, bold list items, a few levels of quotes and lists', () => {
    const guide = ['# Plan', '-'.repeat(80), ...Array.from({ length: 150 }, (_, i) => `- **step ${i}**: _go_ north`), '', '> > > - nested note', '', '***', '    indented code'].join('\n');
    expect(markdownFallbackReason(guide)).toBeUndefined();
    const { html, fallback } = boundedMarkdownToHtml(guide);
    expect(fallback).toBeUndefined();
    expect(html).toContain('<strong>step 149</strong>');
    expect(html).toContain('<blockquote>');
  });

  it('a table is wrapped in a focusable region that scrolls it; a raw HTML table stays text', () => {
    const html = markdownToHtml(table(300, 2));
    expect(html).toMatch(/^<div class="table-scroll" role="region" aria-label="Table" tabindex="0"><table>/);
    expect(html.trimEnd()).toMatch(/<\/table><\/div>$/);
    expect(markdownToHtml('<table><tr><td>x</td></tr></table>')).not.toContain('table-scroll');
  });
});
