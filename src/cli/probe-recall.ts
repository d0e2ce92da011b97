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
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { codeVersion } from '../common/code-version.ts';
import { scrubText } from '../common/secrets.ts';
import { stringifyWithoutSecrets } from '../agents/trajectory-io.ts';
import { RECALL_FOOTNOTE, runRecallProbe, type RecallGame, type RecallProbeOptions, type RecallReport } from '../eval/recall-probe.ts';
import { recallCsv, recallMarkdown as recallMarkdownOf } from '../eval/recall-report.ts';
import { BUILTIN_EXPERIMENTS } from '../experiment/builtins.ts';
import { UsageMeter } from '../llm/usage-meter.ts';
import { PROBE_RECALL } from './commands.ts';
import { costText, knownCostUsd, llmSettingsFromFlags } from './llm-options.ts';
import { chatModelsFromFlags } from './models.ts';
import { intOption } from './numbers.ts';
import { parseCommand } from './option-defs.ts';
import { prepareOutputDir } from './output-paths.ts';
import { loadCatalog } from './stories.ts';
import { defaultGamesJson, readJerichoGames } from './stories-overlap.ts';
import { UsageError } from './usage-error.ts';

export const RECALL_FORMAT = 'metattl-recall-probe-1';

/** The games named by `--tasks`: Jericho names, the sets ID / OOD / VOCAB-OOD (as vocab-ood has them), `game:seed` read as `game`. */
export function recallGames(spec: string): string[] {
  const sets = BUILTIN_EXPERIMENTS['vocab-ood']!.taskSets;
  const out = spec.split(',').map((p) => p.trim()).filter(Boolean).flatMap((p) => sets[p.toUpperCase()] ?? [p.replace(/:\d+$/, '')]);
  if (!out.length) throw new UsageError('probe recall needs --tasks (game names such as zork1, or ID, OOD, VOCAB-OOD)');
  return [...new Set(out)];
}

/** Jericho's walkthroughs by game name (stories-overlap.ts `readJerichoGames`). @throws UsageError when the file cannot be read or is not games.json */
async function walkthroughsByName(file: string | undefined): Promise<Map<string, string[]>> {
  const path = file ?? defaultGamesJson();
  if (!existsSync(path)) throw new UsageError(`probe recall needs Jericho's games.json for the walkthroughs: ${path} is missing (give it with --walkthroughs)`);
  return new Map((await readJerichoGames(path)).flatMap((g) => (g.name ? [[g.name, g.walkthrough] as const] : [])));
}

/** The report as Markdown (src/eval/recall-report.ts) with this code's version. */
export const recallMarkdown = (report: RecallReport, model: string): string => recallMarkdownOf(report, model, codeVersion());
export { recallCsv };

export async function probeRecallCommand(argv: string[]): Promise<number> {
  const { values } = parseCommand(PROBE_RECALL, argv);
  if (!values.tasks) throw new UsageError('probe recall needs --tasks (game names such as zork1, or ID, OOD, VOCAB-OOD)');
  const names = recallGames(values.tasks);
  const options = { k: intOption(values.k, 'k', 5, 1, 100), probes: intOption(values.probes, 'probes', 20, 1, 10_000), seed: intOption(values.seed, 'seed', 0, 0, 0xffffffff) };
  const walkthroughs = await walkthroughsByName(values.walkthroughs);
  return runAndReportRecall({ names, options, walkthroughs, flags: values, ...(values.out ? { out: values.out } : {}), json: values.json === true });
}

/**
 * The probe as `metattl probe recall` runs it, after its flags are read — also an experiment's
 * recall-probe step (cli/experiment-steps.ts): games `names` from `walkthroughs` (game → commands),
 * the actor model of the provider `flags`; writes recall.json, recall.md and recall.csv to `out`
 * when given, prints the table (or the JSON summary with `json`). @returns the exit code (0)
 * @throws UsageError when a game has no walkthrough or none longer than k
 */
export async function runAndReportRecall(run: {
  names: readonly string[]; options: RecallProbeOptions; walkthroughs: ReadonlyMap<string, readonly string[]>;
  flags: Readonly<Record<string, string | boolean | string[] | undefined>>; out?: string; json: boolean;
}): Promise<number> {
  const { names, options, walkthroughs, flags: values } = run;
  const unknown = names.filter((n) => !walkthroughs.get(n)?.length);
  if (unknown.length) throw new UsageError(`probe recall: no Jericho walkthrough for ${unknown.join(', ')} (games.json names games such as zork1, detective, trinity)`);
  const tooShort = names.filter((n) => walkthroughs.get(n)!.length <= options.k);
  if (tooShort.length) throw new UsageError(`probe recall: the walkthrough of ${tooShort.join(', ')} has no command after the first ${options.k} (lower --k)`);
  if (run.out) await prepareOutputDir(run.out, '--out');
  const catalog = await loadCatalog().catch(() => null);
  const games: RecallGame[] = names.map((game) => ({ game, title: catalog?.stories.find((s) => s.id === game)?.title ?? game, walkthrough: [...walkthroughs.get(game)!] }));
  const settings = llmSettingsFromFlags(values);
  const meter = new UsageMeter(settings.caps, settings.prices);
  const models = await chatModelsFromFlags(values, settings, meter);
  const report = await runRecallProbe(games, models.actor, options, {
    concurrency: settings.maxConcurrent, onItem: (done, total) => void (!run.json && (done % 10 === 0 || done === total) && process.stderr.write(`[${done}/${total}] questions\n`)),
  });
  const model = settings.roles.actor.model;
  const costUsd = knownCostUsd(settings, meter);
  const summary = { format: RECALL_FORMAT, codeVersion: codeVersion(), model, options, games: report.games, pooled: report.pooled, costUsd, totalTokens: meter.totalTokens };
  if (run.out) {
    await writeFile(join(run.out, 'recall.json'), stringifyWithoutSecrets({ ...summary, footnote: RECALL_FOOTNOTE, items: report.items }));
    await writeFile(join(run.out, 'recall.md'), scrubText(recallMarkdown(report, model)));
    await writeFile(join(run.out, 'recall.csv'), scrubText(recallCsv(report, model)));
  }
  if (run.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else process.stdout.write(`${recallMarkdown(report, model)}\n${report.items.length} questions; ${costText(costUsd)}${run.out ? `; wrote recall.json, recall.md, recall.csv to ${run.out}` : ''}\n`);
  return 0;
}
