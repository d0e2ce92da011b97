/**
 * The booth's pace: how long each replay frame stays on screen so that a caption can be read from
 * the back of a room, and what the booth plays, read from the shipped recordings. Pure.
 */
import type { ReplayFrame } from '../../ttl/replay.ts';
import type { FrameCaption } from '../../ttl/session-captions.ts';
import { sessionSchema } from '../../ttl/session-io.ts';
import { upgradeSessionPayload } from '../../ttl/session-payload.ts';
import type { SessionRecord } from '../../ttl/session-record.ts';
import { sessionModel } from '../../ttl/session-model.ts';
import { creditsOf } from '../shared/replay/model-label.ts';
import type { ShippedReplay } from '../shared/replay/shipped-replays.ts';

/** One recording the booth plays: its session, and in words what and who played it. */
export interface KioskRecording {
  /** "The Lever Room · naive meta-agent" (story · policy). */
  title: string;
  /** Who played: "actor: simulated model · meta-agent: simulated model (simulated model — not a language model; …)". */
  credits: string;
  record: SessionRecord;
  /** A live booth's session: its number (1-based); absent for a recording. */
  live?: number;
}

export interface KioskPace {
  /** A step whose caption headline did not change, ms. */
  stepMs: number;
  /** An episode's start, an episode's end, the guide's rewrite (their headline is new), at least, ms. */
  eventMs: number;
  /** Reading time per word of a new headline, ms (250 ms = 240 words a minute, a slow reader's pace). */
  perWordMs: number;
  /** The last frame of a recording (its final score) before the next recording, ms. */
  endHoldMs: number;
  /** A tap pauses; with no tap for this long the loop resumes, ms. */
  idleMs: number;
}

/** The booth's default pace: a step every 1.2 s, a new headline held ≥ 3.5 s and ≥ 250 ms a word
 * plus 1.5 s to find it, the final score 8 s, back to the loop 30 s after the last tap. */
export const KIOSK_PACE: KioskPace = { stepMs: 1_200, eventMs: 3_500, perWordMs: 250, endHoldMs: 8_000, idleMs: 30_000 };

/**
 * How long frame `frame` stays on screen, ms: a step `pace.stepMs`; a frame whose caption headline
 * is new (`previous` differs, or none) at least `pace.eventMs` and long enough to read it
 * (`perWordMs` a word + 1.5 s to look up).
 */
export function kioskDwellMs(frame: ReplayFrame, caption: FrameCaption, previous: FrameCaption | null, pace: KioskPace = KIOSK_PACE): number {
  const fresh = previous === null || previous.headline !== caption.headline;
  if (!fresh) return frame.kind === 'step' ? pace.stepMs : pace.eventMs;
  const words = caption.headline.split(/\s+/).filter((w) => w !== '').length;
  return Math.max(pace.eventMs, 1_500 + words * pace.perWordMs);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const POLICY_WORDS: Readonly<Record<string, string>> = { static: 'fixed guide', reflexion: 'Reflexion', memory: 'memory', textgrad: 'TextGrad', human: 'a person as meta-agent' };

/** A recording's title and credits: the models always named, and a model that is not a language
 * model (simulated, scripted) with its caveat (llm/model-label.ts). */
export function kioskRecording(record: SessionRecord): KioskRecording {
  const c = record.config;
  const policy = c.policy.kind === 'meta' ? `${c.policy.name} meta-agent` : POLICY_WORDS[c.policy.kind] ?? c.policy.kind;
  const credits = creditsOf(c);
  const { caveat } = sessionModel(c);
  return { title: `${c.story.title} · ${policy}`, credits: `actor: ${credits.actor} · ${credits.adapter}${caveat ? ` (${caveat})` : ''}`, record };
}

/**
 * The sessions of a shipped recording's text: the session of a session file, each recorded session
 * of an evaluation (`sessions[].session`); none for an evolution (its file holds no sessions).
 * Records that do not validate (`sessionSchema`) are left out, so a bad file cannot stop the booth.
 */
export function kioskRecordingsOf(entry: Pick<ShippedReplay, 'kind'>, text: string): KioskRecording[] {
  const data: unknown = JSON.parse(text);
  if (!isObject(data)) return [];
  const candidates = entry.kind === 'session' ? [data] : entry.kind === 'evaluation' && Array.isArray(data.sessions) ? data.sessions.map((row) => (isObject(row) ? row.session : null)) : [];
  const out: KioskRecording[] = [];
  for (const candidate of candidates) {
    const parsed = sessionSchema.safeParse(candidate);
    if (parsed.success && parsed.data.episodes.length > 0) out.push(kioskRecording(upgradeSessionPayload(parsed.data)));
  }
  return out;
}
