/**
 * `metattl experiment list|plan|run|resume|report <name|FILE>`: experiments as first-class runs
 *. A built-in name or a JSON file (schema-checked, src/experiment/schema.ts), edited by
 * overrides; `plan` prints every step, fold, metric call, LLM call and the token / USD estimate
 * before any call; `run` stores the experiment in `<store>/experiments/<name>/` and runs its
 * evolutions and evaluations (each resumable inside itself); `resume` continues it; `report`
 * writes report.md, report.html, report.csv and report.json. A missing game stops `run` with exit
 * 1, naming `npx metattl stories get …`.
 */
import { existsSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EXPERIMENT } from './commands.ts';
import { parseCommand } from './option-defs.ts';
import { applyOverrides, BUILTIN_EXPERIMENTS, type ExperimentOverrides } from '../experiment/builtins.ts';
import { estimateExperiment, pricesOfPlan, pricesText } from '../experiment/estimate.ts';
import { freshExperimentState, runExperiment } from '../experiment/experiment-runner.ts';
import type { ExperimentPlan, ExperimentReport, ExperimentSpec, ExperimentState } from '../experiment/interface.ts';
import type { Comparison } from '../eval/interface.ts';
import { gameOf, planBudgetProblem, planExperiment } from '../experiment/plan.ts';
import { buildExperimentReport } from '../experiment/report.ts';
import type { GameVocabulary } from '../eval/vocabulary-overlap.ts';
import { vocabulariesFor } from './stories-overlap.ts';
import { chosenText, experimentComparisonsToCsv, experimentFoldsToCsv, experimentEvolutionsToCsv, experimentRecallToCsv, experimentReportToCsv, experimentReportToHtml, experimentReportToMarkdown, formatSelection, replicatedParts } from '../experiment/report-formats.ts';
import { ExperimentSpecError, validateExperiment } from '../experiment/schema.ts';
import { defaultLlmSettings } from '../llm/defaults.ts';
import { loadTokenCounter } from '../llm/token-count.ts';
import type { LlmSettings } from '../llm/interface.ts';
import { scrubText } from '../common/secrets.ts';
import { STORY_SOURCES } from '../stories/story-download.ts';
import { cliExecutor, type ProviderFlags } from './experiment-steps.ts';
import { LLM_OPTIONS, llmSettingsFromFlags } from './llm-options.ts';
import { contrastOption, intOption, LIMITS, numberOption, powerDeltaOption } from './numbers.ts';
import { pilotVariance, planPower, planPowerLines, type VarianceSource } from '../experiment/plan-power.ts';
import { codeVersion } from '../common/code-version.ts';
import { recallPercent, recallRows } from '../eval/recall-report.ts';
import { makeRegistration, parseRegistration, RegistrationError, specDifferences, specHash, type Registration } from '../experiment/registration.ts';
import { resolveStory } from './stories.ts';
import { expandTaskSets } from './tasks.ts';
import { UsageError } from './usage-error.ts';
import { recordedLlmSettings } from './resume-check.ts';
import { MAX_REPLICATES } from '../experiment/schema.ts';
import { rawMetaPromptFromFile } from './policy-option.ts';

type Values = ReturnType<typeof parseCommand<typeof EXPERIMENT>>['values'];

/** A built-in experiment or a JSON file. @throws UsageError for an unknown name or a bad file (every bad field named) */
async function loadSpec(ref: string): Promise<ExperimentSpec> {
  if (BUILTIN_EXPERIMENTS[ref]) return BUILTIN_EXPERIMENTS[ref];
  if (!existsSync(ref)) throw new UsageError(`experiment "${ref}" is neither a built-in (${Object.keys(BUILTIN_EXPERIMENTS).join(', ')}) nor a file`);
  let json: unknown;
  try {
    json = JSON.parse(await readFile(ref, 'utf8'));
  } catch (error) {
    throw new UsageError(`${ref}: not JSON (${(error as Error).message})`);
  }
  return checked(() => validateExperiment(json), ref);
}

function checked<T>(fn: () => T, where: string): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof ExperimentSpecError) throw new UsageError(`${where}: ${error.problems.join('; ')}`);
    throw new UsageError((error as Error).message);
  }
}

function overridesOf(v: Values): ExperimentOverrides {
  const o: ExperimentOverrides = {};
  const int = (flag: keyof Values, max: number, min = 1) => (v[flag] === undefined ? undefined : intOption(v[flag] as string, flag, 0, min, max));
  const set = <K extends keyof ExperimentOverrides>(key: K, value: ExperimentOverrides[K] | undefined) => { if (value !== undefined) o[key] = value; };
  set('episodes', int('episodes', LIMITS.episodes)); set('steps', int('steps', LIMITS.steps)); set('repeats', int('repeats', LIMITS.repeats));
  set('budget', int('budget', LIMITS.budget)); set('minibatch', int('minibatch', 100)); set('trainRepeats', int('train-repeats', LIMITS.repeats));
  set('valRepeats', int('val-repeats', LIMITS.repeats)); set('rngSeed', int('rng-seed', 0xffffffff, 0));
  set('replicates', int('replicates', MAX_REPLICATES));
  for (const text of v['task-set'] ?? []) {
    const at = text.indexOf('=');
    if (at < 1 || at === text.length - 1) throw new UsageError(`--task-set must be NAME=task,task,… got "${text}"`);
    o.taskSets = { ...o.taskSets, [text.slice(0, at)]: text.slice(at + 1).split(',').map((t) => t.trim()).filter(Boolean) };
  }
  return o;
}

/** The experiment `ref` with the flags' overrides, its named sets expanded. */
async function specFor(ref: string, v: Values): Promise<ExperimentSpec> {
  const base = BUILTIN_EXPERIMENTS[ref] ?? (await loadSpec(ref));
  const overrides = overridesOf(v);
  return expanded(checked(() => applyOverrides(base, overrides), base.name));
}

/** Named sets (ID, OOD, WEB-…) expanded to task ids, so folds and leak checks see games. */
async function expanded(spec: ExperimentSpec): Promise<ExperimentSpec> {
  const taskSets: Record<string, string[]> = {};
  for (const [name, tasks] of Object.entries(spec.taskSets)) taskSets[name] = (await expandTaskSets(tasks.join(','))).split(',');
  return { ...spec, taskSets };
}

/** Games (not web tasks) of the plan that no stories directory holds. */
async function missingGames(plan: ExperimentPlan): Promise<string[]> {
  const games = [...new Set(plan.steps.flatMap((s) => (s.kind === 'evolution' ? [...s.train, ...s.val] : s.kind === 'recall-probe' ? [] : s.tasks)).filter((t) => !t.startsWith('web:')).map(gameOf))];
  const missing: string[] = [];
  for (const game of games) await resolveStory(game).catch(() => missing.push(game));
  return missing;
}

/**
 * The vocabularies (dictionary, walkthrough) of the plan's games whose story files are found, for
 * the report's vocabulary-overlap column; undefined when the plan has no story games (web tasks).
 * A game whose file is missing or unreadable is left out (the report lists it as missing).
 */
async function planVocabularies(plan: ExperimentPlan): Promise<Record<string, GameVocabulary> | undefined> {
  const games = [...new Set(plan.steps.flatMap((s) => (s.kind === 'evolution' ? [...s.train, ...s.val] : s.kind === 'recall-probe' ? [] : s.tasks)).filter((t) => !t.startsWith('web:')).map(gameOf))];
  if (!games.length) return undefined;
  return vocabulariesFor(games);
}

/** What to do about missing games: `stories get` for the ones it can download. */
function missingAdvice(missing: readonly string[]): string {
  const known = missing.filter((g) => STORY_SOURCES[g]);
  const unknown = missing.filter((g) => !STORY_SOURCES[g]);
  return [known.length ? `Get them with: npx metattl stories get ${known.join(' ')}` : '', unknown.length ? `Not a Jericho game we can download: ${unknown.join(', ')} (give a path or a file in a stories directory).` : ''].filter(Boolean).join(' ');
}

/** Settings for the plan's estimate: the flags when a provider is given, else the defaults with the model flags. */
function estimateSettings(v: Values): LlmSettings {
  if (v['base-url'] || v.provider) return llmSettingsFromFlags(v);
  const s = defaultLlmSettings();
  if (v['actor-model']) s.roles.actor.model = v['actor-model'];
  s.roles.metaAgent.model = v['meta-model'] ?? s.roles.actor.model;
  s.roles.proposer.model = v['proposer-model'] ?? s.roles.actor.model;
  return s;
}

/** The user's provider flags, to hand to every step (a model set's models replace theirs). */
function providerFlags(v: Values): ProviderFlags {
  return Object.fromEntries((Object.keys(LLM_OPTIONS) as (keyof typeof LLM_OPTIONS)[]).filter((key) => v[key] !== undefined).map((key) => [key, v[key]]));
}

async function planCommand(spec: ExperimentSpec, v: Values): Promise<number> {
  const plan = checked(() => planExperiment(spec), spec.name);
  const settings = estimateSettings(v);
  const modelsOf = (i: number) => {
    const set = spec.models[i];
    const roles = structuredClone(settings.roles);
    if (set?.actor) roles.actor.model = set.actor;
    if (set?.metaAgent) roles.metaAgent.model = set.metaAgent;
    if (set?.proposer) roles.proposer.model = set.proposer;
    return { roles, prices: settings.prices };
  };
  // The meta-agent's window: --context-window, else 32,000 tokens (plan asks no provider).
  const contextWindow = v['context-window'] === undefined ? 32_000 : intOption(v['context-window'], 'context-window', 32_000, 256, 10_000_000);
  const estimate = estimateExperiment(plan, modelsOf, await loadTokenCounter(), contextWindow);
  const missing = await missingGames(plan);
  const powerDelta = powerDeltaOption(v['power-delta']);
  const variance = await varianceFor(v);
  const power = planPower(plan, powerDelta, variance);
  const pricesUsed = pricesOfPlan(spec, modelsOf);
  const out = { name: spec.name, spec, folds: plan.folds, steps: plan.steps, estimate, pricesUsed, missingGames: missing, power: { delta: powerDelta, ...variance, steps: power } };
  if (v.json) process.stdout.write(JSON.stringify(out) + '\n');
  else {
    const k = (n: number) => `${Math.round(n / 1000)}K`;
    const lines = plan.steps.map((s, i) => {
      const e = estimate.steps[i]!;
      const what = s.kind === 'recall-probe' ? `walkthrough-recall probe of ${s.games.join(', ')} (k ${s.options.k}, at most ${s.options.probes} positions per game, control seed ${s.options.seed})` : s.kind === 'evolution' ? `evolve (${s.evolution.proposer}${s.replicates > 1 ? `, replicate ${s.replicate} of ${s.replicates}, rng seed ${s.evolution.rngSeed}` : ''}) train ${s.train.join(', ')} / validation ${s.val.join(', ')}, budget ${s.evolution.budget} metric calls` : `evaluate ${s.arms.map((a) => a.id).join(', ')} on ${s.taskSet} (${s.tasks.join(', ')}) × ${s.repeats}`;
      return `${i + 1}. ${s.id}: ${what}; ${e.sessions.low}–${e.sessions.high} sessions, ${e.llmCalls.low}–${e.llmCalls.high} LLM calls, ${k(e.tokens.low)}–${k(e.tokens.high)} tokens, ${usdRange(e.costUsd)}`;
    });
    const t = estimate.total;
    const p = estimate.perSessionTokens;
    process.stdout.write(`experiment ${spec.name}: ${plan.steps.length} steps\n${lines.join('\n')}\n${plan.folds.map((f) => `${f.id}: train ${f.train.join(', ')} | validation ${f.val.join(', ')} | test ${f.test.join(', ')}\n`).join('')}total: ${t.metricCalls} metric calls, ${t.llmCalls.low}–${t.llmCalls.high} LLM calls, ${k(t.tokens.low)}–${k(t.tokens.high)} tokens, ${usdRange(t.costUsd)} at ${pricesText(pricesUsed)}${estimate.unpricedModels.length ? ` (no price at this provider for ${estimate.unpricedModels.join(', ')}: no cost shown)` : ''}\none session (K=${spec.episodes}, S=${spec.steps}): Meta-TTL ${k(p.metaTtl.low)}–${k(p.metaTtl.high)} tokens, static ${k(p.static.low)}–${k(p.static.high)}; the paper (K=6 Jericho): ${k(p.paper.metaTtl)} and ${k(p.paper.static)}\n${missing.length ? `missing games: ${missing.join(', ')} — ${missingAdvice(missing)}\n` : ''}${planPowerLines(power, powerDelta, variance).join('\n')}\n`);
  }
  return 0;
}

/**
 * σ and τ for `plan`'s power: `--pilot FILE` (an eval results.json or an experiment report.json:
 * the largest over its declared comparisons), else `--session-sd` (default 0.10) and `--tau`
 * (default 0), stated as assumed. @throws UsageError for an unreadable pilot or one without comparisons
 */
async function varianceFor(v: Values): Promise<VarianceSource> {
  if (v.pilot) {
    let json: { comparisons?: unknown; report?: { comparisons?: unknown } };
    try {
      json = JSON.parse(await readFile(v.pilot, 'utf8')) as typeof json;
    } catch (error) {
      throw new UsageError(`--pilot ${v.pilot}: cannot read it as JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    const list = Array.isArray(json.comparisons) ? json.comparisons : Array.isArray(json.report?.comparisons) ? json.report.comparisons : [];
    const found = pilotVariance(list as Comparison[], `from pilot ${v.pilot}`);
    if (!found) throw new UsageError(`--pilot ${v.pilot}: no comparisons in it (give an eval results.json or an experiment report.json)`);
    return found;
  }
  return { sessionSd: numberOption(v['session-sd'], 'session-sd') ?? 0.1, tau: numberOption(v.tau, 'tau') ?? 0, from: v['session-sd'] || v.tau ? 'given' : 'assumed: σ 0.10, τ 0; name a pilot with --pilot FILE' };
}

async function writeReport(report: ExperimentReport, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'report.json'), scrubText(JSON.stringify(report, null, 1)));
  await writeFile(join(dir, 'report.md'), scrubText(experimentReportToMarkdown(report)));
  await writeFile(join(dir, 'report.html'), scrubText(experimentReportToHtml(report)));
  await writeFile(join(dir, 'report.csv'), scrubText(experimentReportToCsv(report)));
  await writeFile(join(dir, 'comparisons.csv'), scrubText(experimentComparisonsToCsv(report)));
  if (report.foldResults.length) await writeFile(join(dir, 'folds.csv'), scrubText(experimentFoldsToCsv(report)));
  if (report.evolutions.length) await writeFile(join(dir, 'evolutions.csv'), scrubText(experimentEvolutionsToCsv(report)));
  if (report.recall?.length) await writeFile(join(dir, 'recall.csv'), scrubText(experimentRecallToCsv(report)));
}

function printReport(report: ExperimentReport, dir: string, v: Values, exitCode: number): void {
  if (v.json) {
    process.stdout.write(JSON.stringify({ name: report.name, status: report.status, exitCode, reportDir: dir, comparisons: report.comparisons, warnings: report.warnings, report }) + '\n');
    return;
  }
  const rows = report.rows.map((r) => `${r.step} ${r.arm}: W-AUC ${r.wAuc.estimate.toFixed(3)} [${r.wAuc.low.toFixed(3)}, ${r.wAuc.high.toFixed(3)}] n=${r.sessions}${r.paper ? ` (paper ${r.paper.wAuc})` : ''}${r.leakWarning ? ' (leak)' : ''}`);
  const folds = [
    ...report.foldResults.map((f) => `${f.fold}: chosen ${chosenText(f)}; held-out gap ${f.heldOutGap ? `${f.heldOutGap.estimate.toFixed(3)} [${f.heldOutGap.low.toFixed(3)}, ${f.heldOutGap.high.toFixed(3)}]` : '—'}; selection optimism ${formatSelection(f.selectionOptimism)}; transfer gap ${formatSelection(f.transferGap)}`),
    ...(report.foldsPooled ?? []).map((p) => `pooled over ${p.folds} folds${(report.foldsPooled?.length ?? 0) > 1 ? ` (model set ${p.modelSet})` : ''} (${p.seedFolds} chose the seed): selection optimism ${formatSelection(p.selectionOptimism)}; transfer gap ${formatSelection(p.transferGap)}`),
    ...(report.foldRegime ? [`regime: ${report.foldRegime}`] : []),
  ];
  // Numbers read back from JSON: NaN (a one-game t-interval) arrives as null.
  const n3 = (x: number | null | undefined) => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(3) : 'n/a');
  const comparisons = (report.comparisons ?? []).map((c) => `${c.step} ${c.a} − ${c.b}: Δ ${n3(c.delta.mean)} [${n3(c.delta.low)}, ${n3(c.delta.high)}], game-level t [${n3(c.gameLevel.tLow)}, ${n3(c.gameLevel.tHigh)}], sign-flip p ${n3(c.gameLevel.signFlipP)} (min ${n3(c.gameLevel.minP)}), Holm p ${n3(c.holmP)}${c.positive ? ' Δ > 0 (Holm)' : ''}; repeats for Δ = ${c.power.delta}: ${c.power.repeatsNeeded ?? `— (${c.power.reason})`}`);
  const warnings = (report.warnings ?? []).map((w) => `warning (${w.code}): ${w.message}`);
  const replicated = (report.replicated ?? []).flatMap((a) => {
    const p = replicatedParts(a);
    return [`${p.title}: ${p.summary}`, ...p.rows.map((c) => `  r${c[0]} ${c[1]}: rng seed ${c[2]}, chosen ${c[3]}, W-AUC ${c[5]}, Δ ${c[6]}`), ...p.pairs.map((l) => `  ${l}`)];
  });
  const recall = (report.recall ?? []).flatMap((x) => recallRows(x).map((g) => `${x.step} ${g.game}: recall ${recallPercent(g.normalised)} vs control ${recallPercent(g.shuffledNormalised)}, best constant guess ${recallPercent(g.frequencyBaseline.rate)}, sign test p ${g.discordant.p === null ? '—' : g.discordant.p.toPrecision(2)} (model ${x.model})`));
  const vocabulary = (report.vocabulary ?? []).map((x) => `${x.step}: dictionary overlap with ${x.training.join(', ')} ${x.dictionary?.share != null ? `${(100 * x.dictionary.share).toFixed(1)} %` : `— (no story file: ${x.missing.join(', ')})`}`);
  process.stdout.write(`${[...rows, ...replicated, ...folds, ...comparisons, ...vocabulary, ...recall, ...warnings].join('\n')}\nexperiment ${report.name}: ${report.status}${report.pendingSteps.length ? ` (continue with: npx metattl experiment resume ${report.name} --store …)` : ''}; wrote report.md, report.html, report.csv, comparisons.csv${report.foldResults.length ? ', folds.csv' : ''}${report.evolutions.length ? ', evolutions.csv' : ''}${report.recall?.length ? ', recall.csv' : ''}, report.json to ${dir}\n`);
}

async function runCommand(action: 'run' | 'resume', ref: string, v: Values): Promise<number> {
  if (!v.store) throw new UsageError(`experiment ${action} needs --store DIR (experiments are stored so they can be resumed)`);
  let state: ExperimentState | undefined;
  let spec: ExperimentSpec;
  const name = BUILTIN_EXPERIMENTS[ref] ? ref : (await loadSpec(ref)).name;
  const dir = join(v.store, 'experiments', name);
  const file = join(dir, 'experiment.json');
  if (action === 'resume') {
    if (!existsSync(file)) throw new UsageError(`experiment resume: no experiment "${name}" in ${v.store}; start it with experiment run`);
    state = JSON.parse(await readFile(file, 'utf8')) as ExperimentState;
    spec = state.spec;
  } else {
    if (existsSync(file)) throw new UsageError(`experiment "${name}" is already in ${v.store}; continue it with experiment resume ${ref} --store ${v.store}`);
    spec = await specFor(ref, v);
  }
  if (action === 'run') await registrationForRun(spec, dir, v);
  if (action === 'resume' && Object.keys(overridesOf(v)).length) {
    throw new UsageError(`experiment resume keeps the experiment's spec (${specDifferencesText(state!.spec, await specFor(ref, v)) || 'as stored'}); flags such as --repeats or --task-set cannot change a run half done. Start a new experiment (another --store) to run other settings.`);
  }
  const plan = checked(() => planExperiment(spec), name);
  const budgetProblem = planBudgetProblem(plan);
  if (budgetProblem) throw new UsageError(budgetProblem);
  // A raw arm's file is read now, so a missing or unreadable one stops the run before any call.
  if (action === 'run') for (const arm of spec.arms) if ('policy' in arm && arm.raw) await rawMetaPromptFromFile(arm.policy, `arm ${arm.id}: raw`);
  const missing = await missingGames(plan);
  if (missing.length) {
    process.stderr.write(`metattl: experiment ${name} needs games that are not in any stories directory: ${missing.join(', ')}. ${missingAdvice(missing)}\n`);
    return 1;
  }
  const settings = llmSettingsFromFlags(v);
  const models = Math.max(1, spec.models.length);
  const modelsNow = Array.from({ length: models }, (_, i) => ({
    actor: spec.models[i]?.actor ?? settings.roles.actor.model, metaAgent: spec.models[i]?.metaAgent ?? settings.roles.metaAgent.model, proposer: spec.models[i]?.proposer ?? settings.roles.proposer.model,
  }));
  const llmNow = llmRecordOf(settings);
  if (state) {
    const changes = settingsChanges(state, modelsNow, llmNow);
    if (changes.length && !v['allow-changed-settings']) {
      throw new UsageError(`experiment resume would change the run's settings: ${changes.join('; ')}. Resume with the flags it ran with, or add --allow-changed-settings to continue with these (the change is recorded in experiment.json and the report).`);
    }
    if (changes.length) {
      state.changes = [...(state.changes ?? []), { at: new Date().toISOString(), codeVersion: codeVersion(), changes }];
      process.stderr.write(`metattl: experiment ${name} continues with changed settings (recorded): ${changes.join('; ')}\n`);
    }
    state.models = modelsNow;
    state.llm = llmNow;
  }
  state ??= { ...freshExperimentState(plan, modelsNow, new Date().toISOString()), llm: llmNow };
  await mkdir(dir, { recursive: true });
  const save = (text: string) => writeFile(file, scrubText(text));
  // Steps resumed under allowed changes pass the permission on (the change is recorded in experiment.json).
  const executor = cliExecutor(plan, dir, { flags: providerFlags(v), allowChanged: v['allow-changed-settings'] === true }, save, settings.maxConcurrent);
  executor.onStep = (e) => process.stderr.write(`[experiment ${e.index}/${e.total}] ${e.step}: ${e.phase}\n`);
  await executor.save(state);
  const result = await runExperiment(plan, state, executor);
  const report = buildExperimentReport(plan, result.state, { powerDelta: powerDeltaOption(v['power-delta']), vocabularies: await planVocabularies(plan), registration: await readRegistration(dir) });
  const out = v.out ?? join(dir, 'report');
  await writeReport(report, out);
  printReport(report, out, v, result.exitCode);
  return result.exitCode;
}

export async function experimentCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parseCommand(EXPERIMENT, argv);
  const [action, ref] = positionals;
  if (action === 'list') {
    const list = Object.values(BUILTIN_EXPERIMENTS).map((s) => ({ name: s.name, description: s.description, arms: s.arms.map((a) => a.id), taskSets: s.taskSets, episodes: s.episodes, steps: s.steps, repeats: s.repeats, evolutions: s.evolutions }));
    process.stdout.write(v.json ? JSON.stringify(list) + '\n' : list.map((s) => `${s.name}: ${s.description}`).join('\n') + '\n');
    return 0;
  }
  if (!ref) throw new UsageError('experiment needs list, or plan|register|run|resume|report and a built-in name or a JSON file');
  if (action === 'plan') return planCommand(await specFor(ref, v), v);
  if (action === 'register') return registerCommand(await specFor(ref, v), v);
  if (action === 'run' || action === 'resume') return runCommand(action, ref, v);
  if (action === 'report') {
    // `report DIR` (an experiment's directory holding experiment.json) or `report NAME --store DIR`.
    const direct = existsSync(join(ref, 'experiment.json'));
    if (!direct && !v.store) throw new UsageError('experiment report needs an experiment directory (holding experiment.json) or a name with --store DIR');
    const name = direct ? ref : BUILTIN_EXPERIMENTS[ref] ? ref : (await loadSpec(ref)).name;
    const dir = direct ? ref : join(v.store!, 'experiments', name);
    if (!existsSync(join(dir, 'experiment.json'))) throw new UsageError(`experiment report: no experiment "${name}" in ${v.store}`);
    const state = JSON.parse(await readFile(join(dir, 'experiment.json'), 'utf8')) as ExperimentState;
    const plan = planExperiment(state.spec);
    const report = buildExperimentReport(plan, state, { powerDelta: powerDeltaOption(v['power-delta']), vocabularies: await planVocabularies(plan), registration: await readRegistration(dir) });
    const out = v.out ?? join(dir, 'report');
    await writeReport(report, out);
    printReport(report, out, v, 0);
    return 0;
  }
  throw new UsageError(`experiment: unknown action "${action}" (list, plan, register, run, resume, report)`);
}

/** "$0.12–3.40", or "—" when the price of a model called is unknown (no invented cost). */
function usdRange(range: { low: number; high: number } | null): string {
  return range === null ? '—' : `$${range.low.toFixed(2)}–${range.high.toFixed(2)}`;
}

/** `--primary A:B` (the difference A − B). @throws UsageError for another shape */
function primaryOption(value: string): { a: string; b: string } {
  try {
    return contrastOption(value);
  } catch {
    throw new UsageError(`--primary must be two different arm ids as A:B (the difference A − B), got "${value}"`);
  }
}

/** What a registration is written from and checked against: the provider and each role's sampling settings. */
function llmRecordOf(settings: LlmSettings): NonNullable<ExperimentState['llm']> {
  return recordedLlmSettings(settings);
}

/** Each way the resume's models and settings differ from the run's ("set 0 actor model: a → b"); [] when none. */
function settingsChanges(state: ExperimentState, models: ExperimentState['models'], llm: NonNullable<ExperimentState['llm']>): string[] {
  const out: string[] = [];
  const names = { actor: 'actor', metaAgent: 'meta-agent', proposer: 'proposer' } as const;
  for (const [i, was] of state.models.entries()) {
    for (const role of ['actor', 'metaAgent', 'proposer'] as const) if (models[i] && was[role] !== models[i]![role]) out.push(`set ${i} ${names[role]} model: ${was[role]} → ${models[i]![role]}`);
  }
  const before = state.llm;
  if (before) {
    if (before.baseUrl !== llm.baseUrl) out.push(`base URL: ${before.baseUrl} → ${llm.baseUrl}`);
    for (const role of ['actor', 'metaAgent', 'proposer'] as const) {
      for (const key of ['temperature', 'maxTokens'] as const) if (before.roles[role][key] !== llm.roles[role][key]) out.push(`${names[role]} ${key === 'maxTokens' ? 'max tokens' : 'temperature'}: ${before.roles[role][key]} → ${llm.roles[role][key]}`);
    }
  }
  return out;
}

/** "repeats, taskSets.OOD" (where `b` differs from `a`), or '' when equal. */
function specDifferencesText(a: ExperimentSpec, b: ExperimentSpec): string {
  const d = specDifferences(a, b);
  return d.length ? `the flags would change ${d.join(', ')}` : '';
}

/** registration.json of an experiment directory, or null when it has none.
 * @throws UsageError for one that cannot be read or was edited */
async function readRegistration(dir: string): Promise<Registration | null> {
  const file = join(dir, 'registration.json');
  if (!existsSync(file)) return null;
  try {
    return parseRegistration(await readFile(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`${file}: ${(error as Error).message}`);
  }
}

/**
 * Before `run`: the registration (`--registration FILE`, copied into the experiment's directory,
 * or the one already there) must be of this very spec.
 * @throws UsageError naming each differing field, or a second registration that differs
 */
async function registrationForRun(spec: ExperimentSpec, dir: string, v: Values): Promise<void> {
  const inDir = await readRegistration(dir);
  let registration = inDir;
  if (v.registration) {
    let given: Registration;
    try {
      given = parseRegistration(await readFile(v.registration, 'utf8'));
    } catch (error) {
      throw new UsageError(`--registration ${v.registration}: ${(error as Error).message}`);
    }
    if (inDir && inDir.specHash !== given.specHash) throw new UsageError(`--registration ${v.registration}: ${dir} already holds another registration (spec ${inDir.specHash.slice(0, 12)}…)`);
    registration = given;
  }
  if (!registration) return;
  if (specHash(spec) !== registration.specHash) {
    throw new UsageError(`experiment run: the spec differs from its registration (${registration.registeredAt}) in ${specDifferences(registration.spec, spec).join(', ')}. Run it with the registered settings, or run it elsewhere unregistered (its comparisons are then exploratory).`);
  }
  if (v.registration && !inDir) {
    await mkdir(dir, { recursive: true });
    await copyFile(v.registration, join(dir, 'registration.json'));
  }
}

/**
 * `experiment register <name|FILE> (--out DIR | --store DIR)`: write registration.json (the spec
 * after overrides, its sha-256, the code version, the primary contrast `--primary A:B` on
 * `--primary-task-set SET` and `--alpha A`) before any call. DIR defaults to the experiment's own
 * directory under --store, where `run` finds it. Refuses to overwrite a registration or to register
 * a run already started.
 */
async function registerCommand(spec: ExperimentSpec, v: Values): Promise<number> {
  if (!v.out && !v.store) throw new UsageError('experiment register needs --out DIR (or --store DIR: the experiment\'s own directory)');
  // A budget `run` would refuse is refused here too: a registration no run can honour is no use.
  const budgetProblem = planBudgetProblem(checked(() => planExperiment(spec), spec.name));
  if (budgetProblem) throw new UsageError(budgetProblem);
  const dir = v.out ?? join(v.store!, 'experiments', spec.name);
  const file = join(dir, 'registration.json');
  if (existsSync(file)) throw new UsageError(`${file} already exists: a registration is frozen (register into another directory)`);
  if (existsSync(join(dir, 'experiment.json'))) throw new UsageError(`${dir} already holds a started run: a registration must come before the run`);
  const alpha = numberOption(v.alpha, 'alpha');
  let registration: Registration;
  try {
    registration = makeRegistration(spec, {
      now: new Date().toISOString(), codeVersion: codeVersion(), taskSet: v['primary-task-set'] ?? null,
      ...(alpha === undefined ? {} : { alpha }), ...(v.primary ? { primary: primaryOption(v.primary) } : {}),
    });
  } catch (error) {
    if (error instanceof RegistrationError) throw new UsageError(error.message);
    throw error;
  }
  await mkdir(dir, { recursive: true });
  await writeFile(file, scrubText(JSON.stringify(registration, null, 1)));
  const p = registration.primaryContrast;
  if (v.json) process.stdout.write(JSON.stringify({ file, ...registration }) + '\n');
  else process.stdout.write(`registered ${spec.name}: spec sha-256 ${registration.specHash}, code ${registration.codeVersion}, primary contrast ${p.a} − ${p.b}${p.taskSet ? ` on ${p.taskSet}` : ''}, α = ${registration.alpha}; wrote ${file}\n`);
  return 0;
}
