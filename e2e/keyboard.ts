/**
 * Keyboard-only steps for the e2e suite: move the focus with Tab / Shift+Tab until a control is
 * focused (failing if it is never reached), and check that the focused control shows a visible
 * :focus-visible outline whose colour contrasts ≥ 3:1 with the background behind it (WCAG 2.2
 * 1.4.11 / 2.4.13; relative luminance and contrast ratio as WCAG 2.x defines them).
 */
import { expect, type Page } from '@playwright/test';

/** Press Tab (or Shift+Tab) until the element with `testid` has the focus; at most `max` presses. */
export async function tabTo(page: Page, testid: string, { back = false, max = 120 } = {}): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((id) => document.activeElement?.getAttribute('data-testid') === id, testid)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${testid} never got the focus in ${max} ${back ? 'Shift+Tab' : 'Tab'} presses`);
}

/** The focused element's outline as drawn: style, width (px), and its contrast with the background behind it. */
export interface FocusRing {
  focusVisible: boolean;
  style: string;
  widthPx: number;
  contrast: number;
}

/** Measure the focus ring of the focused element. */
export function focusRing(page: Page): Promise<FocusRing> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const rgba = (text: string): number[] => (text.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]): number => {
      const lin = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
    };
    // The outline is drawn outside the element: the background behind it is its parent's (the
    // nearest ancestor with an opaque background).
    let node: HTMLElement | null = el.parentElement;
    let background = [255, 255, 255];
    while (node) {
      const c = rgba(getComputedStyle(node).backgroundColor);
      if (c.length >= 3 && (c[3] ?? 1) > 0.9) { background = c; break; }
      node = node.parentElement;
    }
    const style = getComputedStyle(el);
    const [l1, l2] = [luminance(rgba(style.outlineColor)), luminance(background)];
    return {
      focusVisible: el.matches(':focus-visible'),
      style: style.outlineStyle,
      widthPx: parseFloat(style.outlineWidth),
      contrast: (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05),
    };
  });
}

/** The focused element shows a solid or dashed outline ≥ 2 px wide contrasting ≥ 3:1 with what is behind it. */
export async function expectVisibleFocus(page: Page, what: string): Promise<void> {
  const ring = await focusRing(page);
  expect(ring.focusVisible, `${what} matches :focus-visible`).toBe(true);
  expect(ring.style, `${what}'s outline style`).not.toBe('none');
  expect(ring.widthPx, `${what}'s outline width`).toBeGreaterThanOrEqual(2);
  expect(ring.contrast, `${what}'s outline contrast`).toBeGreaterThanOrEqual(3);
}
