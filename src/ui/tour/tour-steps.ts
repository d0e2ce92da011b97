/**
 * The guided tour's text: in plain words, on the teaching game The Lever Room (games/README.md),
 * what the actor, an episode, the meta-agent, the meta-prompt and W-AUC are (method.md, "Roles",
 * "Inner loop", "Metrics"). The W-AUC example uses the shipped replay's scores (0, 1, 3, 4, 4 of
 * 5 → 0.627). Once the user chose the simulated model ("Try it without a key"), the steps that say
 * who plays name it instead of a language model (`tourSteps(true)`). Pure data.
 */

export interface TourStep {
  /** Stable id (tests, analytics-free deep links). */
  id: string;
  title: string;
  /** Paragraphs of plain text. */
  paragraphs: readonly string[];
  /** A short example shown in monospace, or null. */
  example: string | null;
}

/** Who plays, in the steps' words: a language model, or the simulated model once it was chosen. */
const WHO_PLAYS = {
  model: {
    welcome: 'In this playground a language model plays a text adventure, fails, and tries again — and gets better from one attempt to the next without any retraining.',
    actor: 'The actor is the language model that plays. At each step it reads what the game shows and types one command.',
  },
  simulated: {
    welcome: 'In this playground the simulated model you chose plays a text adventure, fails, and tries again — and gets better from one attempt to the next without any retraining. It is not a language model: it shows how the loop works; connect a provider in Settings to watch a real one.',
    actor: 'The actor is the model that plays — here the simulated model. At each step it reads what the game shows and types one command.',
  },
} as const;

/** The tour's steps; `simulated`: the user chose the simulated model, so the steps saying who
 * plays name it (default: a language model). */
export function tourSteps(simulated = false): readonly TourStep[] {
  const who = simulated ? WHO_PLAYS.simulated : WHO_PLAYS.model;
  return STEPS.map((step) => (step.id === 'welcome' ? { ...step, paragraphs: [who.welcome, ...step.paragraphs.slice(1)] } : step.id === 'actor' ? { ...step, paragraphs: [who.actor, ...step.paragraphs.slice(1)] } : step));
}

const STEPS: readonly TourStep[] = [
  {
    id: 'welcome',
    title: 'Agents that learn across attempts',
    paragraphs: [
      WHO_PLAYS.model.welcome,
      'We follow it on a small teaching game, The Lever Room: four levers must be pulled in a secret order. A wrong pull ends the game, and the game then says which lever was due.',
    ],
    example: null,
  },
  {
    id: 'actor',
    title: 'The actor',
    paragraphs: [
      WHO_PLAYS.model.actor,
      'It also reads a short guiding prompt: advice on how to play. At first that is just “explore systematically”.',
    ],
    example: 'The game: There are four levers: red, green, blue and yellow.\nThe actor: ACTION: pull red lever',
  },
  {
    id: 'episode',
    title: 'An episode',
    paragraphs: [
      'An episode is one attempt: the game restarts from the very same state (same seed, so the same secret order) and the actor plays until the game ends or it runs out of steps.',
      'The score at the end is the episode’s score. A session is several episodes in a row on the same game: K episodes of at most S steps.',
    ],
    example: 'Episode 1: pull red lever → trapdoor! Game over, score 0.\n  "Next time, try: PULL YELLOW LEVER."',
  },
  {
    id: 'meta-agent',
    title: 'The meta-agent',
    paragraphs: [
      'Between episodes a second model, the meta-agent, reads the log of the episode that just ended and rewrites the actor’s guiding prompt.',
      'That rewrite is the whole learning: the actor itself never changes, only the advice it gets. In the Learn view you can even play the meta-agent yourself (policy “You (human meta-agent)”).',
    ],
    example: 'New guide for episode 2:\n  PLAN: 1. PULL YELLOW LEVER. Then explore.',
  },
  {
    id: 'meta-prompt',
    title: 'The meta-prompt',
    paragraphs: [
      'The meta-prompt is the meta-agent’s own instructions: how to read a log and what to keep in the guide (for example: keep the commands that scored, and the hints the game gave).',
      'A naive meta-prompt says almost nothing. Better meta-prompts make the actor learn faster; the Evolve view searches for them automatically, and the Library keeps them.',
    ],
    example: null,
  },
  {
    id: 'w-auc',
    title: 'W-AUC: one number for the learning curve',
    paragraphs: [
      'The learning curve is the score of each episode. W-AUC sums it up: each score is divided by the game’s best possible score, and later episodes count more (episode t has weight t). 1 means perfect from the start; learning late gives less than learning early.',
      'The recorded Lever Room session scores 0, 1, 3, 4 and 4 out of 5 in its five episodes: W-AUC = (1·0 + 2·1 + 3·3 + 4·4 + 5·4) / (5 · 15) = 0.627.',
    ],
    example: 'W-AUC = Σ t·score_t / (max score · Σ t)',
  },
  {
    id: 'try',
    title: 'Try it',
    paragraphs: [
      'Watch that recorded session step by step in the Replay view — no provider or key needed. Or run your own sessions in the Learn view: without a key on the simulated model (not a language model — it shows how the loop works, not how real models behave), or by connecting your provider in Settings.',
      'You can open this tour again at any time with the “Tour” button at the top.',
    ],
    example: null,
  },
];

/** The tour's steps as a first visitor reads them (a language model plays). */
export const TOUR_STEPS: readonly TourStep[] = STEPS;
