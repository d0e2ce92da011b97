/**
 * A web task's `Environment` (src/web) as the runner's `EpisodeEngine`: observations become step
 * results (text = the observation the actor sees, score = the episode reward so far, moves = steps
 * taken), the kind's texts and the task descriptor travel with it, and `stop()` runs the task's
 * check at the step limit. The Z-machine path does not go through here.
 */
import type { Environment, EnvironmentObservation, RandomSourceFactory } from '../web/interface.ts';
import type { EpisodeEngine, EpisodeStepResult } from './episode-runner.ts';
import { SeededRng } from './rng.ts';

/** The seeded random source of the web sites' data (the loops' generator; the same in the page and the CLI). */
export const webRng: RandomSourceFactory = (seed) => new SeededRng(seed);

/** A stable 32-hex-digit identity for a non-story task (records keep an md5-shaped field). */
export function taskHash(id: string): string {
  let out = '';
  for (let salt = 0; salt < 4; salt++) {
    let h = 2166136261 ^ salt;
    for (const c of `${salt}:${id}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
    out += (h >>> 0).toString(16).padStart(8, '0');
  }
  return out;
}

export interface WebEpisodeEngine extends EpisodeEngine {
  dispose(): void;
}

/** Adapt `env` (reset with `seed` every episode) for the episode runner; `taskId` names it. */
export function webEpisodeEngine(env: Environment, taskId: string, seed: number): WebEpisodeEngine {
  let moves = 0;
  const result = (observation: EnvironmentObservation, command: string, score: number, done: boolean): EpisodeStepResult => ({
    command, text: observation.text, statusLine: '', score, moves, done, endReason: null, inputKind: done ? null : 'line', fault: null, location: null,
    ...(observation.page ? { page: observation.page } : {}),
  });
  return {
    info: { md5: taskHash(taskId) },
    seed,
    texts: env.texts,
    task: { kind: env.kind, id: taskId },
    async reset() {
      moves = 0;
      const observation = await env.reset(seed);
      return result(observation, '', 0, false);
    },
    async step(command) {
      moves++;
      const step = await env.step(command);
      return result(step.observation, command, step.score, step.done);
    },
    async stop() {
      const step = await env.stop();
      return result(step.observation, '', step.score, true);
    },
    dispose() {},
  };
}
