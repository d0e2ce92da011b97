/** Layout checks of the e2e tests at a given window size: an element wholly inside the viewport
 * (no scrolling needed to see it), and two elements side by side. */
import { expect, type Page } from '@playwright/test';

/** The box of the element with test id `testid`, rendered (fails if it is not). */
export async function boxOf(page: Page, testid: string): Promise<{ x: number; y: number; width: number; height: number }> {
  const box = await page.getByTestId(testid).first().boundingBox();
  expect(box, `${testid} is rendered`).not.toBeNull();
  return box!;
}

/** The element's box lies wholly inside the viewport (top, bottom, left and right). */
export async function expectInSight(page: Page, testid: string): Promise<void> {
  const { width, height } = page.viewportSize()!;
  const box = await boxOf(page, testid);
  expect(box.y, `${testid} top`).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, `${testid} bottom`).toBeLessThanOrEqual(height);
  expect(box.x, `${testid} left`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${testid} right`).toBeLessThanOrEqual(width);
}

/** `right` is to the right of `left` (no horizontal overlap) and they share rows (vertical overlap). */
export async function expectBeside(page: Page, left: string, right: string): Promise<void> {
  const a = await boxOf(page, left);
  const b = await boxOf(page, right);
  expect(b.x, `${right} starts right of ${left}`).toBeGreaterThanOrEqual(a.x + a.width);
  expect(Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y), `${left} and ${right} share rows`).toBeGreaterThan(0);
}
