/**
 * HTML for the sites' pages, built as strings with every interpolated value escaped (agent-typed
 * text ends up in posts, issues and comments, so nothing unescaped may reach the page). A value
 * wrapped by `raw()` (already-built HTML) is inserted as is. No DOM here: pages are strings.
 */

/** HTML that is already safe (built by `html` or `raw`). */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escape text for an element's content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

type Part = string | number | SafeHtml | null | undefined | false | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof SafeHtml) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

/** Tagged template: `html\`<p>${text}</p>\`` escapes `text`; arrays are joined; null/false vanish. */
export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Mark trusted HTML as safe. */
export function raw(text: string): SafeHtml {
  return new SafeHtml(text);
}

/** Money from cents: 1250 → "$12.50". */
export function money(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** A URL path with query parameters (empty values dropped), e.g. `/search?q=lamp&page=2`. */
export function withQuery(path: string, params: Record<string, string | number | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== null && value !== undefined && value !== '') query.set(key, String(value));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** A slug for URLs: "Home & Garden" → "home-garden". */
export function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
