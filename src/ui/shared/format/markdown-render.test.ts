// @vitest-environment jsdom
/** The sanitising layer (DOMPurify, here on jsdom) keeps the table's scroll region and the
 * plain-text fallback, and never throws on hostile inputs. */
import { describe, expect, it } from 'vitest';
import { escapeHtml, renderMarkdown } from './markdown.ts';

describe('renderMarkdown with a DOM', () => {
  it('keeps the table region focusable and strips what the sanitiser forbids', () => {
    const html = renderMarkdown('|a|b|\n|-|-|\n|1|2|\n\n<img src=x onerror=alert(1)>');
    expect(html).toContain('<div class="table-scroll" role="region" aria-label="Table" tabindex="0"><table>');
    expect(html).not.toMatch(/<img|<[^>]*\sonerror=/);
  });

  it('shows the issue’s inputs as escaped plain text and does not throw', () => {
    const quotes = '>'.repeat(2500);
    expect(renderMarkdown(quotes)).toBe(`<p class="markdown-note">Shown as plain text: nested too deeply to format.</p><p class="markdown-plain">${escapeHtml(quotes)}</p>`);
    expect(renderMarkdown('_a*'.repeat(5000))).toContain('too many emphasis marks');
    expect(renderMarkdown('<script>x</script>'.repeat(2000))).not.toContain('<script');
  });
});
