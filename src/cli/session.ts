/**
 * `metattl session`: a test-time-learning session (K episodes with a policy between them) on one
 * story and seed, or on a web task `web:<site>/<template>:<seed>` (defaults 3 episodes × 10 steps,
 * score = the episode's reward, max score 1). With --store DIR it is persisted as it runs and `--resume RUN_ID` continues a
 * stopped or crashed one, after checking what it replays (a damaged store stops with an error
 * naming the file and the first bad record; `--from-last-good-episode` keeps the intact episodes
 * and runs the rest again). Output contract (--json): `{ story, seed, policy, maxScore, wAuc,
 * episodes: [{ index, guidingPrompt, finalScore, termination, steps: [{ action, score }] }] }`
 * (Z-machine stories: each step also has `location` { id, name } or null, each episode `startLocation`)
 * and `interventions: [{ episode, step, oldGuide, newGuide }]` (a person's edits of the guide
 * mid-episode, made in the page; empty when none) plus extra fields (id, status, stopReason, stopMessage, scores, averageScore, bestScore, exchanges count,
 * totalTokens, adaptations, usageEstimated, estimatedCalls) and `model: { name, simulated, kind, caveat }`
 * (llm/model-label.ts: the simulated model says it is one).
 * --out FILE writes the whole session record (the export format the page's replay view opens).
 * --raw-meta-prompt FILE (instead of --policy): the file's text is the meta-agent's whole system
 * message, byte for byte; the record's `config.policy` says `raw: true` (the JSON output too), and a
 * resume keeps it.
 */
import { SESSION } from './commands.ts';
import { parseCommand } from './option-defs.ts';
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { DEFAULT_GUIDING_PROMPT } from '../agents/actor-prompt.ts';
import { EngineProxy } from '../engine/engine-proxy.ts';
import { createNodeWorker } from '../engine/node/worker-factory.ts';
import { chatModelsFromFlags, localModelNote } from './models.ts';
import { exportedModel } from '../llm/model-label.ts';
import { loadTokenCounter } from '../llm/token-count.ts';
import { sharedAdaptations } from '../llm/adaptations.ts';
import type { LlmSettings } from '../llm/interface.ts';
import { resumedSessionSettings } from './resume-check.ts';
import { UsageMeter } from '../llm/usage-meter.ts';
import { openNodeStore } from '../store/node-store.ts';
import type { SessionRecord } from '../ttl/session-record.ts';
import { usageOf } from '../ttl/session-record.ts';
import { Pacer } from '../ttl/pace.ts';
import { buildSession } from '../ttl/session-setup.ts';
import { exportSession } from '../ttl/session-io.ts';
import { MissingSessionError, startOrResumeSession, storedSession } from '../ttl/session-service.ts';
import { DamagedRunError } from '../store/interface.ts';
import { contextWindowFromFlags, knownCostUsd, llmSettingsFromFlags, providerNotes, providerNotesText } from './llm-options.ts';
import { policyFromOption, rawMetaPromptFromFile } from './policy-option.ts';
import { resolveStory } from './stories.ts';
import { webCliTask, webEngine } from './tasks.ts';
import { sessionDefaults } from '../ttl/run-defaults.ts';
import { WEB_DEFAULT_GUIDING_PROMPT } from '../web/texts.ts';
import { intOption, LIMITS } from './numbers.ts';
import { checkOutputFile } from './output-paths.ts';
import { seedFromOption } from './seed-option.ts';
import { exitCode, listenForInterrupt } from './interrupt.ts';
import { UsageError } from './usage-error.ts';


export async function sessionCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(SESSION, argv);
  const stepDelayMs = intOption(values['step-delay-ms'], 'step-delay-ms', 0, 0, 600_000);
  const settings = llmSettingsFromFlags(values);
  if (positionals.length > 1) throw new UsageError(`session takes one story, got: ${positionals.join(' ')}`);
  if (values.out) await checkOutputFile(values.out, '--out');
  const store = values.store ? await openNodeStore(values.store) : null;
  if (values.resume && !store) throw new UsageError('--resume needs --store DIR');
  if (values['from-last-good-episode'] && !values.resume) throw new UsageError('--from-last-good-episode needs --resume RUN_ID');
  const previous = values.resume ? await storedSession(store!, values.resume, values.store!).catch((error: unknown) => {
    throw error instanceof MissingSessionError ? new UsageError(error.message) : error;
  }) : undefined;
  const storySpec = positionals[0] ?? previous?.config.story.id ?? undefined;
  if (!storySpec) throw new UsageError('session needs a story file');
  const isWeb = storySpec.startsWith('web:');
  const webTask = isWeb ? webCliTask(storySpec, 'session') : null;
  if (webTask && values.seed !== undefined) throw new UsageError('--seed: a web task carries its seed in its id (web:<site>/<template>:<seed>)');
  const story = webTask ? null : await resolveStory(storySpec);
  if (previous && story?.entry && previous.config.story.md5 !== story.entry.md5) throw new UsageError('the story file differs from the one the session was started with');

  if (values.policy !== undefined && values['raw-meta-prompt'] !== undefined) throw new UsageError('give --policy or --raw-meta-prompt, not both');
  const policy = previous?.config.policy ?? (values['raw-meta-prompt'] !== undefined ? await rawMetaPromptFromFile(values['raw-meta-prompt']) : await policyFromOption(values.policy ?? 'naive'));
  if (previous && values['raw-meta-prompt'] !== undefined) await checkResumedRawPrompt(previous, values['raw-meta-prompt']);
  const countTokens = await loadTokenCounter();
  const contextWindow = previous?.config.contextWindow ?? (await contextWindowFromFlags(values, settings));
  const meter = new UsageMeter(settings.caps, settings.prices);
  if (previous) meter.addPrevious(usageOf(previous));
  if (previous?.adaptations) sharedAdaptations.restore(previous.adaptations);
  const models = await chatModelsFromFlags(values, settings, meter);
  const seed = previous?.config.seed ?? webTask?.seed ?? seedFromOption(values.seed, story?.entry?.defaultSeed ?? 0);
  const parts = buildSession(
    {
      story: previous?.config.story ?? (webTask
        ? { id: webTask.id, title: webTask.title, md5: webTask.md5, maxScore: 1 }
        : { id: story!.entry?.id ?? null, title: story!.entry?.title ?? storySpec, md5: '', maxScore: story!.entry?.maxScore ?? null }),
      seed, policy,
      episodes: previous?.config.episodes ?? intOption(values.episodes, 'episodes', sessionDefaults(webTask !== null).episodes, 1, LIMITS.episodes),
      maxSteps: previous?.config.maxSteps ?? intOption(values.steps, 'steps', sessionDefaults(webTask !== null).maxSteps, 1, LIMITS.steps),
      initialGuidingPrompt: previous?.config.initialGuidingPrompt ?? values.guide ?? (webTask ? WEB_DEFAULT_GUIDING_PROMPT : DEFAULT_GUIDING_PROMPT),
      contextWindow: previous?.config.contextWindow ?? contextWindow,
      ...(webTask?.task ? { task: webTask.task } : {}),
    },
    settings, models, countTokens,
  );
  // A resume runs with the flags' models and settings: refused when they differ from the session's,
  // unless allowed (then recorded) — checked before the engine starts, applied to the record read below.
  const checked = previous ? resumedSessionSettings(previous, parts.config, values['allow-changed-settings']) : undefined;
  const changed = checked !== previous ? checked : undefined;
  const engine = webTask ? await webEngine(webTask.id) : await EngineProxy.load(createNodeWorker, story!.bytes, { seed, rules: story!.rules });
  const id = previous?.id ?? randomUUID();
  const progress = {
    onEpisode: (e: { index: number; finalScore: number | null; termination: string | null }) => {
      if (!values.json) process.stderr.write(`episode ${e.index}: score ${e.finalScore ?? 'n/a'} (${e.termination})\n`);
    },
  };
  const interrupt = listenForInterrupt();
  let record: SessionRecord;
  try {
    // The core checks a resume (records whole, steps in place, scores reproduced), persists every
    // step and record, and runs it (ttl/session-service.ts); this is wiring and display.
    record = await startOrResumeSession(store, id, { ...parts.config, story: { ...parts.config.story, md5: engine.info.md5 } }, {
      engine, actor: parts.actor, policy: parts.policy, signal: interrupt.signal, display: progress,
      ...(previous ? { resume: 'required' as const, fromLastGood: values['from-last-good-episode'], storeName: values.store! } : {}),
      ...(changed ? { reconcile: (checked: SessionRecord) => ({ ...checked, config: changed.config, ...(changed.settingsChanges ? { settingsChanges: changed.settingsChanges } : {}) }) } : {}),
      ...(stepDelayMs > 0 ? { gate: new Pacer({ stepDelayMs }), pace: { stepDelayMs } } : {}),
      adaptations: () => providerNotes(settings, meter).adaptations,
    });
  } catch (error) {
    if (error instanceof DamagedRunError) error.message += ` To continue from there: metattl session --store ${values.store} --resume ${error.runId} --from-last-good-episode`;
    throw error;
  } finally {
    interrupt.release();
    engine.dispose();
    store?.close();
  }
  if (values.out) await writeFile(values.out, exportSession(record));
  const out = sessionJson(record, { id, story: story?.path ?? storySpec, seed }, settings, meter, await localModelNote(values));
  if (values.json) {
    process.stdout.write(JSON.stringify(out) + '\n');
    if (record.stopReason === 'provider') process.stderr.write(`metattl: session stopped: ${record.stopMessage ?? 'provider fault'}\n`);
  } else {
    process.stderr.write(providerNotesText(providerNotes(settings, meter)));
    const why = record.stopReason ? ` (${record.stopReason}${record.stopMessage ? `: ${record.stopMessage}` : ''})` : '';
    const resume = record.status === 'stopped' && store ? `; continue with --store ${values.store} --resume ${id}` : '';
    process.stdout.write(`session ${id} on ${story?.entry?.title ?? storySpec} seed ${seed}: ${record.status}${why}${resume}; scores ${record.scores.join(', ') || 'none'}; W-AUC ${record.wAuc === null ? 'n/a' : record.wAuc.toFixed(3)}; ${record.faultedEpisodes} faulted episode${record.faultedEpisodes === 1 ? '' : 's'}\n`);
  }
  return exitCode(interrupt.interrupted, record.stopReason === 'provider');
}

/** A resume keeps the session's own system prompt; a different one would be a different session.
 * @throws UsageError when `file`'s text is not the raw meta-prompt `previous` was started with */
async function checkResumedRawPrompt(previous: SessionRecord, file: string): Promise<void> {
  const given = await rawMetaPromptFromFile(file);
  const kept = previous.config.policy;
  if (kept.kind !== 'meta' || kept.raw !== true || kept.strategy !== given.strategy) {
    throw new UsageError(`--raw-meta-prompt ${file}: session ${previous.id} was started with ${kept.kind === 'meta' && kept.raw ? `another raw meta-prompt (${kept.name})` : `policy ${policyNameOf(kept)}`}; a resume keeps its own (leave the flag out)`);
  }
}

/** The --json output contract of a finished (or stopped) session (see the module's docstring). */
function sessionJson(record: SessionRecord, run: { id: string; story: string; seed: number }, settings: LlmSettings, meter: UsageMeter, localModel: Awaited<ReturnType<typeof localModelNote>>) {
  return {
    id: run.id, story: run.story, seed: run.seed, policy: policyName(record), ...(isRaw(record) ? { raw: true } : {}), maxScore: record.config.story.maxScore, wAuc: record.wAuc,
    status: record.status, stopReason: record.stopReason, scores: record.scores, averageScore: record.averageScore, bestScore: record.bestScore,
    stopMessage: record.stopMessage, exchanges: record.exchanges.length,
    model: exportedModel({ presetId: settings.provider.presetId, actor: settings.roles.actor.model, metaAgent: settings.roles.metaAgent.model }),
    interventions: (record.interventions ?? []).map(({ episode, step, oldGuide, newGuide }) => ({ episode, step, oldGuide, newGuide })), costUsd: knownCostUsd(settings, meter), totalTokens: meter.totalTokens, faultedEpisodes: record.faultedEpisodes, ...providerNotes(settings, meter), localModel,
    episodes: record.episodes.map((e) => ({
      index: e.index, guidingPrompt: e.guidingPrompt, finalScore: e.finalScore, termination: e.termination,
      ...(e.trajectory?.startLocation !== undefined ? { startLocation: e.trajectory.startLocation } : {}),
      steps: e.steps.map((s) => ({ action: s.action, score: s.score, ...(s.location !== undefined ? { location: s.location } : {}) })),
    })),
  };
}

function policyName(record: SessionRecord): string {
  return policyNameOf(record.config.policy);
}

function policyNameOf(p: SessionRecord['config']['policy']): string {
  return p.kind === 'meta' ? p.name : p.kind;
}

/** The session's meta-agent system message is a raw file's text (--raw-meta-prompt). */
const isRaw = (record: SessionRecord): boolean => record.config.policy.kind === 'meta' && record.config.policy.raw === true;
