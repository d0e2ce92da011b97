/**
 * The e2e suite's accessibility check: axe-core (through @axe-core/playwright) over the whole
 * page, WCAG 2.0–2.2 A/AA and best-practice rules, none disabled. `expectNoSeriousViolations`
 * fails with one line per `serious` or `critical` violation (rule id, impact, the first few
 * offending nodes' selectors and axe's summary), so a failure names what to fix.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The impacts this suite refuses (axe's scale: minor < moderate < serious < critical). */
const REFUSED = new Set(['serious', 'critical']);

/** One refused violation, as printed in a failing test. */
export interface AxeFinding {
  rule: string;
  impact: string;
  nodes: string[];
}

/** Run axe on `page` as it is now and return the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((v) => REFUSED.has(v.impact ?? ''))
    .map((v) => ({
      rule: v.id,
      impact: v.impact ?? '',
      nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')} — ${(n.failureSummary ?? '').split('\n').slice(1, 2).join('').trim()}`),
    }));
}

/** Assert that axe finds no serious or critical violation on `page`; `where` names the state checked. */
export async function expectNoSeriousViolations(page: Page, where: string): Promise<void> {
  const found = await seriousViolations(page);
  expect(found, `axe: serious/critical violations in ${where}`).toEqual([]);
}
