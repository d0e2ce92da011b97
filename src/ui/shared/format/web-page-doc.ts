/**
 * The document a `WebPageFrame` draws: a recorded page (`PageSnapshot`: the body's HTML with every
 * element's `bid`, typed values in attributes) wrapped in a full HTML document with a small site
 * stylesheet, a rule outlining the acted element `[bid="<targetBid>"]`, and a Content Security
 * Policy that loads nothing from the network. The frame is sandboxed without scripts, so nothing in
 * the HTML runs; links and form fields take no pointer events (a drawing, not a live site).
 */
import type { PageSnapshot } from '../../../web/interface.ts';

/** The site stylesheet: readable defaults for the sites' plain HTML (nav, tables, forms, lists). */
export const SITE_STYLESHEET = `
html { color-scheme: light; }
body { font: 14px/1.45 system-ui, sans-serif; color: #1e1e1e; background: #fff; margin: 0; padding: 0.75rem 1rem; }
h1 { font-size: 1.35rem; margin: 0.2rem 0 0.6rem; }
h2 { font-size: 1.1rem; margin: 0.8rem 0 0.4rem; }
h3 { font-size: 1rem; margin: 0.6rem 0 0.3rem; }
a { color: #1a55b0; }
header, nav { border-bottom: 1px solid #ddd; padding-bottom: 0.4rem; margin-bottom: 0.6rem; }
nav ul { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 0.3rem 0.9rem; }
table { border-collapse: collapse; margin: 0.4rem 0; }
th, td { border: 1px solid #ddd; padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f4f4f4; }
input, select, textarea, button { font: inherit; padding: 0.15rem 0.35rem; }
button { background: #f0ede6; border: 1px solid #bbb; border-radius: 4px; }
form { margin: 0.4rem 0; }
a, button, input, select, textarea, label, summary { pointer-events: none; }
`;

/** A CSS string literal's content for `text` (quotes, backslashes and `<` escaped). */
function cssString(text: string): string {
  return text.replace(/[\\"<\n]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `);
}

/** The attribute selector of a bid: `[bid="12"]`. */
export function bidSelector(bid: string): string {
  return `[bid="${cssString(bid)}"]`;
}

/** The full HTML document (for `srcdoc`) drawing `page`, its acted element outlined. */
export function webPageDocument(page: PageSnapshot): string {
  const highlight = page.targetBid === null ? '' :
    `${bidSelector(page.targetBid)} { outline: 3px solid #e8590c !important; outline-offset: 2px; background-color: #fff3bf !important; }`;
  const title = page.title.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
  return '<!doctype html><html><head><meta charset="utf-8">'
    + `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`
    + `<title>${title}</title><style>${SITE_STYLESHEET}${highlight}</style></head><body>${page.html}</body></html>`;
}
