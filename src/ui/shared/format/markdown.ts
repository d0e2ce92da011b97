/**
 * Model output (meta-agent feedback, reflections) as SANITISED HTML, in two layers:
 * 1. `markdownToHtml` (marked): raw HTML in the text is escaped and shown as text, images are
 *    shown as text (no remote loads), links keep only http(s) and mailto targets and get
 *    rel="noopener noreferrer" target="_blank";
 * 2. `renderMarkdown` then runs DOMPurify over that HTML, and fails closed: without a DOM (no
 *    DOMPurify support) it returns the escaped plain text.
 * The only module that imports marked and dompurify; `{@html}` takes nothing else. Rendered HTML
 * is cached by text (`renderMarkdown`). Rendering is bounded and contained: a text that
 * marked would spend unbounded time or stack on (markdown-guard.ts), or that makes it throw, is shown
 * as escaped plain text with a note; tables scroll inside their own focusable region.
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { FALLBACK_NOTES, markdownFallbackReason, type MarkdownFallbackReason } from './markdown-guard.ts';

/** `text` with &, <, >, " and ' escaped for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const SAFE_LINK = /^(https?:|mailto:)/i;
const LINK_REL = 'noopener noreferrer';

const marked = new Marked({
  async: false,
  gfm: true,
  breaks: true,
  renderer: {
    html: ({ text }) => escapeHtml(text),
    image: ({ href, text }) => escapeHtml(`[image: ${text}](${href})`),
    link({ href, title, tokens }) {
      const label = this.parser.parseInline(tokens);
      if (!SAFE_LINK.test(href.trim())) return label;
      const titleAttr = title ? ` title="${escapeHtml(title)}"` : '';
      return `<a href="${escapeHtml(href.trim())}"${titleAttr} rel="${LINK_REL}" target="_blank">${label}</a>`;
    },
  },
});

/** Markdown to HTML with raw HTML escaped and links made safe (layer 1; see module doc). Throws
 * what marked throws (a RangeError on deep nesting); `renderMarkdown` guards and contains it. */
export function markdownToHtml(text: string): string {
  return wrapTables(marked.parse(text) as string);
}

/** Each table inside a keyboard-reachable region that scrolls sideways on its own, so a wide
 * table never widens the page. Raw HTML is escaped by layer 1, so every `<table>` is marked's. */
function wrapTables(html: string): string {
  return html
    .replace(/<table>/g, '<div class="table-scroll" role="region" aria-label="Table" tabindex="0"><table>')
    .replace(/<\/table>/g, '</table></div>');
}

/**
 * Layer 1 bounded and contained: `markdownToHtml(text)` when the guard (markdown-guard.ts) lets the
 * text through and marked does not throw; otherwise `plainTextHtml` and why (`fallback`). Never
 * throws; its time is bounded by the guard's limits.
 */
export function boundedMarkdownToHtml(text: string): { html: string; fallback?: MarkdownFallbackReason | 'error' } {
  const reason = markdownFallbackReason(text);
  if (reason) return { html: plainTextHtml(text, reason), fallback: reason };
  try {
    return { html: markdownToHtml(text) };
  } catch {
    return { html: plainTextHtml(text, 'error'), fallback: 'error' };
  }
}

/** The fallback: a note saying why, then the text escaped, its line breaks kept (pre-wrap). */
export function plainTextHtml(text: string, reason: MarkdownFallbackReason | 'error'): string {
  return `<p class="markdown-note">${FALLBACK_NOTES[reason]}</p><p class="markdown-plain">${escapeHtml(text)}</p>`;
}

let hooked = false;

/** Layer 2's hook: every link opens in a new tab without access to this page. */
function hookLinks(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      node.setAttribute('rel', LINK_REL);
      node.setAttribute('target', '_blank');
    }
  });
}

/**
 * Markdown from a model as HTML that is safe for `{@html}`: no script, no event handlers, no
 * images, no javascript: links. Never throws: a text over the guard's limits (markdown-guard.ts)
 * or one marked or DOMPurify fails on comes back as `plainTextHtml`. Without DOM support it returns
 * escaped text (fails closed).
 */
export function renderMarkdown(text: string): string {
  if (!DOMPurify.isSupported) return `<p>${escapeHtml(text)}</p>`;
  const hit = rendered.get(text);
  if (hit !== undefined) return hit;
  hookLinks();
  const bounded = boundedMarkdownToHtml(text);
  let html = bounded.html;
  if (!bounded.fallback) {
    try {
      html = DOMPurify.sanitize(bounded.html, { FORBID_TAGS: ['img', 'style', 'form', 'input', 'iframe'], ADD_ATTR: ['target'] });
    } catch {
      html = plainTextHtml(text, 'error');
    }
  }
  if (rendered.size >= RENDERED_MAX) rendered.delete(rendered.keys().next().value as string);
  rendered.set(text, html);
  return html;
}

/** The last RENDERED_MAX texts rendered (oldest dropped first): a view that shows the same
 * guides and replies again (a session's record updated, an episode reopened) does not re-parse
 * and re-sanitise them on the main thread. */
const RENDERED_MAX = 200;
const rendered = new Map<string, string>();

/**
 * The first texts marked and DOMPurify handle cost tens of ms (the engine compiles their regular
 * expressions and code), so a browser warms them up in idle time once this module loads, rather
 * than inside the view update that first shows a model's reply (page-bench's session run).
 */
const idle = (globalThis as { requestIdleCallback?: (run: () => void) => number }).requestIdleCallback;
if (typeof idle === 'function') {
  idle(() => void renderMarkdown('# Guide\n\nRead the **log** of episode 1.\n1. pull the red lever\n2. look\n\n- north\n- take lamp\n\n> a note with `code` and [a link](https://example.org)'));
}

