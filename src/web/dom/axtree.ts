/**
 * The page's accessibility tree as text, in BrowserGym's flattened format (browsergym/utils/obs.py
 * `flatten_axtree_to_str`): one node per line, a tab per depth, `[bid] role 'name'` (Python-quoted),
 * ` value='…'` for fields, then `, property` flags; unnamed generic nodes and StaticText repeating
 * its parent's name are left out. Roles and accessible names come from dom-accessibility-api (the
 * only importer of it). Works on any injected Document (jsdom in Node, an iframe in the page).
 */
import { computeAccessibleName, getRole, isInaccessible, isSubtreeInaccessible } from 'dom-accessibility-api';
import { pyRepr } from '../actions.ts';

/** The attribute holding an element's id (BrowserGym's `bid`). */
export const BID_ATTRIBUTE = 'bid';

/** One printed node. `bid` is null for text and the root. */
export interface AxNode {
  bid: string | null;
  role: string;
  name: string;
  depth: number;
}

export interface AxTree {
  /** The flattened text the actor reads. */
  text: string;
  /** The printed nodes in order (for resolving oracle targets). */
  nodes: AxNode[];
}

/** The user-agent style sheet's display values that matter for names from content (HTML §15.3). */
const UA_DISPLAY: Record<string, string> = {
  ...Object.fromEntries('ADDRESS ARTICLE ASIDE BLOCKQUOTE DD DIV DL DT FIELDSET FIGURE FOOTER FORM H1 H2 H3 H4 H5 H6 HEADER HR MAIN NAV OL P PRE SECTION UL'.split(' ').map((t) => [t, 'block'])),
  LI: 'list-item', TABLE: 'table', CAPTION: 'table-caption', THEAD: 'table-header-group', TBODY: 'table-row-group', TR: 'table-row', TD: 'table-cell', TH: 'table-cell',
};

/** How an element's computed style is read (display, visibility, content); see `inlineStyleOf`. */
export type StyleReader = (element: Element) => CSSStyleDeclaration;

/**
 * A style reader that looks only at the element's inline style and `hidden` attribute. jsdom's
 * getComputedStyle cascades every stylesheet on every call (about 20× slower); the sites use no
 * stylesheets, so in Node this gives the same tree. The page uses the window's real one.
 */
export const inlineStyleOf: StyleReader = (element) => {
  const inline = element.getAttribute('style') ?? '';
  const display = /display\s*:\s*([\w-]+)/i.exec(inline)?.[1] ?? (element.hasAttribute('hidden') ? 'none' : (UA_DISPLAY[element.tagName] ?? 'inline'));
  const visibility = /visibility\s*:\s*([\w-]+)/i.exec(inline)?.[1] ?? 'visible';
  const values: Record<string, string> = { display, visibility, content: 'none' };
  return { display, visibility, content: 'none', getPropertyValue: (name: string) => values[name] ?? '' } as unknown as CSSStyleDeclaration;
};

const SKIPPED_TAGS = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'HEAD', 'NOSCRIPT']);
const FIELD_ROLES = new Set(['textbox', 'searchbox', 'spinbutton', 'combobox']);

/** Number every element of the body in document order (1, 2, …); returns the count. */
export function assignBids(doc: Document): number {
  let n = 0;
  for (const el of doc.body.querySelectorAll('*')) el.setAttribute(BID_ATTRIBUTE, String(++n));
  return n;
}

function absolute(href: string, baseUrl: string): string {
  try {
    return new URL(href, baseUrl).href;
  } catch {
    return href;
  }
}

function roleOf(el: Element): string {
  const role = getRole(el);
  if (role) return role;
  return el.tagName === 'LABEL' ? 'LabelText' : 'generic';
}

function fieldValue(el: Element): string | null {
  if (el.tagName === 'SELECT') {
    const select = el as HTMLSelectElement;
    return select.selectedOptions[0]?.textContent?.trim() ?? '';
  }
  if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') return (el as HTMLInputElement).value;
  return null;
}

function properties(el: Element, role: string, focused: Element | null, baseUrl: string): string[] {
  const props: string[] = [];
  if (el === focused) props.push('focused');
  if (el.hasAttribute('required')) props.push('required');
  if (el.hasAttribute('disabled')) props.push('disabled=True');
  if (role === 'checkbox' || role === 'radio') props.push(`checked=${pyRepr(String((el as HTMLInputElement).checked))}`);
  if (role === 'option' && (el as HTMLOptionElement).selected) props.push('selected=True');
  if (el.tagName === 'SELECT') props.push("hasPopup='menu'", 'expanded=False');
  if (role === 'link' && el.hasAttribute('href')) props.push(`url=${pyRepr(absolute(el.getAttribute('href')!, baseUrl))}`);
  return props;
}

/**
 * Build the tree text of `doc` (bids must have been assigned). `focused` is the element with focus
 * (null: none); `baseUrl` resolves links' `url=`; `styleOf` reads computed style (default: the
 * document's window). Hidden elements (hidden, aria-hidden, display:none) are left out.
 */
export function buildAxTree(doc: Document, focused: Element | null, baseUrl: string, styleOf?: StyleReader): AxTree {
  const view = doc.defaultView;
  const getComputedStyle = (styleOf ?? ((el: Element) => view!.getComputedStyle(el))) as typeof window.getComputedStyle;
  // The walk stops at inaccessible subtrees, so only the element itself needs the subtree check.
  const hidden = (el: Element) => isInaccessible(el, { getComputedStyle, isSubtreeInaccessible: (e) => e === el && isSubtreeInaccessible(e, { getComputedStyle }) });
  const nodes: AxNode[] = [];
  const lines: string[] = [];
  const title = doc.title.trim();
  nodes.push({ bid: null, role: 'RootWebArea', name: title, depth: 0 });
  lines.push(`RootWebArea ${pyRepr(title)}, focused`);

  const visit = (node: Node, depth: number, parentName: string): void => {
    if (node.nodeType === 3) {
      const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (text === '' || parentName.includes(text)) return;
      nodes.push({ bid: null, role: 'StaticText', name: text, depth });
      lines.push(`${'\t'.repeat(depth)}StaticText ${pyRepr(text)}`);
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node as Element;
    if (SKIPPED_TAGS.has(el.tagName) || el.tagName === 'BR' || hidden(el)) return;
    const role = roleOf(el);
    const name = role === 'generic' || role === 'none' || role === 'presentation' ? '' : computeAccessibleName(el, { getComputedStyle }).trim();
    const props = properties(el, role, focused, baseUrl);
    const skip = role === 'none' || role === 'presentation' || (role === 'generic' && props.length === 0);
    let childDepth = depth;
    if (!skip) {
      const bid = el.getAttribute(BID_ATTRIBUTE);
      const value = FIELD_ROLES.has(role) ? fieldValue(el) : null;
      let line = `${bid ? `[${bid}] ` : ''}${role === 'generic' && !name ? role : `${role} ${pyRepr(name)}`}`;
      if (value !== null) line += ` value=${pyRepr(value)}`;
      if (props.length > 0) line += `, ${props.join(', ')}`;
      nodes.push({ bid, role, name, depth });
      lines.push('\t'.repeat(depth) + line);
      childDepth = depth + 1;
    }
    if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') return;
    for (const child of el.childNodes) visit(child, childDepth, skip ? parentName : name);
  };
  for (const child of doc.body.childNodes) visit(child, 1, title);
  return { text: lines.join('\n'), nodes };
}
