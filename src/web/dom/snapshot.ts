/**
 * A page snapshot (`PageSnapshot`): the body's HTML as it is now, with form fields' live values
 * (typed text, ticked boxes, chosen options) written into attributes so a copy drawn elsewhere (a
 * replay's frame, the page's live frame) shows what the agent saw. Works on the injected Document.
 */
import type { PageSnapshot } from '../interface.ts';

/** Snapshot `doc`'s body at `url`; `targetBid` is the element the last action acted on (or null). */
export function snapshotPage(doc: Document, url: string, targetBid: string | null): PageSnapshot {
  const copy = doc.body.cloneNode(true) as HTMLElement;
  const live = doc.body.querySelectorAll('input, textarea, select');
  const copies = copy.querySelectorAll('input, textarea, select');
  live.forEach((el, i) => {
    const target = copies[i];
    if (!target) return;
    const tag = el.tagName.toLowerCase();
    if (tag === 'input') {
      const input = el as HTMLInputElement;
      if (input.type === 'checkbox' || input.type === 'radio') {
        if (input.checked) target.setAttribute('checked', '');
        else target.removeAttribute('checked');
      } else if (input.type !== 'password') {
        target.setAttribute('value', input.value);
      }
    } else if (tag === 'textarea') {
      target.textContent = (el as HTMLTextAreaElement).value;
    } else {
      const options = (el as HTMLSelectElement).options;
      const copyOptions = target.querySelectorAll('option');
      for (let o = 0; o < options.length; o++) {
        if (options[o]!.selected) copyOptions[o]?.setAttribute('selected', '');
        else copyOptions[o]?.removeAttribute('selected');
      }
    }
  });
  return { url, title: doc.title, html: copy.innerHTML, targetBid };
}
