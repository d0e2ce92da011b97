/**
 * The evaluation report as one self-contained HTML file: inline styles, the results table (mean
 * ± 95% CI, sessions behind every figure, "Δ > 0 (Holm)" only for a declared contrast that
 * survives Holm's correction, leak warnings), the warnings (few games, identical repeats), the
 * comparisons with per-game Δ and the game-level test, the per-game table, and the learning curves
 * as inline SVG (mean final score per episode ÷ each game's max score, with its CI band), one chart
 * per task set. No scripts and no external requests, so
 * it opens anywhere. Numbers are formatted as in report-formats.ts (3 decimals for W-AUC, 1 for
 * scores). Pure string building; no DOM.
 */
import type { Interval } from '../ttl/metrics.ts';
import { BOOTSTRAP_FOOTNOTE, codeVersionLine, comparisonCells, comparisonPairText, completenessLine, perGameText, policyNamesOf } from './report-formats.ts';
import type { Comparison, EvaluationReport, PolicySetSummary } from './interface.ts';

/** Okabe–Ito colours (colour-blind safe), in series order. */
export const SERIES_COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'] as const;

export const seriesColour = (index: number): string => SERIES_COLOURS[index % SERIES_COLOURS.length]!;

/** `x` with `digits` decimals, or "n/a" when not finite. */
export const formatNumber = (x: number, digits = 3): string => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
/** "estimate [low, high]". */
export const formatInterval = (i: Interval, digits = 3): string => `${formatNumber(i.estimate, digits)} [${formatNumber(i.low, digits)}, ${formatNumber(i.high, digits)}]`;

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export interface CurveSeries {
  label: string;
  colour: string;
  curve: readonly Interval[];
}

/** The learning curves of one task set as an SVG (width × height in CSS px). */
export function curvesSvg(series: readonly CurveSeries[], title: string, width = 720, height = 360, yLabel = 'mean final score'): string {
  const m = { left: 56, right: 16, top: 32, bottom: 48 };
  const episodes = Math.max(1, ...series.map((s) => s.curve.length));
  const values = series.flatMap((s) => s.curve.flatMap((c) => [c.low, c.high, c.estimate])).filter(Number.isFinite);
  const yMin = Math.min(0, ...values);
  const yMax = Math.max(yMin + 1, ...values);
  const x = (t: number) => m.left + (episodes === 1 ? 0.5 : (t - 1) / (episodes - 1)) * (width - m.left - m.right);
  const y = (v: number) => m.top + (1 - (v - yMin) / (yMax - yMin)) * (height - m.top - m.bottom);
  const pt = (a: number, b: number) => `${a.toFixed(1)},${b.toFixed(1)}`;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(title)}" font-family="sans-serif" font-size="13">`,
    `<text x="${m.left}" y="20" font-weight="bold">${escapeHtml(title)}</text>`];
  for (let k = 0; k <= 4; k++) {
    const v = yMin + ((yMax - yMin) * k) / 4;
    parts.push(`<line x1="${m.left}" x2="${width - m.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#ccc"/>`,
      `<text x="${m.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${formatNumber(v, 1)}</text>`);
  }
  for (let t = 1; t <= episodes; t++) parts.push(`<text x="${x(t).toFixed(1)}" y="${height - m.bottom + 18}" text-anchor="middle">${t}</text>`);
  parts.push(`<text x="${(m.left + width - m.right) / 2}" y="${height - 8}" text-anchor="middle">episode</text>`,
    `<text x="14" y="${(m.top + height - m.bottom) / 2}" text-anchor="middle" transform="rotate(-90 14 ${(m.top + height - m.bottom) / 2})">${escapeHtml(yLabel)}</text>`);
  series.forEach((s) => {
    const ok = s.curve.map((c, i) => ({ c, t: i + 1 })).filter(({ c }) => Number.isFinite(c.estimate));
    if (ok.length === 0) return;
    const band = [...ok.map(({ c, t }) => pt(x(t), y(c.high))), ...[...ok].reverse().map(({ c, t }) => pt(x(t), y(c.low)))];
    parts.push(`<polygon points="${band.join(' ')}" fill="${s.colour}" fill-opacity="0.15" stroke="none"/>`,
      `<polyline points="${ok.map(({ c, t }) => pt(x(t), y(c.estimate))).join(' ')}" fill="none" stroke="${s.colour}" stroke-width="3"/>`,
      ...ok.map(({ c, t }) => `<circle cx="${x(t).toFixed(1)}" cy="${y(c.estimate).toFixed(1)}" r="4" fill="${s.colour}"/>`));
  });
  parts.push('</svg>');
  const legend = series.map((s) => `<li><span class="swatch" style="background:${s.colour}"></span>${escapeHtml(s.label)}</li>`).join('');
  return `<figure>${parts.join('')}<figcaption><ul class="legend">${legend}</ul></figcaption></figure>`;
}

/** Whether every policy of the report has a per-game normalised curve (then the charts draw it). */
export const normalisedCurves = (report: EvaluationReport): boolean => report.policies.length > 0 && report.policies.every((p) => (p.normalisedCurve?.length ?? 0) > 0);

/** The series of one task set, coloured by policy order (normalised per game when every policy has that curve). */
export function seriesOf(report: EvaluationReport, taskSet: string): CurveSeries[] {
  const policyIds = [...new Set(report.policies.map((p) => p.policyId))];
  const norm = normalisedCurves(report);
  return report.policies.filter((p) => p.taskSet === taskSet).map((p) => ({ label: p.policyName ?? p.policyId, colour: seriesColour(policyIds.indexOf(p.policyId)), curve: norm ? p.normalisedCurve! : p.curve }));
}

/** The comparisons as an HTML table plus each one's per-game Δ (escaped). */
export function comparisonsHtml(comparisons: readonly (Comparison & { step?: string })[], names: ReadonlyMap<string, string> = new Map()): string {
  if (comparisons.length === 0) return '';
  const steps = comparisons.some((c) => c.step !== undefined);
  const rows = comparisons.map((c) => {
    const x = comparisonCells(c);
    return row([...(steps ? [escapeHtml(c.step ?? '')] : []), escapeHtml(comparisonPairText(c, names)), escapeHtml(c.taskSet), x.games, x.delta, x.tInterval, x.signFlip, escapeHtml(x.holm), x.flag ? `<strong class="best">${x.flag}</strong>` : '—', escapeHtml(x.power)]);
  });
  const per = comparisons.map((c) => `<li>${escapeHtml(`${c.step ? `${c.step} ` : ''}${comparisonPairText(c, names)} (${c.taskSet}): ${perGameText(c)}`)}</li>`).join('');
  return `<h2>Comparisons (W-AUC, a − b, paired)</h2><table id="comparisons"><thead>${head([...(steps ? ['step'] : []), 'a − b', 'task set', 'games', 'Δ bootstrap (95% CI)', 'game-level t-interval', 'sign-flip p', 'Holm p', 'flag', 'repeats needed'])}</thead><tbody>${rows.join('')}</tbody></table><h3>Per game Δ</h3><ul>${per}</ul>`;
}

const row = (cells: string[]) => `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
const head = (cells: string[]) => `<tr>${cells.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('')}</tr>`;

function policyCell(p: PolicySetSummary): string {
  return `${escapeHtml(p.policyId)}${p.rawMetaPrompt ? ' <span class="raw" title="The meta-prompt\'s text was the whole system prompt, byte for byte (no header, no footer)">(raw)</span>' : ''}${p.beatsBaseline ? ' <strong class="best">Δ &gt; 0 (Holm)</strong>' : ''}${p.leakWarning ? ' <span class="leak" title="' + escapeHtml(p.leakWarning) + '">leak</span>' : ''}`;
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:2rem;color:#1e1e1e;background:#fff;max-width:70rem}table{border-collapse:collapse;margin:1rem 0;font-variant-numeric:tabular-nums}th,td{border:1px solid #cfcac0;padding:.3rem .6rem;text-align:left}th{background:#f0ede6}.best{color:#0b6b2f}.leak{background:#fff3cd;color:#5c4400;padding:0 .3rem;border-radius:3px}.warn{background:#fff3cd;color:#5c4400;padding:.5rem .75rem;border-radius:6px}svg{max-width:100%;height:auto}.legend{list-style:none;display:flex;flex-wrap:wrap;gap:.5rem 1rem;padding:0}.swatch{display:inline-block;width:1rem;height:.6rem;margin-right:.35rem;vertical-align:middle}`;

/** A standalone HTML document of the report; `codeVersion` (results.json's) is named under the title ("unknown" when not given). */
export function reportToHtml(report: EvaluationReport, title = 'Evaluation report', codeVersion?: string | null): string {
  const policies = report.policies.map((p) => row([
    policyCell(p), escapeHtml(p.taskSet), String(p.sessions), String(p.games), formatInterval(p.wAuc), formatInterval(p.averageScore, 1),
    formatInterval(p.bestScore, 1), p.diffVsBaseline ? formatInterval(p.diffVsBaseline) : '—',
  ]));
  const games = report.games.map((g) => row([escapeHtml(g.policyId), escapeHtml(g.taskSet), escapeHtml(g.storyId), String(g.sessions), formatInterval(g.wAuc), formatInterval(g.averageScore, 1), formatInterval(g.bestScore, 1)]));
  const warnings = [
    ...(report.warnings ?? []).map((w) => `<li data-code="${escapeHtml(w.code)}"><strong>${escapeHtml(w.code)}</strong>: ${escapeHtml(w.message)}</li>`),
    ...report.policies.filter((p) => p.leakWarning).map((p) => `<li><strong>${escapeHtml(p.policyId)}</strong> on ${escapeHtml(p.taskSet)}: ${escapeHtml(p.leakWarning!)}</li>`),
  ];
  const sets = [...new Set(report.policies.map((p) => p.taskSet))];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>
<h1>${escapeHtml(title)}</h1>
<p data-code-version="true">${escapeHtml(codeVersionLine(codeVersion))}</p>
${report.simulated ? `<p class="warn" data-simulated="true"><strong>Model: simulated (${escapeHtml(report.simulated)}).</strong></p>` : ''}
${report.model ? `<p data-model="true"><strong>${escapeHtml(`${report.model[0]!.toUpperCase()}${report.model.slice(1)}`)}.</strong></p>` : ''}
${completenessLine(report) ? `<p class="warn"><strong>${escapeHtml(completenessLine(report))}</strong></p>` : ''}
<p>${report.totalSessions} sessions, ${report.faultedEpisodes} faulted episode${report.faultedEpisodes === 1 ? '' : 's'}. Intervals: 95% percentile bootstrap, hierarchical (games, then seeds within a game, then repeats within a seed), B = ${report.bootstrap.resamples}, seed ${report.bootstrap.seed}. Δ is the paired W-AUC difference against <strong>${escapeHtml(report.baselinePolicyId)}</strong> on the same (game, seed, repeat); <strong>Δ &gt; 0 (Holm)</strong> marks a declared contrast that survives Holm's correction of its game-level sign-flip p (nothing is marked when none does).</p>
<h2>Results</h2>
<table id="results"><thead>${head(['policy', 'task set', 'sessions', 'games', 'W-AUC', 'average score', 'best score', 'Δ W-AUC vs baseline'])}</thead><tbody>${policies.join('')}</tbody></table>
${warnings.length ? `<h2>Warnings</h2><ul class="warn" id="warnings">${warnings.join('')}</ul>` : ''}
${comparisonsHtml([...(report.comparisons ?? []), ...(report.exploratoryComparisons ?? [])], policyNamesOf(report))}
<h2>Per game</h2>
<table id="games"><thead>${head(['policy', 'task set', 'game', 'sessions', 'W-AUC', 'average score', 'best score'])}</thead><tbody>${games.join('')}</tbody></table>
<h2>Learning curves</h2>
${sets.map((set) => (normalisedCurves(report)
    ? curvesSvg(seriesOf(report, set), `Mean final score ÷ max score per episode, normalised per game (95% CI), task set ${set}`, 720, 360, 'score ÷ max (per game)')
    : curvesSvg(seriesOf(report, set), `Mean final score per episode (95% CI), task set ${set}`))).join('\n')}
<p class="footnote">${escapeHtml(BOOTSTRAP_FOOTNOTE)}</p>
</body></html>
`;
}
