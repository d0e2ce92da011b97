/**
 * `metattl play`: the actor plays one episode on a story at a seed, or on a web task
 * `web:<site>/<template>:<seed>` (default 10 steps; score = reward, max 1), against any OpenAI-compatible
 * endpoint. Output contract (--json): `{ story, seed, termination, finalScore, steps: [{
 * observation, reply, action, parseStatus, score, promptTokens, completionTokens, latencyMs }] }`
 * — `observation` (= `observationBefore`) is the text the actor read before its command,
 * `observationAfter` the game's answer to it (null when no command was sent); `finalObservation`
 * the text the episode ended on; Z-machine stories add `location` to each step and `startLocation`
 * (`{ id, name }`: the player object's parent after the step, or null when the story's player
 * object is not in the catalog).
 * plus extra fields (maxScore, stopReason — provider, budget, user or null — with its stopMessage, usage, adaptations, usageEstimated, estimatedCalls). --out FILE writes the full trajectory export.
 * Ctrl-C stops the episode cleanly (termination "aborted").
 */
import { PLAY } from './commands.ts';
import { parseCommand } from './option-defs.ts';
import { writeFile } from 'node:fs/promises';
import { Pacer } from '../ttl/pace.ts';
import { Actor } from '../agents/actor.ts';
import { stepAnswers } from '../agents/step-answers.ts';
import { DEFAULT_GUIDING_PROMPT } from '../agents/actor-prompt.ts';
import { exportTrajectory } from '../agents/trajectory-io.ts';
import type { Trajectory } from '../agents/trajectory.ts';
import { EngineProxy } from '../engine/engine-proxy.ts';
import { createNodeWorker } from '../engine/node/worker-factory.ts';
import { chatModelsFromFlags, localModelNote } from './models.ts';
import { UsageMeter } from '../llm/usage-meter.ts';
import { runEpisode } from '../ttl/episode-runner.ts';
import { costText, knownCostUsd, llmSettingsFromFlags, providerNotes, providerNotesText } from './llm-options.ts';
import { resolveStory } from './stories.ts';
import { webCliTask, webEngine } from './tasks.ts';
import { sessionDefaults } from '../ttl/run-defaults.ts';
import { WEB_DEFAULT_GUIDING_PROMPT } from '../web/texts.ts';
import { intOption, LIMITS } from './numbers.ts';
import { checkOutputFile } from './output-paths.ts';
import { seedFromOption } from './seed-option.ts';
import { exitCode, listenForInterrupt } from './interrupt.ts';
import { UsageError } from './usage-error.ts';

export async function playCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(PLAY, argv);
  const stepDelayMs = intOption(values['step-delay-ms'], 'step-delay-ms', 0, 0, 600_000);
  const [storySpec, ...extra] = positionals;
  if (!storySpec) throw new UsageError('play needs a story file');
  if (extra.length) throw new UsageError(`play takes one story, got also: ${extra.join(' ')}`);
  if (values.out) await checkOutputFile(values.out, '--out');
  const webTask = storySpec.startsWith('web:') ? webCliTask(storySpec, 'play') : null;
  if (webTask && values.seed !== undefined) throw new UsageError('--seed: a web task carries its seed in its id (web:<site>/<template>:<seed>)');
  const maxSteps = intOption(values.steps, 'steps', sessionDefaults(webTask !== null).maxSteps, 1, LIMITS.steps);
  const settings = llmSettingsFromFlags(values);
  const story = webTask ? null : await resolveStory(storySpec);
  const seed = webTask?.seed ?? seedFromOption(values.seed, story!.entry?.defaultSeed ?? 0);

  const meter = new UsageMeter(settings.caps, settings.prices);
  const models = await chatModelsFromFlags(values, settings, meter);
  const streamModel = values.stream ? { ...models.actor, complete: (m: Parameters<typeof models.actor.complete>[0], o = {}) => models.actor.complete(m, { ...o, stream: true }) } : models.actor;
  const engine = webTask ? await webEngine(webTask.id) : await EngineProxy.load(createNodeWorker, story!.bytes, { seed, rules: story!.rules });
  const interrupt = listenForInterrupt();
  try {
    const trajectory = await runEpisode({
      engine, actor: new Actor(streamModel), maxSteps, signal: interrupt.signal, ...(stepDelayMs > 0 ? { gate: new Pacer({ stepDelayMs }) } : {}),
      story: webTask ? { title: webTask.title, maxScore: 1 } : { title: story!.entry?.title ?? storySpec, maxScore: story!.entry?.maxScore ?? null },
      guidingPrompt: values.guide ?? (webTask ? WEB_DEFAULT_GUIDING_PROMPT : DEFAULT_GUIDING_PROMPT),
      onStep: (step) => {
        if (!values.json) process.stdout.write(`${String(step.index).padStart(4)}  ${String(step.score ?? '-').padStart(5)}  ${step.action ?? '(none)'}${step.parseStatus === 'ok' ? '' : `  [${step.parseStatus}]`}\n`);
      },
    });
    if (values.out) await writeFile(values.out, exportTrajectory(trajectory));
    const cost = knownCostUsd(settings, meter);
    const usage = { ...meter.byRole.actor, costUsd: cost === null ? null : meter.byRole.actor.costUsd, totalUsd: cost };
    const notes = providerNotes(settings, meter);
    if (values.json) {
      const answers = stepAnswers(trajectory.steps, trajectory.finalObservation);
      const steps = trajectory.steps.map((s, i) => ({
        observation: s.observation, observationBefore: s.observation, observationAfter: answers[i] ?? null, reply: s.reply, action: s.action, parseStatus: s.parseStatus, score: s.score,
        promptTokens: s.promptTokens, completionTokens: s.completionTokens, latencyMs: s.latencyMs, reward: s.reward, error: s.error,
        ...(s.location !== undefined ? { location: s.location } : {}),
      }));
      const { stopReason, stopMessage } = playStop(trajectory);
      process.stdout.write(JSON.stringify({
        story: story?.path ?? storySpec, seed, termination: trajectory.termination, finalScore: trajectory.finalScore,
        maxScore: trajectory.story.maxScore, stopReason, stopMessage, endReason: trajectory.endReason, steps,
        ...(trajectory.startLocation !== undefined ? { startLocation: trajectory.startLocation } : {}),
        finalObservation: trajectory.finalObservation, usage, costUsd: cost, ...notes, localModel: await localModelNote(values),
      }) + '\n');
      const fault = trajectory.termination === 'error' ? trajectory.steps.at(-1)?.error : null;
      if (fault) process.stderr.write(`metattl: episode ended by a provider fault: ${fault.message}\n`);
    } else {
      process.stderr.write(providerNotesText(notes));
      const last = trajectory.steps.at(-1);
      process.stdout.write(`final (seed ${seed}): score ${trajectory.finalScore ?? 'n/a'}${trajectory.story.maxScore ? ` of ${trajectory.story.maxScore}` : ''}, ${trajectory.termination}${trajectory.stopReason ? ` (${trajectory.stopReason})` : ''}, ${costText(cost)}${last?.error ? `\n${last.error.message}` : ''}\n`);
    }
    return exitCode(interrupt.interrupted, trajectory.termination === 'error');
  } finally {
    interrupt.release();
    engine.dispose();
  }
}

/**
 * Why a played episode stopped before its end, in the words of a session's record: `provider`
 * (an actor call failed after the retries; `termination` 'error'), `budget` (a cap refused the
 * next call), `user` (Ctrl-C), or null when it ran to its end; `stopMessage` is the failed or
 * refused call's message (null for the others).
 */
export function playStop(trajectory: Trajectory): { stopReason: 'provider' | 'budget' | 'user' | null; stopMessage: string | null } {
  const error = trajectory.steps.at(-1)?.error ?? null;
  if (trajectory.termination === 'error') return { stopReason: 'provider', stopMessage: error?.message ?? 'The provider failed.' };
  if (trajectory.stopReason === 'budget') return { stopReason: 'budget', stopMessage: error?.kind === 'budget' ? error.message : null };
  return { stopReason: trajectory.stopReason, stopMessage: null };
}
