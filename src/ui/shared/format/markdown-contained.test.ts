// @vitest-environment jsdom
/** Rendering is contained on error: when marked throws on a text the guard let
 * through (a bug of marked's the guard does not know yet), the text comes back escaped as plain
 * text with a note, and nothing is thrown to the view. marked is replaced by one that throws. */
import { describe, expect, it, vi } from 'vitest';

vi.mock('marked', () => ({
  Marked: class {
    parse(): string {
      throw new RangeError('Maximum call stack size exceeded');
    }
  },
}));

const { boundedMarkdownToHtml, escapeHtml, renderMarkdown } = await import('./markdown.ts');

describe('a renderer that throws', () => {
  const text = 'An ordinary guide with <b>raw</b> "HTML" & a [link](https://example.org).';
  const plain = `<p class="markdown-note">Shown as plain text: it could not be formatted.</p><p class="markdown-plain">${escapeHtml(text)}</p>`;

  it('boundedMarkdownToHtml returns the escaped text with a note and says why', () => {
    expect(boundedMarkdownToHtml(text)).toEqual({ html: plain, fallback: 'error' });
  });

  it('renderMarkdown (the view’s entry) never throws and shows the same fallback', () => {
    expect(renderMarkdown(text)).toBe(plain);
  });
});
