/**
 * The walkthrough-recall probe's report (src/eval/recall-probe.ts has the method): the table's
 * header and cells, Markdown and CSV, shared by the CLI's `probe recall`, the page's probe and the
 * experiment report's recall section. Pure; no UI, DOM or Node imports.
 */
import { describeModel, MODEL_CSV_COLUMNS, modelCsvCells } from '../llm/model-label.ts';
import { RECALL_FOOTNOTE, type Rate, type RecallGameResult, type RecallReport } from './recall-probe.ts';

/** A rate as "count/n share % [low, high]" ('—' when n = 0). */
export const recallPercent = (r: Rate): string => (r.share === null ? '—' : `${r.count}/${r.n} ${(100 * r.share).toFixed(1)} % [${(100 * r.low!).toFixed(1)}, ${(100 * r.high!).toFixed(1)}]`);
const pValue = (p: number | null): string => (p === null ? '—' : p < 0.001 ? p.toExponential(1) : p.toFixed(3));

/** The recall table's column names (per game, then the pooled row). */
export const RECALL_HEADER = ['game', 'walkthrough lines', 'probes', 'failed', 'recall exact', 'recall normalised', 'control (shuffled) normalised', 'frequency baseline', 'recall − control', 'sign test p (recall > control)'];

/** One row of the recall table, as text cells in RECALL_HEADER's order. */
export function recallCells(g: RecallGameResult): string[] {
  return [
    g.game, String(g.walkthroughLines), String(g.probes), String(g.failed), recallPercent(g.exact), recallPercent(g.normalised), recallPercent(g.shuffledNormalised),
    `${recallPercent(g.frequencyBaseline.rate)} ("${g.frequencyBaseline.command}")`, g.excess === null ? '—' : `${g.excess >= 0 ? '+' : ''}${(100 * g.excess).toFixed(1)} pts`,
    `${pValue(g.discordant.p)} (${g.discordant.recallOnly} vs ${g.discordant.controlOnly})`,
  ];
}

/** The table's rows: each game, then the pooled row when there is one. */
export const recallRows = (report: Pick<RecallReport, 'games' | 'pooled'>): RecallGameResult[] => [...report.games, ...(report.pooled ? [report.pooled] : [])];

/** The settings line: model, k, positions per game, control seed. */
export const recallSettingsText = (report: Pick<RecallReport, 'options'>, model: string): string => `Model: ${model}; k = ${report.options.k} commands shown, at most ${report.options.probes} positions per game, control seed ${report.options.seed}.`;

/** The report as Markdown: the settings, the code version, the table (per game, then pooled), what it means and cannot show. */
export function recallMarkdown(report: Pick<RecallReport, 'games' | 'pooled' | 'options'>, model: string, codeVersion: string): string {
  return [
    '# Walkthrough-recall probe', '', `- ${recallSettingsText(report, model)}`, `- Code version: ${codeVersion}.`, '',
    `| ${RECALL_HEADER.join(' | ')} |`, `|${RECALL_HEADER.map(() => '---|').join('')}`, ...recallRows(report).map((g) => `| ${recallCells(g).join(' | ')} |`), '', ...RECALL_FOOTNOTE.flatMap((l) => [l, '']),
  ].join('\n');
}

/** recall.csv's columns; shares in [0, 1]. */
export const RECALL_CSV_HEADER = ['game', 'walkthrough_lines', 'probes', 'failed', 'exact', 'normalised', 'normalised_low', 'normalised_high', 'shuffled_exact', 'shuffled_normalised', 'shuffled_low', 'shuffled_high', 'frequency_command', 'frequency_matches', 'excess', 'recall_only', 'control_only', 'sign_p'];

/** The cells of one recall.csv row (numbers, strings or null = empty). */
export function recallCsvCells(g: RecallGameResult): (string | number | null)[] {
  return [
    g.game, g.walkthroughLines, g.probes, g.failed, g.exact.count, g.normalised.count, g.normalised.low, g.normalised.high, g.shuffledExact.count, g.shuffledNormalised.count,
    g.shuffledNormalised.low, g.shuffledNormalised.high, g.frequencyBaseline.command, g.frequencyBaseline.rate.count, g.excess, g.discordant.recallOnly, g.discordant.controlOnly, g.discordant.p,
  ];
}

const csvCell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? `"${v.replace(/"/g, '""')}"` : String(v));

/** The report as CSV (recall.csv): one row per game and the pooled row; the last two columns,
 * model and model_caveat, name the actor `model` asked (its id; llm/model-label.ts). */
export function recallCsv(report: Pick<RecallReport, 'games' | 'pooled'>, model: string): string {
  const who = modelCsvCells(describeModel({ actor: model }));
  return [[...RECALL_CSV_HEADER, ...MODEL_CSV_COLUMNS].join(','), ...recallRows(report).map((g) => [...recallCsvCells(g), ...who].map(csvCell).join(','))].join('\n') + '\n';
}
