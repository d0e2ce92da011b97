/** The standalone HTML report: the tables with the Markdown's numbers, inline SVG curves, escaping,
 * and nothing that loads from elsewhere. */
import { describe, expect, it } from 'vitest';
import type { Interval } from '../ttl/metrics.ts';
import type { EvaluationReport } from './interface.ts';
import { curvesSvg, formatInterval, reportToHtml } from './report-html.ts';
import { reportToMarkdown } from './report-formats.ts';

const iv = (estimate: number, low: number, high: number): Interval => ({ estimate, low, high, resamples: 2000, n: 2 });

const report: EvaluationReport = {
  id: 'e1', status: 'complete', stopReason: null, stopMessage: null, plannedSessions: 4, faultedEpisodes: 0, baselinePolicyId: 'naive', bootstrap: { resamples: 2000, seed: 0, level: 0.95 }, totalSessions: 4,
  policies: [
    { policyId: 'naive', taskSet: 'ID', sessions: 2, games: 2, wAuc: iv(0.1, 0.05, 0.15), averageScore: iv(3, 1, 5), bestScore: iv(5, 2, 8), diffVsBaseline: null, beatsBaseline: false, leakWarning: null, curve: [iv(1, 0, 2), iv(3, 2, 4)] },
    { policyId: '<evil>', taskSet: 'ID', sessions: 2, games: 2, wAuc: iv(0.3, 0.2, 0.4), averageScore: iv(6, 4, 8), bestScore: iv(9, 7, 10), diffVsBaseline: iv(0.2, 0.1, 0.3), beatsBaseline: true, leakWarning: 'selected on detective', curve: [iv(2, 1, 3), iv(Number.NaN, Number.NaN, Number.NaN)] },
  ],
  games: [{ policyId: 'naive', taskSet: 'ID', storyId: 'detective', sessions: 1, wAuc: iv(0.1, 0.1, 0.1), averageScore: iv(3, 3, 3), bestScore: iv(5, 5, 5) }],
};

describe('HTML report', () => {
  const html = reportToHtml(report, 'My report');

  it('holds the results table with the same figures as the Markdown report', () => {
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<table id="results">');
    expect(html).toContain(`<td>${formatInterval(report.policies[0]!.wAuc)}</td>`);
    expect(reportToMarkdown(report)).toContain(formatInterval(report.policies[0]!.wAuc));
    expect(html).toContain('<strong class="best">Δ &gt; 0 (Holm)</strong>');
    expect(html).toContain('<span class="leak" title="selected on detective">leak</span>');
    expect(html).toContain('<td>detective</td>');
  });

  it('names the code version under the title in both formats, and says unknown without one', () => {
    expect(reportToHtml(report, 'T', '0.1.0+abc1234')).toContain('<p data-code-version="true">Code version: 0.1.0+abc1234.</p>');
    expect(reportToMarkdown(report, 'T', '0.1.0+abc1234').split('\n').slice(0, 3)).toEqual(['# T', '', 'Code version: 0.1.0+abc1234.']);
    expect(reportToMarkdown(report)).toContain('Code version: unknown (run before it was recorded).');
    expect(html).toContain('Code version: unknown (run before it was recorded).');
  });

  it('escapes text and loads nothing from elsewhere', () => {
    expect(html).not.toContain('<evil>');
    expect(html).toContain('&lt;evil&gt;');
    expect(html).not.toMatch(/<script|<link|<img|src=|href=|url\(/i);
  });

  it('draws one line per policy, skipping missing points', () => {
    const svg = curvesSvg([{ label: 'a', colour: '#000000', curve: report.policies[1]!.curve }], 'T');
    expect(svg.match(/<polyline/g)).toHaveLength(1);
    expect(svg.match(/<circle/g)).toHaveLength(1);
    expect(html.match(/<svg /g)).toHaveLength(1);
  });
});
