/**
 * `metattl probe recall --tasks GAME,… [--k N] [--probes N] [--seed N] [--walkthroughs FILE]
 * [--out DIR] [--json]`: the walkthrough-recall probe (src/eval/recall-probe.ts has the method and
 * what it can show) with the actor model. Walkthroughs from Jericho's games.json, matched by the
 * game's Jericho name (ID, OOD and VOCAB-OOD expand to their games); titles from the story catalog
 * when it knows the game. `--json`: `{ format, codeVersion, model, options, games: [...], pooled,
 * costUsd, totalTokens }` (`--out`'s recall.json adds every question, reply and the provider's
 * model). Exit 0 done, 1 a systemic provider fault, 2 usage. Node only.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { codeVersion } from '../common/code-version.ts';
import { scrubText } from '../common/secrets.ts';
import { stringifyWithoutSecrets } from '../agents/trajectory-io.ts';
import { RECALL_FOOTNOTE, runRecallProbe, type Rate, type RecallGame, type RecallGameResult, type RecallReport } from '../eval/recall-probe.ts';
import { BUILTIN_EXPERIMENTS } from '../experiment/builtins.ts';
import { UsageMeter } from '../llm/usage-meter.ts';
import { describeModel, MODEL_CSV_COLUMNS, modelCsvCells } from '../llm/model-label.ts';
import { PROBE_RECALL } from './commands.ts';
import { costText, knownCostUsd, llmSettingsFromFlags } from './llm-options.ts';
import { chatModelsFromFlags } from './models.ts';
import { intOption } from './numbers.ts';
import { parseCommand } from './option-defs.ts';
import { prepareOutputDir } from './output-paths.ts';
import { loadCatalog } from './stories.ts';
import { UsageError } from './usage-error.ts';

const ROOT = resolve(import.meta.dirname, '../..');
export const RECALL_FORMAT = 'metattl-recall-probe-1';

/** The games named by `--tasks`: Jericho names, the sets ID / OOD / VOCAB-OOD (as vocab-ood has them), `game:seed` read as `game`. */
export function recallGames(spec: string): string[] {
  const sets = BUILTIN_EXPERIMENTS['vocab-ood']!.taskSets;
  const out = spec.split(',').map((p) => p.trim()).filter(Boolean).flatMap((p) => sets[p.toUpperCase()] ?? [p.replace(/:\d+$/, '')]);
  if (!out.length) throw new UsageError('probe recall needs --tasks (game names such as zork1, or ID, OOD, VOCAB-OOD)');
  return [...new Set(out)];
}

/** Jericho's walkthroughs by game name. @throws UsageError when the file cannot be read or is not games.json */
async function walkthroughsByName(file: string | undefined): Promise<Map<string, string[]>> {
  const path = file ?? resolve(process.env.SHARED_DIR ?? resolve(ROOT, '../shared'), 'jericho/games.json');
  if (!existsSync(path)) throw new UsageError(`probe recall needs Jericho's games.json for the walkthroughs: ${path} is missing (give it with --walkthroughs)`);
  let games: unknown;
  try {
    games = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`--walkthroughs ${path}: cannot read it as JSON (${(error as Error).message.split('\n')[0]})`);
  }
  if (!Array.isArray(games)) throw new UsageError(`--walkthroughs ${path}: expected Jericho's games.json (an array of games)`);
  const out = new Map<string, string[]>();
  for (const g of games as { name?: unknown; walkthrough?: unknown }[]) {
    if (typeof g?.name === 'string' && Array.isArray(g.walkthrough) && g.walkthrough.every((c) => typeof c === 'string')) out.set(g.name, g.walkthrough as string[]);
  }
  return out;
}

const pct = (r: Rate): string => (r.share === null ? '—' : `${r.count}/${r.n} ${(100 * r.share).toFixed(1)} % [${(100 * r.low!).toFixed(1)}, ${(100 * r.high!).toFixed(1)}]`);
const pValue = (p: number | null): string => (p === null ? '—' : p < 0.001 ? p.toExponential(1) : p.toFixed(3));
const HEADER = ['game', 'walkthrough lines', 'probes', 'failed', 'recall exact', 'recall normalised', 'control (shuffled) normalised', 'frequency baseline', 'recall − control', 'sign test p (recall > control)'];

/** One row of the recall table, as text cells. */
function cells(g: RecallGameResult): string[] {
  return [
    g.game, String(g.walkthroughLines), String(g.probes), String(g.failed), pct(g.exact), pct(g.normalised), pct(g.shuffledNormalised),
    `${pct(g.frequencyBaseline.rate)} ("${g.frequencyBaseline.command}")`, g.excess === null ? '—' : `${g.excess >= 0 ? '+' : ''}${(100 * g.excess).toFixed(1)} pts`,
    `${pValue(g.discordant.p)} (${g.discordant.recallOnly} vs ${g.discordant.controlOnly})`,
  ];
}

/** The report as Markdown: the settings, the table (per game, then pooled), what it means. */
export function recallMarkdown(report: RecallReport, model: string): string {
  const rows = [...report.games, ...(report.pooled ? [report.pooled] : [])];
  return [
    '# Walkthrough-recall probe', '', `- Model: ${model}; k = ${report.options.k} commands shown, at most ${report.options.probes} positions per game, control seed ${report.options.seed}.`, `- Code version: ${codeVersion()}.`, '',
    `| ${HEADER.join(' | ')} |`, `|${HEADER.map(() => '---|').join('')}`, ...rows.map((g) => `| ${cells(g).join(' | ')} |`), '', ...RECALL_FOOTNOTE.flatMap((l) => [l, '']),
  ].join('\n');
}

/** The report as CSV: one row per game and the pooled row; shares in [0, 1]; the last two columns,
 * model and model_caveat, name the actor model asked (`model`, its id; llm/model-label.ts). */
export function recallCsv(report: RecallReport, model: string): string {
  const head = ['game', 'walkthrough_lines', 'probes', 'failed', 'exact', 'normalised', 'normalised_low', 'normalised_high', 'shuffled_exact', 'shuffled_normalised', 'shuffled_low', 'shuffled_high', 'frequency_command', 'frequency_matches', 'excess', 'recall_only', 'control_only', 'sign_p', ...MODEL_CSV_COLUMNS];
  const who = modelCsvCells(describeModel({ actor: model }));
  const q = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? `"${v.replace(/"/g, '""')}"` : String(v));
  const rows = [...report.games, ...(report.pooled ? [report.pooled] : [])].map((g) => [
    g.game, g.walkthroughLines, g.probes, g.failed, g.exact.count, g.normalised.count, g.normalised.low, g.normalised.high, g.shuffledExact.count, g.shuffledNormalised.count,
    g.shuffledNormalised.low, g.shuffledNormalised.high, g.frequencyBaseline.command, g.frequencyBaseline.rate.count, g.excess, g.discordant.recallOnly, g.discordant.controlOnly, g.discordant.p, ...who,
  ].map(q).join(','));
  return [head.join(','), ...rows].join('\n') + '\n';
}

export async function probeRecallCommand(argv: string[]): Promise<number> {
  const { values } = parseCommand(PROBE_RECALL, argv);
  if (!values.tasks) throw new UsageError('probe recall needs --tasks (game names such as zork1, or ID, OOD, VOCAB-OOD)');
  const names = recallGames(values.tasks);
  const options = { k: intOption(values.k, 'k', 5, 1, 100), probes: intOption(values.probes, 'probes', 20, 1, 10_000), seed: intOption(values.seed, 'seed', 0, 0, 0xffffffff) };
  const walkthroughs = await walkthroughsByName(values.walkthroughs);
  const unknown = names.filter((n) => !walkthroughs.get(n)?.length);
  if (unknown.length) throw new UsageError(`probe recall: no Jericho walkthrough for ${unknown.join(', ')} (games.json names games such as zork1, detective, trinity)`);
  const tooShort = names.filter((n) => walkthroughs.get(n)!.length <= options.k);
  if (tooShort.length) throw new UsageError(`probe recall: the walkthrough of ${tooShort.join(', ')} has no command after the first ${options.k} (lower --k)`);
  if (values.out) await prepareOutputDir(values.out, '--out');
  const catalog = await loadCatalog().catch(() => null);
  const games: RecallGame[] = names.map((game) => ({ game, title: catalog?.stories.find((s) => s.id === game)?.title ?? game, walkthrough: walkthroughs.get(game)! }));
  const settings = llmSettingsFromFlags(values);
  const meter = new UsageMeter(settings.caps, settings.prices);
  const models = await chatModelsFromFlags(values, settings, meter);
  const report = await runRecallProbe(games, models.actor, options, {
    concurrency: settings.maxConcurrent, onItem: (done, total) => void (!values.json && (done % 10 === 0 || done === total) && process.stderr.write(`[${done}/${total}] questions\n`)),
  });
  const model = settings.roles.actor.model;
  const costUsd = knownCostUsd(settings, meter);
  const summary = { format: RECALL_FORMAT, codeVersion: codeVersion(), model, options, games: report.games, pooled: report.pooled, costUsd, totalTokens: meter.totalTokens };
  if (values.out) {
    await writeFile(join(values.out, 'recall.json'), stringifyWithoutSecrets({ ...summary, footnote: RECALL_FOOTNOTE, items: report.items }));
    await writeFile(join(values.out, 'recall.md'), scrubText(recallMarkdown(report, model)));
    await writeFile(join(values.out, 'recall.csv'), scrubText(recallCsv(report, model)));
  }
  if (values.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else process.stdout.write(`${recallMarkdown(report, model)}\n${report.items.length} questions; ${costText(costUsd)}${values.out ? `; wrote recall.json, recall.md, recall.csv to ${values.out}` : ''}\n`);
  return 0;
}
