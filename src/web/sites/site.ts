/**
 * The shape of a site: a small server-side web app that answers requests (GET for links and
 * search forms, POST for changes, then a redirect, as Magento, Postmill and GitLab do) with a page
 * of HTML built from its in-memory state. One `Site` object lives for one episode. Plus the shared
 * page furniture: routes, layout, pagination, form helpers. No DOM: pages are strings.
 */
import type { WebSiteId } from '../interface.ts';
import { html, raw, withQuery, type SafeHtml } from './html.ts';

/** A request the browser emulation sends to a site. `form` holds POSTed fields (empty for GET). */
export interface WebRequest {
  method: 'GET' | 'POST';
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
}

/** A page (status 200 or 404) or a redirect to a path on the same site. */
export type WebResponse = { kind: 'page'; status: 200 | 404; title: string; body: SafeHtml } | { kind: 'redirect'; location: string };

/** A running site with its state `S` (mutated by POSTs; read by state checks). */
export interface Site<S = unknown> {
  readonly id: WebSiteId;
  /** e.g. "http://shop.test" (no trailing slash). */
  readonly origin: string;
  readonly state: S;
  handle(request: WebRequest): WebResponse;
}

/** The sites' origins (the reserved .test domain: nothing real answers there). */
export const SITE_ORIGINS: Record<WebSiteId, string> = {
  shop: 'http://shop.test',
  'shop-admin': 'http://admin.shop.test',
  forum: 'http://forum.test',
  forge: 'http://forge.test',
  map: 'http://map.test',
};

type Handler = (params: string[], request: WebRequest) => WebResponse;

/** A tiny router: `add('GET', /^\/product\/([^/]+)$/, (p) => …)`; unmatched requests get a 404 page. */
export class Router {
  private readonly routes: { method: WebRequest['method']; pattern: RegExp; handler: Handler }[] = [];

  add(method: WebRequest['method'], pattern: RegExp, handler: Handler): this {
    this.routes.push({ method, pattern, handler });
    return this;
  }

  handle(request: WebRequest, notFound: () => WebResponse): WebResponse {
    for (const route of this.routes) {
      if (route.method !== request.method) continue;
      const match = route.pattern.exec(request.path);
      if (!match) continue;
      let params: string[];
      try {
        params = match.slice(1).map((p) => decodeURIComponent(p));
      } catch {
        return notFound();
      }
      return route.handler(params, request);
    }
    return notFound();
  }
}

/** A page response. */
export function page(title: string, body: SafeHtml, status: 200 | 404 = 200): WebResponse {
  return { kind: 'page', status, title, body };
}

export function redirect(location: string): WebResponse {
  return { kind: 'redirect', location };
}

/** The common frame: a banner with the site name and nav links, a main region with the h1. */
export function layout(siteName: string, nav: [string, string][], heading: string, content: SafeHtml, flash?: string | null): SafeHtml {
  return html`<header><a href="/">${siteName}</a><nav aria-label="Main">${nav.map(([href, label]) => html` <a href="${href}">${label}</a>`)}</nav></header>
<main>${flash ? html`<p role="status">${flash}</p>` : ''}<h1>${heading}</h1>${content}</main>`;
}

/** One page of a list: 1-based `page` clamped to [1, pages]. */
export function paginate<T>(items: readonly T[], pageText: string | null, perPage: number): { items: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(items.length / perPage));
  const page = Math.min(pages, Math.max(1, Number.parseInt(pageText ?? '1', 10) || 1));
  return { items: items.slice((page - 1) * perPage, page * perPage), page, pages };
}

/** Previous / Next links and "Page i of n" for a list at `path` with query `params`. */
export function pager(path: string, params: Record<string, string | null>, page: number, pages: number): SafeHtml {
  if (pages <= 1) return html``;
  const link = (p: number, label: string) => html`<a href="${withQuery(path, { ...params, page: p })}">${label}</a>`;
  return html`<nav aria-label="Pagination">${page > 1 ? link(page - 1, 'Previous') : ''} <span>Page ${page} of ${pages}</span> ${page < pages ? link(page + 1, 'Next') : ''}</nav>`;
}

/** A <select> with a label; `options` are [value, label] pairs. */
export function selectField(name: string, label: string, options: [string, string][], selected: string | null): SafeHtml {
  return html`<label>${label} <select name="${name}">${options.map(([value, text]) => html`<option value="${value}"${value === selected ? raw(' selected') : ''}>${text}</option>`)}</select></label>`;
}

/** A labelled text input. */
export function textField(name: string, label: string, value = '', type = 'text'): SafeHtml {
  return html`<label>${label} <input type="${type}" name="${name}" value="${value}"></label>`;
}

/** A one-button POST form (vote, star, subscribe, remove…), with hidden fields. */
export function postButton(action: string, label: string, hidden: Record<string, string> = {}): SafeHtml {
  return html`<form method="post" action="${action}">${Object.entries(hidden).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}<button type="submit">${label}</button></form>`;
}

/** A table with a header row; cells are already-built HTML or text. */
export function table(caption: string, headers: string[], rows: (string | number | SafeHtml)[][]): SafeHtml {
  return html`<table><caption>${caption}</caption><thead><tr>${headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead><tbody>${rows.map((row) => html`<tr>${row.map((c) => html`<td>${c}</td>`)}</tr>`)}</tbody></table>`;
}

/** The 404 page of a site. */
export function notFoundPage(siteName: string, nav: [string, string][], path: string): WebResponse {
  return page('Page not found', layout(siteName, nav, 'Page not found', html`<p>There is no page at ${path}.</p>`), 404);
}

/** Trimmed form field ('' when missing). */
export function field(form: URLSearchParams, name: string): string {
  return (form.get(name) ?? '').trim();
}
