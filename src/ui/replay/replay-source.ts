/**
 * What the Replay view can open, read from a file's text (validated; a bad file throws an
 * `ImportError` whose message says what is wrong): a session export ("metattl-session-1"), an
 * evolution export ("metattl-evolution-export-1": the sessions of its metric calls, else its
 * candidates and progress), a bare evolution state ("metattl-evolution-1": candidates and
 * progress), and an evaluation's results.json (`sessions[].session`, as the Evaluate view and
 * `metattl eval` write it). Pure; nothing here needs a provider.
 */
import type { CsvTable } from '../../eval/csv.ts';
import { ImportError, parseExportJson } from '../../agents/export-file.ts';
import { evolutionStateSchema, EVOLUTION_EXPORT_FORMAT, importEvolution } from '../../evolve/evolution-io.ts';
import type { Candidate, EvolutionState, MetricCall } from '../../evolve/interface.ts';
import { importSession, sessionSchema } from '../../ttl/session-io.ts';
import type { SessionRecord } from '../../ttl/session-record.ts';
import { policyLabel } from '../shared/format/learn-form.ts';
import { creditsLine } from './model-label.ts';

/** One replayable session of a file. */
export interface ReplayItem {
  /** Short title, e.g. "The Lever Room · naive meta-agent · seed 1". */
  label: string;
  /** Its models and outcome, e.g. "actor … · meta-agent: … · W-AUC 0.627". */
  detail: string;
  record: SessionRecord;
}

/** A candidate row of an evolution without sessions to replay. */
export interface CandidateRow {
  id: string;
  parentId: string | null;
  status: Candidate['status'];
  /** Mean validation W-AUC; null when it has none (rejected, failed). */
  meanVal: number | null;
  reason: string;
}

export type ReplaySource =
  | { kind: 'session'; items: ReplayItem[] }
  | { kind: 'evaluation'; id: string; items: ReplayItem[]; withoutRecord: number }
  | { kind: 'evolution'; id: string; items: ReplayItem[]; candidates: CandidateRow[]; progress: EvolutionState['progress'] };

const wAucText = (w: number | null): string => (w === null ? 'W-AUC n/a' : `W-AUC ${w.toFixed(3)}`);

/** The list entry of a session record. */
export function itemOf(record: SessionRecord, prefix = ''): ReplayItem {
  const c = record.config;
  const scores = record.scores.length ? `scores ${record.scores.join(', ')}` : 'no episode ended';
  return {
    label: `${prefix}${c.story.title} · ${policyLabel(c.policy)} · seed ${c.seed}`,
    detail: `${creditsLine(c)} · K=${c.episodes}, S=${c.maxSteps} · ${scores} · ${wAucText(record.wAuc)}`,
    record,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function candidateRows(state: EvolutionState): CandidateRow[] {
  return state.candidates.map((c) => {
    const vals = Object.values(c.valScores);
    return { id: c.id, parentId: c.parentId, status: c.status, meanVal: vals.length ? vals.reduce((a, b) => a + b, 0) / vals.length : null, reason: c.reason };
  });
}

const PURPOSES: Record<MetricCall['purpose'], string> = { 'seed-val': 'seed validation', 'parent-mb': 'parent minibatch', 'child-mb': 'child minibatch', 'child-val': 'child validation' };

function evolutionSource(state: EvolutionState, calls: { call: MetricCall; session: SessionRecord }[]): ReplaySource {
  const items = calls.map(({ call, session }) => itemOf(session, `${call.candidateId} (${PURPOSES[call.purpose]}, repeat ${call.repeat + 1}) · `));
  return { kind: 'evolution', id: state.id, items, candidates: candidateRows(state), progress: state.progress };
}

function evaluationSource(data: Record<string, unknown>): ReplaySource {
  const rows = data.sessions;
  if (!Array.isArray(rows)) throw new ImportError('This evaluation file has no "sessions" list.');
  const items: ReplayItem[] = [];
  let withoutRecord = 0;
  rows.forEach((row, i) => {
    if (!isObject(row)) throw new ImportError(`This is not a valid evaluation file: sessions.${i} is not an object.`);
    if (row.session === null || row.session === undefined) {
      withoutRecord++;
      return;
    }
    const parsed = sessionSchema.safeParse(row.session);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ImportError(`This is not a valid evaluation file: sessions.${i}.session.${issue.path.join('.')}: ${issue.message}`);
    }
    const policy = typeof row.policyId === 'string' ? `${row.policyId} · ` : '';
    const repeat = typeof row.repeat === 'number' ? ` · repeat ${row.repeat + 1}` : '';
    const item = itemOf(parsed.data as SessionRecord, policy);
    items.push({ ...item, label: item.label + repeat });
  });
  return { kind: 'evaluation', id: typeof data.id === 'string' ? data.id : '(no id)', items, withoutRecord };
}

/**
 * Read a file the Replay view was given.
 * @throws ImportError with a readable reason (not JSON, not one of our formats, the first invalid field)
 */
export function parseReplayFile(text: string): ReplaySource {
  const data = parseExportJson(text);
  const format = isObject(data) ? data.format : undefined;
  if (format === 'metattl-session-1') return { kind: 'session', items: [itemOf(importSession(text))] };
  if (format === EVOLUTION_EXPORT_FORMAT) {
    const run = importEvolution(text);
    const calls = run.events.flatMap((e) => (isObject(e.data) && e.data.type === 'call' ? [e.data as unknown as { call: MetricCall; session: SessionRecord }] : []));
    return evolutionSource(run.state, calls);
  }
  if (format === 'metattl-evolution-1') {
    const parsed = evolutionStateSchema.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ImportError(`This is not a valid evolution run: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
    return evolutionSource(parsed.data as EvolutionState, []);
  }
  if (format === 'metattl-trajectory-1') throw new ImportError('This is a single-episode trajectory (an Agent view export): open it in the Agent view. The Replay view opens session, evolution and evaluation files.');
  if (format === 'metattl-evaluation-1') throw new ImportError('This is an evaluation’s saved state, which holds no sessions: export its JSON results from the Evaluate view (or use `metattl eval`’s results.json).');
  if (isObject(data) && format === undefined && 'sessions' in data) return evaluationSource(data);
  throw new ImportError('This is not a Meta-TTL session, evolution or evaluation file (expected a session export, an evolution export or an evaluation results.json).');
}

/** The candidates table of an evolution file without sessions, as CSV: id, parent, status, mean
 * validation W-AUC (empty when none) and why it was kept or not. */
export function replayCandidateTable(candidates: readonly CandidateRow[]): CsvTable {
  return { header: ['candidate', 'parent', 'status', 'mean validation W-AUC', 'reason'], rows: candidates.map((c) => [c.id, c.parentId, c.status, c.meanVal, c.reason]) };
}
