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
import { overlapPercent as pct, VOCABULARY_FOOTNOTE, vocabularyCells, vocabularyHeader, vocabularyMarkdown } from '../eval/vocabulary-overlap.ts';
import type { ExperimentReport, ExperimentRow, FoldResult, FoldsPooled, ReplicatedArm, ReplicateRow } from './interface.ts';
import { RECALL_FOOTNOTE } from '../eval/recall-probe.ts';
import { RECALL_CSV_HEADER, RECALL_HEADER, recallCells, recallCsvCells, recallRows, recallSettingsText } from '../eval/recall-report.ts';

type ReportRecall = NonNullable<ExperimentReport['recall']>[number];
/** One recall step's heading line: its step, model, settings and where its walkthroughs came from. */
export const recallStepText = (x: ReportRecall): string => `${x.step}: ${recallSettingsText(x, x.model)} Walkthroughs: ${x.walkthroughSource}.`;

/** What the replicated rows mean and cannot show. */
export const REPLICATES_FOOTNOTE = 'A replicated arm runs its evolution n times with rng seeds base, base + 1, …, and evaluates each chosen prompt as its own policy (<arm>#r<r>). Its W-AUC and Δ intervals are a percentile bootstrap over replicates → games → seeds → repeats (replicates and games each drawn with replacement; Owen 2007, Davison & Hinkley 1997 §3.8), so the optimiser\'s run-to-run variance is inside them; with one replicate they are the unreplicated intervals. With few replicates the replicate level is itself poorly estimated (n = 2 or 3 draws only a handful of distinct replicate sets): the interval then understates the optimiser\'s variance. Dissimilarity: word edit distance = word-level Levenshtein distance ÷ the longer prompt\'s words; Jaccard distance = 1 − shared ÷ all distinct words (lower-cased, split on whitespace); 0 = the same words, 1 = nothing shared. It measures wording, not what the prompts make the actor do.';

export const REPLICATE_HEADER = ['replicate', 'policy', 'rng seed', 'chosen', 'sessions', 'W-AUC', 'Δ vs baseline'];

/** The caption of one replicate's chosen prompt: the seed kept unchanged is said so (nobody wrote
 * it in this run: no selection happened); any other is the evolution's output (untrusted text). */
export const chosenPromptCaption = (x: Pick<ReplicateRow, 'replicate' | 'chosenIsSeed'>): string =>
  `Chosen prompt of r${x.replicate} (${x.chosenIsSeed ? 'the seed, unchanged: no selection happened' : 'written by the evolution'})`;

/** One replicate's chosen prompt as printed: its text, or a note when it has no strategy section. */
export const chosenPromptText = (x: Pick<ReplicateRow, 'prompt'>): string => x.prompt || '(empty: no strategy section)';
/** Per replicated arm: its heading, the aggregated numbers, one row per replicate, the pairwise dissimilarity lines. */
export function replicatedParts(a: ReplicatedArm): { title: string; summary: string; rows: string[][]; pairs: string[] } {
  const spread = a.wAucSpread ? `W-AUC spread over replicates: ${num(a.wAucSpread.min)}–${num(a.wAucSpread.max)} (range ${num(a.wAucSpread.range)}, SD ${num(a.wAucSpread.sd)})` : 'W-AUC spread: —';
  const d = a.dissimilarity;
  return {
    title: `${a.arm} on ${a.taskSet}: ${a.replicates} replicates (${a.step})`,
    summary: `W-AUC ${iv(a.wAuc)}; Δ vs ${a.baseline} ${iv(a.delta)} (across replicates); ${spread}; mean pairwise word edit distance ${num(d.meanEditDistance)}, Jaccard distance ${num(d.meanJaccardDistance)}`,
    rows: a.perReplicate.map((x) => [String(x.replicate), x.policyId, x.rngSeed === null ? '—' : String(x.rngSeed), `${x.chosenCandidate ?? '—'}${x.chosenIsSeed ? ' (seed)' : ''}`, String(x.sessions), num(x.wAuc), num(x.delta)]),
    pairs: d.pairs.map((p) => `r${p.a}–r${p.b}: word edit distance ${num(p.editDistance)}, Jaccard distance ${num(p.jaccardDistance)}`),
  };
}

/** A Markdown code fence around untrusted text: longer than any backtick run inside it. */
function fenced(text: string): string[] {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  return [fence, text, fence];
}
import { paperReferenceText, quartiles } from './report.ts';
import type { SelectionInterval } from './selection.ts';
import { describeModel, MODEL_CSV_COLUMNS, modelCsvCells, type ModelIdentity } from '../llm/model-label.ts';
import { stepComparisonsToCsv } from '../eval/report-csv.ts';
import { registrationLines } from './registration.ts';

const iv = (i: Interval | null, digits = 3) => (i ? formatInterval(i, digits) : '—');
const num = (x: number | null, digits = 3) => (x === null ? '—' : formatNumber(x, digits));
const SPLIT_TEXT = { 'held-out': 'held out', 'selected-on': 'selected on these games', 'not-selected': 'no selection' } as const;
const paperCell = (r: ExperimentRow) => (r.paper ? `${formatNumber(r.paper.wAuc, 2)}${r.paper.averageScore !== null ? ` (avg ${formatNumber(r.paper.averageScore, 1)})` : ''}` : '—');

/** A selection interval as text: `mean [low, high] (n N)`, or `mean (n N: no interval)` when it has none. */
export function formatSelection(x: SelectionInterval | null | undefined, digits = 3): string {
  if (!x) return '—';
  const f = (v: number) => formatNumber(v, digits);
  return x.low === null || x.high === null ? `${f(x.mean)} (n ${x.n}: no interval)` : `${f(x.mean)} [${f(x.low)}, ${f(x.high)}] (n ${x.n})`;
}

const acrossText = (x: { mean: number; low: number | null; high: number | null } | null, folds: number) =>
  !x ? '—' : x.low === null || x.high === null ? `${formatNumber(x.mean, 3)} (${folds} fold${folds === 1 ? '' : 's'}: no interval)` : `${formatNumber(x.mean, 3)} [${formatNumber(x.low, 3)}, ${formatNumber(x.high, 3)}]`;

/** The chosen candidate of a fold, with the flag when it is the seed. */
export const chosenText = (f: FoldResult): string => `${f.chosenCandidate ?? '—'}${f.chosenIsSeed ? ' (seed: no selection happened)' : ''}`;

/** The folds table's header and one row per fold, then one pooled row per model set (plain text
 * cells; the selection test first, so it is in sight on a narrow page). */
export const FOLD_HEADER = ['fold', 'chosen', 'selection optimism', 'transfer gap', 'recorded validation W-AUC', 'fresh validation W-AUC', 'gap evolved − baseline (held out)', 'held-out W-AUC', 'train / validation / test'];
export function foldCells(r: ExperimentReport): string[][] {
  const rows = r.foldResults.map((f) => [
    f.fold, chosenText(f), formatSelection(f.selectionOptimism), formatSelection(f.transferGap), num(f.validationWAuc), iv(f.freshValidationWAuc), iv(f.heldOutGap), iv(f.heldOutWAuc),
    `${f.train.join(', ')} / ${f.val.join(', ')} / ${f.test.join(', ')}`,
  ]);
  const pooled = (r.foldsPooled ?? []).map((p: FoldsPooled) => [
    `pooled${(r.foldsPooled?.length ?? 0) > 1 ? ` (model set ${p.modelSet})` : ''}`, `${p.seedFolds} of ${p.folds} fold${p.folds === 1 ? '' : 's'} chose the seed`,
    `${formatSelection(p.selectionOptimism)}; across folds ${acrossText(p.acrossFolds.selectionOptimism, p.folds)}`, `${formatSelection(p.transferGap)}; across folds ${acrossText(p.acrossFolds.transferGap, p.folds)}`, '', '', '', '', '',
  ]);
  return [...rows, ...pooled];
}

/** What the selection test's numbers mean, their units and what they cannot show (every format says it). */
export const SELECTION_FOOTNOTE = [
  'Selection optimism = the chosen candidate\'s recorded validation W-AUC (the number the evolution chose it by) − its W-AUC in fresh sessions on the same validation tasks; > 0 = selection flattered it (the winner\'s curse). Interval: 95% Welch t-interval over the fresh sessions (unit: one fresh session of the chosen prompt; n = validation tasks × repeats); the recorded number is held fixed, so its own noise (the evolution\'s validation repeats) is not in the interval.',
  'Transfer gap = (chosen − naive) on the validation games, fresh − (chosen − naive) on the held-out game: a difference of paired differences, so each game\'s difficulty cancels; > 0 = the advantage seen where the prompt was selected does not carry to the held-out game. Interval: 95% Welch t-interval over the paired differences (unit: one (task, repeat) pair of the two arms; n = pairs on the validation games + pairs on the held-out game).',
  'Both intervals hold the fold\'s games fixed: they cannot show how the numbers vary over other games, and with one validation and one held-out game a transfer gap also carries whatever is particular to those two games. n 1 = no interval (one session cannot show spread); a zero-width interval = identical sessions (e.g. deterministic replies).',
  'Pooled: each fold weighs 1/F; the first interval is over every fold\'s sessions (folds fixed), "across folds" is a t-interval over the F fold estimates with F − 1 df (3 folds: 2 df). A fold whose chosen prompt is the seed had no selection: its optimism should be ≈ 0 and its transfer gap is the seed\'s own.',
];

/** Every comparison; with a registration, its step cell says how it stands ("eval-OOD · primary"). */
function labelledComparisons(r: ExperimentReport): NonNullable<ExperimentReport['comparisons']> {
  return [...(r.comparisons ?? []), ...(r.exploratoryComparisons ?? [])].map((c) => (c.registered ? { ...c, step: `${c.step} · ${c.registered}` } : c));
}

/** A model set as people read it: "set 0", or "set 1 (gpt-5 actor)" when the spec labels it. */
export const modelSetName = (m: { label?: string }, i: number): string => `set ${i}${m.label ? ` (${m.label})` : ''}`;

function headerLines(r: ExperimentReport): string[] {
  return [
    `Status: ${r.status}${r.pendingSteps.length ? ` — not finished: ${r.pendingSteps.join(', ')}` : ''}.`,
    `K = ${r.settings.episodes} episodes, S = ${r.settings.steps} steps, ${r.settings.repeats} repeats per task; intervals 95% hierarchical bootstrap (B = 2,000, seed ${r.settings.bootstrapSeed}).`,
    `Models: ${r.models.map((m, i) => `${modelSetName(m, i)}: actor ${m.actor}, meta-agent ${m.metaAgent}, proposer ${m.proposer}`).join('; ')}.`,
    ...(r.simulated ? [`Model: simulated (${r.simulated}); the paper's numbers are not printed beside a simulation's.`] : []),
    ...(r.paperReference ? [paperReferenceText(r.paperReference)] : []),
    `Code version: ${r.codeVersion ?? 'unknown (run before it was recorded)'}.`,
    ...registrationLines(r.registration),
  ];
}

/** The report as Markdown. */
export function experimentReportToMarkdown(r: ExperimentReport): string {
  const out = [`# Experiment ${r.name}`, '', r.description, '', ...headerLines(r).map((l) => `- ${l}`), ''];
  if (r.folds.length) {
    out.push('## Folds (train / validation / test are disjoint): the selection test', '', `| ${FOLD_HEADER.join(' | ')} |`, `|${FOLD_HEADER.map(() => '---').join('|')}|`);
    for (const cells of foldCells(r)) out.push(`| ${cells.join(' | ')} |`);
    out.push('', ...(r.foldRegime ? [`Regime: ${r.foldRegime}`, ''] : []), ...SELECTION_FOOTNOTE.flatMap((l) => [l, '']));
  }
  if (r.evolutions.length) {
    out.push('## Evolutions', '', `| ${EVOLUTION_HEADER.join(' | ')} |`, `|${EVOLUTION_HEADER.map(() => '---').join('|')}|`);
    for (const e of r.evolutions) out.push(`| ${evolutionCells(e).join(' | ')} |`);
    out.push('', EVOLUTION_FOOTNOTE, '', ...(r.armMatching ?? []).flatMap((m) => [`**Arms ${m.matched ? 'matched' : 'not matched'}** — ${m.text}`, '']));
  }
  if (r.replicated?.length) {
    out.push('## Replicated evolutions', '');
    for (const a of r.replicated) {
      const p = replicatedParts(a);
      out.push(`### ${p.title}`, '', p.summary, '', `| ${REPLICATE_HEADER.join(' | ')} |`, `|${REPLICATE_HEADER.map(() => '---').join('|')}|`, ...p.rows.map((c) => `| ${c.join(' | ')} |`), '', ...p.pairs.map((l) => `- ${l}`), '');
      for (const x of a.perReplicate) out.push(`${chosenPromptCaption(x)}:`, '', ...fenced(chosenPromptText(x)), '');
    }
    out.push(REPLICATES_FOOTNOTE, '');
  }
  const vocab = r.vocabulary !== undefined;
  out.push('## Results', '', `| step | task set | split | arm | n | games | W-AUC | average score | best score | Δ W-AUC vs baseline | paper W-AUC |${vocab ? ' dictionary overlap with training |' : ''}`, `|---|---|---|---|---|---|---|---|---|---|---|${vocab ? '---|' : ''}`);
  for (const row of r.rows) out.push(`| ${row.step} | ${row.taskSet} | ${row.split.games.join(', ')} (${SPLIT_TEXT[row.split.role]}) | ${row.arm}${row.rawMetaPrompt ? ' (raw)' : ''} | ${row.sessions} | ${row.games} | ${iv(row.wAuc)} | ${iv(row.averageScore, 1)} | ${iv(row.bestScore, 1)} | ${iv(row.diffVsBaseline)} | ${paperCell(row)} |${vocab ? ` ${pct(row.dictionaryOverlap)} |` : ''}`);
  out.push(...vocabularyMarkdown('step', (r.vocabulary ?? []).map((v) => ({ ...v, label: v.step }))));
  if (r.recall?.length) {
    const cell = (c: string) => c.replace(/\|/g, '\\|');
    out.push('', '## Walkthrough-recall probe', '');
    for (const x of r.recall) out.push(`- ${recallStepText(x)}`, '', `| ${RECALL_HEADER.join(' | ')} |`, `|${RECALL_HEADER.map(() => '---').join('|')}|`, ...recallRows(x).map((g) => `| ${recallCells(g).map(cell).join(' | ')} |`), '');
    out.push(...RECALL_FOOTNOTE.flatMap((l) => [l, '']));
  }
  if (r.warnings?.length) out.push('', '## Warnings', '', ...r.warnings.map((w) => `- **${w.code}**: ${w.message}`));
  out.push(...comparisonsMarkdown(labelledComparisons(r)));
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
  'best_score_mean', 'best_score_low', 'best_score_high', 'diff_vs_baseline', 'diff_low', 'diff_high', 'leak_warning', 'paper_wauc', 'paper_avg_score', 'raw_meta_prompt', 'dictionary_overlap',
  'identical_repeats',
  ...MODEL_CSV_COLUMNS,
];

/** Who played model set `modelSet` of a report (its role models; an unknown model when not recorded). */
export function modelOfSet(r: Pick<ExperimentReport, 'models'>, modelSet: number): ModelIdentity {
  return describeModel(r.models?.[modelSet] ?? {});
}

/** The experiment's report.csv: one row per arm and evaluated task set (`EXPERIMENT_CSV_HEADER`).
 * identical_repeats is true on the rows of an arm that its step's `identical_repeats` warning names
 * (every repeat gave the same scores: zero-width within-task intervals); false otherwise, also for a
 * report saved before warnings named their step. The row ends with model and model_caveat — who
 * played the row's model set. */
export function experimentReportToCsv(r: ExperimentReport): string {
  const identical = new Set((r.warnings ?? []).filter((w) => w.code === 'identical_repeats' && w.step !== undefined && w.policyId !== undefined).map((w) => `${w.step}|${w.policyId}`));
  const rows = r.rows.map((row) => [
    row.step, row.modelSet, row.fold, row.taskSet, row.split.role, row.split.games.join(' '), row.arm, row.sessions, row.wAuc.estimate, row.wAuc.low, row.wAuc.high,
    row.averageScore.estimate, row.averageScore.low, row.averageScore.high, row.bestScore.estimate, row.bestScore.low, row.bestScore.high,
    row.diffVsBaseline?.estimate ?? null, row.diffVsBaseline?.low ?? null, row.diffVsBaseline?.high ?? null, row.leakWarning, row.paper?.wAuc ?? null, row.paper?.averageScore ?? null, row.rawMetaPrompt === true, row.dictionaryOverlap ?? null,
    identical.has(`${row.step}|${row.arm}`),
    ...modelCsvCells(modelOfSet(r, row.modelSet)),
  ]);
  return toCsv({ header: EXPERIMENT_CSV_HEADER, rows });
}

const STYLE = 'body{font-family:system-ui,sans-serif;margin:2rem;color:#1e1e1e;background:#fff;max-width:76rem}table{border-collapse:collapse;margin:1rem 0;font-variant-numeric:tabular-nums}th,td{border:1px solid #cfcac0;padding:.3rem .6rem;text-align:left}th{background:#f0ede6}.leak{background:#fff3cd;color:#5c4400;padding:0 .3rem;border-radius:3px}.warn{background:#fff3cd;color:#5c4400;padding:.5rem .75rem .5rem 1.5rem;border-radius:6px}.best{color:#0b6b2f}svg{max-width:100%;height:auto}.legend{list-style:none;display:flex;flex-wrap:wrap;gap:.5rem 1rem;padding:0}.swatch{display:inline-block;width:1rem;height:.6rem;margin-right:.35rem;vertical-align:middle}';
const table = (id: string, header: string[], rows: string[][]) =>
  `<table id="${id}"><thead><tr>${header.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((cells) => `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;

/** A standalone HTML document of the report. */
export function experimentReportToHtml(r: ExperimentReport): string {
  const e = escapeHtml;
  const folds = foldCells(r).map((cells) => cells.map(e));
  const evolutions = r.evolutions.map((x) => evolutionCells(x).map(e));
  const rows = r.rows.map((row) => [e(row.step), e(row.taskSet), `${e(row.split.games.join(', '))} (${SPLIT_TEXT[row.split.role]})`, `${e(row.arm)}${row.rawMetaPrompt ? ' (raw)' : ''}${row.leakWarning ? ` <span class="leak" title="${e(row.leakWarning)}">leak</span>` : ''}`, String(row.sessions), String(row.games), iv(row.wAuc), iv(row.averageScore, 1), iv(row.bestScore, 1), iv(row.diffVsBaseline), paperCell(row), ...(r.vocabulary !== undefined ? [pct(row.dictionaryOverlap)] : [])]);
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
${folds.length ? `<h2>Folds (train / validation / test are disjoint): the selection test</h2>${table('folds', FOLD_HEADER, folds)}${r.foldRegime ? `<p id="fold-regime">Regime: ${e(r.foldRegime)}</p>` : ''}${SELECTION_FOOTNOTE.map((l) => `<p>${e(l)}</p>`).join('')}` : ''}
${evolutions.length ? `<h2>Evolutions</h2>${table('evolutions', EVOLUTION_HEADER, evolutions)}<p>${e(EVOLUTION_FOOTNOTE)}</p>${(r.armMatching ?? []).map((m) => `<p class="${m.matched ? 'best' : 'warn'}" data-testid="arm-matching" data-matched="${m.matched}">${e(m.text)}</p>`).join('')}` : ''}
${r.replicated?.length ? `<section id="replicates"><h2>Replicated evolutions</h2>${r.replicated.map((a) => {
    const p = replicatedParts(a);
    return `<h3>${e(p.title)}</h3><p>${e(p.summary)}</p>${table(`replicates-${e(a.step)}-${e(a.arm)}`, REPLICATE_HEADER, p.rows.map((c) => c.map(e)))}<ul>${p.pairs.map((l) => `<li>${e(l)}</li>`).join('')}</ul>${a.perReplicate.map((x) => `<details><summary>${e(chosenPromptCaption(x))}</summary><pre>${e(chosenPromptText(x))}</pre></details>`).join('')}`;
  }).join('')}<p>${e(REPLICATES_FOOTNOTE)}</p></section>` : ''}
<h2>Results</h2>
${table('results', ['step', 'task set', 'split', 'arm', 'n', 'games', 'W-AUC', 'average score', 'best score', 'Δ W-AUC vs baseline', 'paper W-AUC', ...(r.vocabulary !== undefined ? ['dictionary overlap with training'] : [])], rows)}
${r.vocabulary?.length ? `<h2>Vocabulary overlap with the training games</h2>${table('vocabulary', vocabularyHeader('step'), vocabularyCells(r.vocabulary.map((v) => ({ ...v, label: v.step }))).map((cells) => cells.map((c) => e(c))))}<p>${e(VOCABULARY_FOOTNOTE)}</p>` : ''}
${r.recall?.length ? `<section id="recall"><h2>Walkthrough-recall probe</h2>${r.recall.map((x) => `<p>${e(recallStepText(x))}</p>${table(`recall-${e(x.step)}`, RECALL_HEADER, recallRows(x).map((g) => recallCells(g).map(e)))}`).join('')}${RECALL_FOOTNOTE.map((l) => `<p>${e(l)}</p>`).join('')}</section>` : ''}
${r.warnings?.length ? `<h2>Warnings</h2><ul class="warn" id="warnings">${r.warnings.map((w) => `<li data-code="${e(w.code)}"><strong>${e(w.code)}</strong>: ${e(w.message)}</li>`).join('')}</ul>` : ''}
${comparisonsHtml(labelledComparisons(r))}
<h2>Per game</h2>
${table('games', ['step', 'task set', 'arm', 'game', 'n', 'W-AUC', 'average score', 'best score'], r.perGame.map((g) => [e(g.step), e(g.taskSet), e(g.arm), e(g.game), String(g.sessions), iv(g.wAuc), iv(g.averageScore, 1), iv(g.bestScore, 1)]))}
<h2>Learning curves</h2>
${charts.join('\n')}
<p>${e(BOOTSTRAP_FOOTNOTE)}</p>
</body></html>
`;
}

/** The evolutions table's columns: what each arm did side by side (src/evolve/accounting.ts). */
export const EVOLUTION_HEADER = ['step', 'proposer', 'train', 'validation', 'metric calls', 'sessions', 'proposals', 'accepted', 'validated', 'proposer tokens', 'proposer USD', 'edit size (words): median [q1–q3], n', 'chosen', 'validation W-AUC'];

/** An edit-size distribution in words: "median [q1–q3], n" ('—' when none). */
export function editSizesText(sizes: readonly number[] | undefined): string {
  const q = quartiles(sizes ?? []);
  return q ? `${formatNumber(q.median, 1)} [${formatNumber(q.q1, 1)}–${formatNumber(q.q3, 1)}], ${sizes!.length}` : '—';
}

/** One evolution's cells, in EVOLUTION_HEADER's order (plain text; '—' for counts not recorded). */
export function evolutionCells(x: ExperimentReport['evolutions'][number]): string[] {
  const count = (n: number | undefined) => (n === undefined ? '—' : String(n));
  return [
    x.step, `${x.proposer}${x.proposerInput === 'no-trace' ? ' (no trace)' : ''}${x.editSizeTarget ? ` (edit sizes ${x.editSizeTarget.source})` : ''}`, x.train.join(', '), x.val.join(', '), `${x.metricCallsUsed}/${x.budget}`, String(x.sessionsPlayed), count(x.proposals), count(x.accepted), count(x.validated),
    count(x.proposerTokens), x.proposerUsd === undefined || x.proposerUsd === null ? '—' : `$${x.proposerUsd.toFixed(4)}`, editSizesText(x.editSizes), x.bestCandidateId ?? '—', num(x.bestValWAuc),
  ];
}

/** What the evolutions table's counts mean (every format prints it under the table). */
export const EVOLUTION_FOOTNOTE = 'Proposals = proposer calls (LLM arm) or random draws (random arm), failed ones included; accepted = children that passed the minibatch acceptance rule; validated = candidates other than the seed scored on every validation task; proposer USD "—" = not priced. Edit size = word-level Levenshtein distance from the parent\'s strategy section to the child\'s, over the proposals that produced a text.';

/** The evolutions as CSV, one row per evolution step; `edit_sizes` lists each proposal's edit size
 * (space-separated); `replicate` (1-based) and `rng_seed` say which run of a replicated evolution a
 * row is (empty for an outcome recorded before replicates existed). */
export const EVOLUTIONS_CSV_HEADER = ['step', 'model_set', 'fold', 'proposer', 'optimizer', 'proposer_input', 'edit_sizes_from', 'metric_calls', 'budget', 'sessions', 'proposals', 'accepted', 'validated', 'proposer_tokens', 'proposer_usd', 'edit_size_median', 'edit_size_q1', 'edit_size_q3', 'edit_sizes', 'chosen', 'validation_wauc', 'replicate', 'rng_seed', ...MODEL_CSV_COLUMNS];
export function experimentEvolutionsToCsv(r: ExperimentReport): string {
  const rows = r.evolutions.map((x) => {
    const q = quartiles(x.editSizes ?? []);
    return [x.step, x.modelSet, x.fold, x.proposer, x.optimizer, x.proposer === 'llm' ? x.proposerInput ?? 'full' : null, x.editSizeTarget?.source ?? null, x.metricCallsUsed, x.budget, x.sessionsPlayed, x.proposals ?? null, x.accepted ?? null, x.validated ?? null, x.proposerTokens ?? null, x.proposerUsd ?? null,
      q?.median ?? null, q?.q1 ?? null, q?.q3 ?? null, (x.editSizes ?? []).join(' '), x.bestCandidateId, x.bestValWAuc, x.replicate ?? null, x.rngSeed ?? null, ...modelCsvCells(modelOfSet(r, x.modelSet))];
  });
  return toCsv({ header: EVOLUTIONS_CSV_HEADER, rows });
}

/** The selection test as CSV: one row per fold, then one pooled row per model set (`fold` =
 * `pooled`); intervals as mean/low/high/n columns (empty = none). */
export const FOLDS_CSV_HEADER = [
  'model_set', 'fold', 'train', 'validation', 'test', 'chosen', 'chosen_is_seed', 'held_out_gap', 'held_out_gap_low', 'held_out_gap_high', 'recorded_validation_wauc', 'fresh_validation_wauc',
  'selection_optimism', 'selection_optimism_low', 'selection_optimism_high', 'selection_optimism_n', 'transfer_gap', 'transfer_gap_low', 'transfer_gap_high', 'transfer_gap_n',
  'across_folds_optimism_low', 'across_folds_optimism_high', 'across_folds_gap_low', 'across_folds_gap_high', ...MODEL_CSV_COLUMNS,
];
export function experimentFoldsToCsv(r: ExperimentReport): string {
  const sel = (x: SelectionInterval | null) => [x?.mean ?? null, x?.low ?? null, x?.high ?? null, x?.n ?? null];
  const rows = r.foldResults.map((f) => [
    f.modelSet, f.fold, f.train.join(' '), f.val.join(' '), f.test.join(' '), f.chosenCandidate, f.chosenIsSeed, f.heldOutGap?.estimate ?? null, f.heldOutGap?.low ?? null, f.heldOutGap?.high ?? null,
    f.validationWAuc, f.freshValidationWAuc?.estimate ?? null, ...sel(f.selectionOptimism), ...sel(f.transferGap), null, null, null, null,
    ...modelCsvCells(modelOfSet(r, f.modelSet)),
  ]);
  const pooled = (r.foldsPooled ?? []).map((p) => [
    p.modelSet, 'pooled', '', '', '', `${p.seedFolds}/${p.folds} seed`, p.seedFolds === p.folds, null, null, null, null, null, ...sel(p.selectionOptimism), ...sel(p.transferGap),
    p.acrossFolds.selectionOptimism?.low ?? null, p.acrossFolds.selectionOptimism?.high ?? null, p.acrossFolds.transferGap?.low ?? null, p.acrossFolds.transferGap?.high ?? null,
    ...modelCsvCells(modelOfSet(r, p.modelSet)),
  ]);
  return toCsv({ header: FOLDS_CSV_HEADER, rows: [...rows, ...pooled] });
}

/** The experiment's comparisons CSV (stepComparisonsToCsv), each row ending with who played its
 * evaluation step's model set. */
export function experimentComparisonsToCsv(r: Pick<ExperimentReport, 'comparisons' | 'exploratoryComparisons' | 'rows' | 'models'>): string {
  const setOf = new Map(r.rows.map((row) => [row.step, row.modelSet]));
  return stepComparisonsToCsv(r, (step) => modelOfSet(r, setOf.get(step) ?? 0));
}
/** The recall probe as CSV (recall.csv beside report.csv): one row per game and pooled row of each
 * recall step, the columns of `metattl probe recall`'s recall.csv (model and model_caveat last) after
 * step, model_set, model. */
export const EXPERIMENT_RECALL_CSV_HEADER = ['step', 'model_set', 'model', ...RECALL_CSV_HEADER, ...MODEL_CSV_COLUMNS];
export function experimentRecallToCsv(r: ExperimentReport): string {
  const rows = (r.recall ?? []).flatMap((x) => recallRows(x).map((g) => [x.step, x.modelSet, x.model, ...recallCsvCells(g), ...modelCsvCells(describeModel({ actor: x.model }))]));
  return toCsv({ header: EXPERIMENT_RECALL_CSV_HEADER, rows });
}

