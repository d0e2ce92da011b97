/**
 * Sample texts behind the cost estimate (cost-estimate.ts): a typical game observation, actor
 * reply, learned guide, meta-agent reply, memory summary, proposer reply and evolved strategy,
 * in two sizes — `low` (short, typical) and `high` (long) — plus synthetic trajectories and
 * sessions built from them, so prompts are measured with the real prompt builders. Pure.
 */
import type { Trajectory } from '../agents/trajectory.ts';
import type { SessionRecord } from './session-record.ts';

/** Which end of the range: `low` short texts and typical replies, `high` long texts and max replies. */
export type Scenario = 'low' | 'high';

export interface SampleTexts {
  observation: string;
  action: string;
  actorReply: string;
  learnedGuide: string;
  metaReply: string;
  summary: string;
  proposerReply: string;
  /** An evolved strategy section (the parent's size in later proposals). */
  strategy: string;
}

const SHORT_ROOM = 'Kitchen. A narrow kitchen with a chipped sink and a wooden table. A door leads north and a dark stairway goes down. On the table is a brass lantern.';
const LONG_ROOM = `${SHORT_ROOM} The walls are lined with shelves of dusty jars, most of them empty, a few holding something that might once have been jam. A draught comes from the stairway, carrying a smell of damp earth and old candles. Through the window to the east you can see an overgrown garden and, beyond it, the outline of a ruined chapel whose bell tower leans at an alarming angle. A faded note is pinned to the door: "Back by nightfall. Do not go down without a light." Somewhere above you a floorboard creaks, then all is quiet again. The clock on the wall has stopped at a quarter past three.`;
const GUIDE = 'Take the brass lantern from the kitchen table first, then go down the stairway with it lit. The chapel to the east gave points for ringing the bell: go there after the cellar. Never drop the lantern. Commands the parser rejected: "use lantern", "search room". Try "open trapdoor" in the cellar next.';
const LONG_GUIDE = `${GUIDE} Facts so far: the kitchen connects north to the hall and down to the cellar; the hall has a locked cabinet (key not found yet); the garden is east of the hall through a glass door that must be opened first; the chapel is beyond the garden; the bell rope breaks if pulled twice. Route that scored in the best episode: take lantern, turn on lantern, down, open trapdoor, take key, up, north, unlock cabinet with key, open cabinet, take map, east, open door, east, ring bell. Deaths: going down without light ends the game in two moves. Unexplored: the attic (above the hall), the well in the garden, and the east window. Spend the last steps on the attic: try "up" from the hall, then "examine ladder". Keep score in mind: every new area visited so far gave points once.`;

const SAMPLES: Record<Scenario, SampleTexts> = {
  low: {
    observation: SHORT_ROOM,
    action: 'take lantern',
    actorReply: 'REASONING: The lantern will help in the dark stairway, so I take it first.\nACTION: take lantern',
    learnedGuide: GUIDE,
    metaReply: `<think>The actor scored only by entering the cellar; it wasted ten steps on rejected commands and never tried the chapel, which the log shows is reachable from the garden.</think><learn>${GUIDE}</learn>`,
    summary: 'Took the lantern, went down into the cellar (+5), found a trapdoor but could not open it, wandered the hall and was rejected on "use lantern" several times. Ended at 5 points with the chapel unexplored.',
    proposerReply: `The record shows the meta-agent rewrote the guide from scratch each time and lost facts it had learned. The new strategy keeps a route and a fact list.\n<strategy>After each episode, keep the commands that led to points as a numbered route and list verified facts by room. Tell the actor to replay the route first, then spend the remaining steps on one unexplored lead. Warn against every action that lost points.</strategy>`,
    strategy: 'After each episode, keep the commands that led to points as a numbered route and list verified facts by room. Tell the actor to replay the route first, then spend the remaining steps on one unexplored lead. Warn against every action that lost points.',
  },
  high: {
    observation: LONG_ROOM,
    action: 'take lantern',
    actorReply: 'REASONING: The lantern will help in the dark stairway, and the note warns against going down without a light, so I take it before anything else.\nACTION: take lantern',
    learnedGuide: LONG_GUIDE,
    metaReply: '',
    summary: `${GUIDE} ${GUIDE}`,
    proposerReply: '',
    strategy: `${LONG_GUIDE} ${GUIDE}`,
  },
};

export const samples = (scenario: Scenario): SampleTexts => SAMPLES[scenario];

/** What a session looks like, for its estimate. */
export interface SessionShape {
  /** K and S. */
  episodes: number;
  maxSteps: number;
  initialGuidingPrompt: string;
  /** Context window of the meta-agent / reflection model, tokens. */
  contextWindow: number;
}

/** A synthetic trajectory of S distinct steps with the scenario's observation (for log sizes). */
export function syntheticTrajectory(guidingPrompt: string, shape: SessionShape, scenario: Scenario): Trajectory {
  const s = samples(scenario);
  const steps = Array.from({ length: shape.maxSteps }, (_, i) => ({
    index: i + 1, observation: `${s.observation} (${i + 1})`, reply: s.actorReply, finishReason: 'stop', action: s.action, parseStatus: 'ok' as const,
    extraActions: [], reward: 0, score: 0, moves: i + 1, promptTokens: 0, completionTokens: 0, reasoningTokens: 0, latencyMs: 0, costUsd: 0, error: null,
  }));
  return {
    format: 'metattl-trajectory-1', story: { title: 'Story', md5: '0'.repeat(32), maxScore: 100 }, seed: 0, maxSteps: shape.maxSteps, guidingPrompt,
    actorModel: 'model', startObservation: s.observation, startScore: 0, steps, finalObservation: s.observation, termination: 'step_limit',
    stopReason: null, finalScore: 0, endReason: null, startedAt: '', finishedAt: '',
  };
}

/** A synthetic session of K episodes whose meta-agent replied `metaReply` after each (for the
 * proposer's reflective dataset size). */
export function syntheticSession(shape: SessionShape, scenario: Scenario, metaReply: string): SessionRecord {
  const s = samples(scenario);
  const episodes = Array.from({ length: shape.episodes }, (_, i) => {
    const trajectory = syntheticTrajectory(i === 0 ? shape.initialGuidingPrompt : s.learnedGuide, shape, scenario);
    return { index: i + 1, guidingPrompt: trajectory.guidingPrompt, trajectory, steps: trajectory.steps, finalScore: 0, termination: 'step_limit' as const };
  });
  const exchanges = episodes.slice(0, -1).map((e) => ({
    afterEpisode: e.index, kind: 'meta_agent' as const, userMessage: '', reply: metaReply, finishReason: 'stop', learnStatus: 'updated' as const,
    guidingPromptAfter: s.learnedGuide, usage: null, droppedEpisodes: [], notice: null, error: null,
  }));
  return {
    format: 'metattl-session-1', id: 'estimate', status: 'complete', stopReason: null, stopMessage: null, episodes, exchanges, faultedEpisodes: 0, faults: [],
    scores: episodes.map(() => 0), wAuc: 0, averageScore: 0, bestScore: 0, startedAt: '', finishedAt: null, wallTimeMs: 0,
    config: {
      story: { id: 'story', title: 'Story', md5: '0'.repeat(32), maxScore: 100 }, seed: 0, policy: { kind: 'static' }, metaPrompt: null,
      episodes: shape.episodes, maxSteps: shape.maxSteps, initialGuidingPrompt: shape.initialGuidingPrompt,
      models: { actor: { model: 'm', temperature: null, maxTokens: 1 }, reflection: null }, provider: { presetId: 'custom', baseUrl: '' }, contextWindow: null,
    },
  };
}
