/**
 * What an element action does on the page, as a browser would: click follows a link, submits a
 * form (with its submit button), toggles a checkbox or focuses a field; fill types into a text
 * field; select_option picks an option by value or label; press handles Enter (implicit form
 * submission), Backspace and printable keys. Errors are returned as text (Playwright-like), never
 * thrown. Works on the injected Document; uses no DOM globals.
 */
import { BID_ATTRIBUTE } from './axtree.ts';

/** A request the page asks the browser to make (link or form). */
export interface Navigation {
  method: 'GET' | 'POST';
  /** As written in the page (relative or absolute). */
  url: string;
  form: [string, string][];
}

/** The outcome of an element action: an error, a navigation, or a change in place (null). */
export type ElementOutcome = { error: string } | { navigate: Navigation } | null;

const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'tel', 'url', 'number', 'password', '']);
/** Keys accepted by press() besides single printable characters (no effect unless noted). */
const NAMED_KEYS = new Set(['Enter', 'Backspace', 'Tab', 'Escape', 'Delete', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown', 'Space']);

/** The element with id `bid`, or an error. */
export function findElement(doc: Document, bid: string): Element | { error: string } {
  const el = doc.body.querySelector(`[${BID_ATTRIBUTE}="${bid.replace(/["\\]/g, '')}"]`);
  return el ?? { error: `Could not find element with id '${bid}' on this page.` };
}

function describe(el: Element): string {
  const type = el.getAttribute('type');
  return `<${el.tagName.toLowerCase()}${type ? ` type="${type}"` : ''}>`;
}

function isTextField(el: Element): boolean {
  if (el.tagName === 'TEXTAREA') return true;
  return el.tagName === 'INPUT' && TEXT_INPUT_TYPES.has((el.getAttribute('type') ?? '').toLowerCase());
}

function formOf(el: Element): HTMLFormElement | null {
  return (el as HTMLInputElement).form ?? (el.closest('form') as HTMLFormElement | null);
}

/** Submit `form` with `submitter` (a submit button or null), after the browser's required-field check. */
export function submitForm(form: HTMLFormElement, submitter: Element | null): ElementOutcome {
  const fields: [string, string][] = [];
  for (const control of Array.from(form.elements)) {
    const name = control.getAttribute('name');
    if (!name || control.hasAttribute('disabled')) continue;
    const type = (control.getAttribute('type') ?? '').toLowerCase();
    const value = (control as HTMLInputElement).value;
    if (control.hasAttribute('required') && value.trim() === '') {
      const label = (control as HTMLInputElement).labels?.[0]?.textContent?.trim() ?? name;
      return { error: `The form was not sent: please fill out the required field '${label}'.` };
    }
    if (control.tagName === 'BUTTON' || type === 'submit') {
      if (control === submitter) fields.push([name, value]);
    } else if (type === 'checkbox' || type === 'radio') {
      if ((control as HTMLInputElement).checked) fields.push([name, value || 'on']);
    } else fields.push([name, value]);
  }
  const method = (form.getAttribute('method') ?? 'get').toLowerCase() === 'post' ? 'POST' : 'GET';
  return { navigate: { method, url: form.getAttribute('action') ?? '', form: fields } };
}

/** click(): what the element (or the link / button / label it sits in) does. */
export function clickElement(el: Element): ElementOutcome {
  const target = el.closest('a[href], button, input, select, textarea, label') ?? el;
  if (target.hasAttribute('disabled')) return { error: `Element ${describe(target)} is disabled and cannot be clicked.` };
  const focus = () => (target as HTMLElement).focus?.();
  if (target.tagName === 'A') {
    const href = target.getAttribute('href')!;
    return href.startsWith('#') ? null : { navigate: { method: 'GET', url: href, form: [] } };
  }
  if (target.tagName === 'LABEL') {
    const control = (target as HTMLLabelElement).control;
    return control ? clickElement(control) : null;
  }
  const type = (target.getAttribute('type') ?? '').toLowerCase();
  if (target.tagName === 'BUTTON' || (target.tagName === 'INPUT' && (type === 'submit' || type === 'image'))) {
    focus();
    const form = formOf(target);
    if (!form || type === 'button' || type === 'reset') return null;
    return submitForm(form, target);
  }
  if (target.tagName === 'INPUT' && (type === 'checkbox' || type === 'radio')) {
    const input = target as HTMLInputElement;
    input.checked = type === 'radio' ? true : !input.checked;
  }
  focus();
  return null;
}

/** fill(): replace a text field's value. */
export function fillElement(el: Element, text: string): ElementOutcome {
  if (!isTextField(el)) return { error: `Element ${describe(el)} is not a text field (<input> or <textarea>), so fill() cannot type into it.` };
  if (el.hasAttribute('disabled') || el.hasAttribute('readonly')) return { error: `The field ${describe(el)} is not editable.` };
  (el as HTMLInputElement).value = text;
  (el as HTMLElement).focus?.();
  return null;
}

/** select_option(): choose by value, else by visible label (exact, then case-insensitive). */
export function selectOption(el: Element, option: string): ElementOutcome {
  if (el.tagName !== 'SELECT') return { error: `Element ${describe(el)} is not a <select>, so select_option() does not apply (use click or fill).` };
  const select = el as HTMLSelectElement;
  const options = Array.from(select.options);
  const label = (o: HTMLOptionElement) => (o.textContent ?? '').trim();
  const want = option.trim();
  const match = options.find((o) => o.value === want) ?? options.find((o) => label(o) === want) ?? options.find((o) => label(o).toLowerCase() === want.toLowerCase());
  if (!match) return { error: `No option '${option}' in this list. Options: ${options.map((o) => `'${label(o)}'`).join(', ')}.` };
  select.value = match.value;
  select.focus?.();
  return null;
}

/** press(): Enter submits the field's form (or activates a link / button); Backspace deletes a character;
 * a printable character is typed; other named keys only move focus. */
export function pressKey(el: Element, key: string): ElementOutcome {
  const combo = /^(?:(?:Control|Shift|Alt|Meta|ControlOrMeta)\+)+(.+)$/.exec(key);
  const base = combo ? combo[1]! : key;
  if (!NAMED_KEYS.has(base) && [...base].length !== 1) return { error: `Unknown key '${key}'. Use a key name such as 'Enter', 'Backspace', 'Tab' or one character.` };
  (el as HTMLElement).focus?.();
  if (combo) return null;
  if (key === 'Enter') {
    if (el.tagName === 'A' || el.tagName === 'BUTTON') return clickElement(el);
    const form = formOf(el);
    if (form && el.tagName !== 'TEXTAREA') return submitForm(form, form.querySelector('button:not([type=button]):not([type=reset]), input[type=submit]'));
    if (el.tagName !== 'TEXTAREA') return null;
  }
  if (!isTextField(el)) return null;
  const input = el as HTMLInputElement;
  if (key === 'Backspace') input.value = input.value.slice(0, -1);
  else if (key === 'Enter') input.value += '\n';
  else if (key === 'Space') input.value += ' ';
  else if ([...key].length === 1) input.value += key;
  return null;
}
