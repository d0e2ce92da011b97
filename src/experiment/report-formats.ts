/**
 * The experiment report as Markdown, one self-contained HTML file (inline SVG learning curves per
 * evaluation step, drawn by src/eval/report-html.ts's curvesSvg; no scripts, no external requests)
 * and CSV (one row per arm and evaluated task set, written by src/eval/csv.ts). Model-written text
 * (evolved strategies) is escaped in HTML and left out of tables. Pure string building; no DOM.
 */
import { toCsv } from '../eval/csv.ts';
import { BOOTSTRAP_FOOTNOTE, comparisonsMarkdown } from '../eval/report-formats.ts';
import { comparisonsHtml, curvesSvg, escapeHtml, formatInterval, formatNumber, seriesColour } from '../eval/report-html.ts';
import type { Interval } from '../ttl/metrics.ts';
import type { ExperimentReport, ExperimentRow } from './interface.ts';

const iv = (i: Interval | null, digits = 3) => (i ? formatInterval(i, digits) : '—');
const num = (x: number | null, digits = 3) => (x === null ? '—' : formatNumber(x, digits));
const SPLIT_TEXT = { 'held-out': 'held out', 'selected-on': 'selected on these games', 'not-selected': 'no selection' } as const;
const paperCell = (r: ExperimentRow) => (r.paper ? `${formatNumber(r.paper.wAuc, 2)}${r.paper.averageScore !== null ? ` (avg ${formatNumber(r.paper.averageScore, 1)})` : ''}` : '—');

function headerLines(r: ExperimentReport): string[] {
  return [
    `Status: ${r.status}${r.pendingSteps.length ? ` — not finished: ${r.pendingSteps.join(', ')}` : ''}.`,
    `K = ${r.settings.episodes} episodes, S = ${r.settings.steps} steps, ${r.settings.repeats} repeats per task; intervals 95% hierarchical bootstrap (B = 2,000, seed ${r.settings.bootstrapSeed}).`,
    `Models: ${r.models.map((m, i) => `set ${i}: actor ${m.actor}, meta-agent ${m.metaAgent}, proposer ${m.proposer}`).join('; ')}.`,
    ...(r.simulated ? [`Model: simulated (${r.simulated}); the paper's numbers are not printed beside a simulation's.`] : []),
    ...(r.paperReference ? [`Paper: ${r.paperReference.source}; ${r.paperReference.setting}.`] : []),
  ];
}

/** The report as Markdown. */
export function experimentReportToMarkdown(r: ExperimentReport): string {
  const out = [`# Experiment ${r.name}`, '', r.description, '', ...headerLines(r).map((l) => `- ${l}`), ''];
  if (r.folds.length) {
    out.push('## Folds (train / validation / test are disjoint)', '', '| fold | train | validation | test | held-out W-AUC | gap evolved − baseline | validation W-AUC | selection inflation |', '|---|---|---|---|---|---|---|---|');
    for (const f of r.foldResults) out.push(`| ${f.fold} | ${f.train.join(', ')} | ${f.val.join(', ')} | ${f.test.join(', ')} | ${iv(f.heldOutWAuc)} | ${iv(f.heldOutGap)} | ${num(f.validationWAuc)} | ${num(f.selectionInflation)} |`);
    out.push('', 'Selection inflation = the chosen candidate\'s validation W-AUC − its held-out W-AUC.', '');
  }
  if (r.evolutions.length) {
    out.push('## Evolutions', '', '| step | proposer | train | validation | metric calls | sessions | chosen | validation W-AUC |', '|---|---|---|---|---|---|---|---|');
    for (const e of r.evolutions) out.push(`| ${e.step} | ${e.proposer} | ${e.train.join(', ')} | ${e.val.join(', ')} | ${e.metricCallsUsed}/${e.budget} | ${e.sessionsPlayed} | ${e.bestCandidateId ?? '—'} | ${num(e.bestValWAuc)} |`);
    out.push('');
  }
  out.push('## Results', '', '| step | task set | split | arm | n | games | W-AUC | average score | best score | Δ W-AUC vs baseline | paper W-AUC |', '|---|---|---|---|---|---|---|---|---|---|---|');
  for (const row of r.rows) out.push(`| ${row.step} | ${row.taskSet} | ${row.split.games.join(', ')} (${SPLIT_TEXT[row.split.role]}) | ${row.arm} | ${row.sessions} | ${row.games} | ${iv(row.wAuc)} | ${iv(row.averageScore, 1)} | ${iv(row.bestScore, 1)} | ${iv(row.diffVsBaseline)} | ${paperCell(row)} |`);
  if (r.warnings?.length) out.push('', '## Warnings', '', ...r.warnings.map((w) => `- **${w.code}**: ${w.message}`));
  out.push(...comparisonsMarkdown([...(r.comparisons ?? []), ...(r.exploratoryComparisons ?? [])]));
  out.push('', '## Per game', '', '| step | task set | arm | game | n | W-AUC | average score | best score |', '|---|---|---|---|---|---|---|---|');
  for (const g of r.perGame) out.push(`| ${g.step} | ${g.taskSet} | ${g.arm} | ${g.game} | ${g.sessions} | ${iv(g.wAuc)} | ${iv(g.averageScore, 1)} | ${iv(g.bestScore, 1)} |`);
  const leaks = r.rows.filter((row) => row.leakWarning);
  if (leaks.length) out.push('', '## Leak warnings', '', ...leaks.map((row) => `- **${row.arm}** on ${row.taskSet} (${row.step}): ${row.leakWarning}`));
  out.push('', '## Learning curves (mean final score per episode, 95% CI; normalised per game: score ÷ the game\'s max score)', '');
  for (const row of r.rows) out.push(`- ${row.step} ${row.arm}: ${row.normalisedCurve?.length ? row.normalisedCurve.map((c) => iv(c, 3)).join(' → ') : `${row.curve.map((c) => iv(c, 1)).join(' → ')} (raw points: no max score known)`}`);
  out.push('', BOOTSTRAP_FOOTNOTE, '');
  return out.join('\n');
}

/** One row per arm and evaluated task set. */
export const EXPERIMENT_CSV_HEADER = [
  'step', 'model_set', 'fold', 'task_set', 'split', 'games', 'arm', 'sessions', 'wauc_mean', 'wauc_low', 'wauc_high', 'avg_score_mean', 'avg_score_low', 'avg_score_high',
  'best_score_mean', 'best_score_low', 'best_score_high', 'diff_vs_baseline', 'diff_low', 'diff_high', 'leak_warning', 'paper_wauc', 'paper_avg_score',
];

export function experimentReportToCsv(r: ExperimentReport): string {
  const rows = r.rows.map((row) => [
    row.step, row.modelSet, row.fold, row.taskSet, row.split.role, row.split.games.join(' '), row.arm, row.sessions, row.wAuc.estimate, row.wAuc.low, row.wAuc.high,
    row.averageScore.estimate, row.averageScore.low, row.averageScore.high, row.bestScore.estimate, row.bestScore.low, row.bestScore.high,
    row.diffVsBaseline?.estimate ?? null, row.diffVsBaseline?.low ?? null, row.diffVsBaseline?.high ?? null, row.leakWarning, row.paper?.wAuc ?? null, row.paper?.averageScore ?? null,
  ]);
  return toCsv({ header: EXPERIMENT_CSV_HEADER, rows });
}

const STYLE = 'body{font-family:system-ui,sans-serif;margin:2rem;color:#1e1e1e;background:#fff;max-width:76rem}table{border-collapse:collapse;margin:1rem 0;font-variant-numeric:tabular-nums}th,td{border:1px solid #cfcac0;padding:.3rem .6rem;text-align:left}th{background:#f0ede6}.leak{background:#fff3cd;color:#5c4400;padding:0 .3rem;border-radius:3px}.warn{background:#fff3cd;color:#5c4400;padding:.5rem .75rem .5rem 1.5rem;border-radius:6px}.best{color:#0b6b2f}svg{max-width:100%;height:auto}.legend{list-style:none;display:flex;flex-wrap:wrap;gap:.5rem 1rem;padding:0}.swatch{display:inline-block;width:1rem;height:.6rem;margin-right:.35rem;vertical-align:middle}';
const table = (id: string, header: string[], rows: string[][]) =>
  `<table id="${id}"><thead><tr>${header.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((cells) => `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;

/** A standalone HTML document of the report. */
export function experimentReportToHtml(r: ExperimentReport): string {
  const e = escapeHtml;
  const folds = r.foldResults.map((f) => [e(f.fold), e(f.train.join(', ')), e(f.val.join(', ')), e(f.test.join(', ')), iv(f.heldOutWAuc), iv(f.heldOutGap), num(f.validationWAuc), num(f.selectionInflation)]);
  const evolutions = r.evolutions.map((x) => [e(x.step), e(x.proposer), e(x.train.join(', ')), e(x.val.join(', ')), `${x.metricCallsUsed}/${x.budget}`, String(x.sessionsPlayed), e(x.bestCandidateId ?? '—'), num(x.bestValWAuc)]);
  const rows = r.rows.map((row) => [e(row.step), e(row.taskSet), `${e(row.split.games.join(', '))} (${SPLIT_TEXT[row.split.role]})`, `${e(row.arm)}${row.leakWarning ? ` <span class="leak" title="${e(row.leakWarning)}">leak</span>` : ''}`, String(row.sessions), String(row.games), iv(row.wAuc), iv(row.averageScore, 1), iv(row.bestScore, 1), iv(row.diffVsBaseline), paperCell(row)]);
  const steps = [...new Set(r.rows.map((row) => row.step))];
  const arms = [...new Set(r.rows.map((row) => row.arm))];
  const charts = steps.map((step) => {
    const mine = r.rows.filter((row) => row.step === step);
    const norm = mine.every((row) => (row.normalisedCurve?.length ?? 0) > 0);
    const series = mine.map((row) => ({ label: row.arm, colour: seriesColour(arms.indexOf(row.arm)), curve: norm ? row.normalisedCurve! : row.curve }));
    return norm ? curvesSvg(series, `Mean final score ÷ max score per episode, normalised per game (95% CI), ${step}`, 720, 360, 'score ÷ max (per game)') : curvesSvg(series, `Mean final score per episode (95% CI), ${step}`);
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Experiment ${e(r.name)}</title><style>${STYLE}</style></head>
<body>
<h1>Experiment ${e(r.name)}</h1>
<p>${e(r.description)}</p>
<ul>${headerLines(r).map((l) => `<li>${e(l)}</li>`).join('')}</ul>
${folds.length ? `<h2>Folds (train / validation / test are disjoint)</h2>${table('folds', ['fold', 'train', 'validation', 'test', 'held-out W-AUC', 'gap evolved − baseline', 'validation W-AUC', 'selection inflation'], folds)}<p>Selection inflation = the chosen candidate's validation W-AUC − its held-out W-AUC.</p>` : ''}
${evolutions.length ? `<h2>Evolutions</h2>${table('evolutions', ['step', 'proposer', 'train', 'validation', 'metric calls', 'sessions', 'chosen', 'validation W-AUC'], evolutions)}` : ''}
<h2>Results</h2>
${table('results', ['step', 'task set', 'split', 'arm', 'n', 'games', 'W-AUC', 'average score', 'best score', 'Δ W-AUC vs baseline', 'paper W-AUC'], rows)}
${r.warnings?.length ? `<h2>Warnings</h2><ul class="warn" id="warnings">${r.warnings.map((w) => `<li data-code="${e(w.code)}"><strong>${e(w.code)}</strong>: ${e(w.message)}</li>`).join('')}</ul>` : ''}
${comparisonsHtml([...(r.comparisons ?? []), ...(r.exploratoryComparisons ?? [])])}
<h2>Per game</h2>
${table('games', ['step', 'task set', 'arm', 'game', 'n', 'W-AUC', 'average score', 'best score'], r.perGame.map((g) => [e(g.step), e(g.taskSet), e(g.arm), e(g.game), String(g.sessions), iv(g.wAuc), iv(g.averageScore, 1), iv(g.bestScore, 1)]))}
<h2>Learning curves</h2>
${charts.join('\n')}
<p>${e(BOOTSTRAP_FOOTNOTE)}</p>
</body></html>
`;
}

export { comparisonsToCsv as experimentComparisonsToCsv } from '../eval/report-csv.ts';
