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
import type { Trajectory } from '../../agents/trajectory.ts';
import { importTrajectory } from '../../agents/trajectory-io.ts';
import { wAuc } from '../../ttl/metrics.ts';
import { evolutionStateSchema, EVOLUTION_EXPORT_FORMAT, importEvolution } from '../../evolve/evolution-io.ts';
import type { Candidate, EvolutionState, MetricCall } from '../../evolve/interface.ts';
import { EVOLUTION_PAYLOAD, evolutionEventOf, upgradeEvolutionPayload } from '../../evolve/evolution-payload.ts';
import { checkPayloadVersion } from '../../store/payload.ts';
import { importSession, sessionSchema } from '../../ttl/session-io.ts';
import { upgradeSessionPayload } from '../../ttl/session-payload.ts';
import type { SessionRecord } from '../../ttl/session-record.ts';
import type { EvaluationReport } from '../../eval/interface.ts';
import { policyLabel } from '../shared/format/learn-form.ts';
import { creditsLine } from '../shared/replay/model-label.ts';
import { describeModel, exportedModelProblem, MODEL_CSV_COLUMNS, modelCsvCells, type RunModels } from '../../llm/model-label.ts';
import { policyNamesOf, reportOf } from './replay-report.ts';

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
  /** `report`: the results table's data (null when the file has none the table can draw);
   * `names`: policy id → name for people. */
  | { kind: 'evaluation'; id: string; items: ReplayItem[]; withoutRecord: number; report: EvaluationReport | null; names: ReadonlyMap<string, string> }
  /** `state`: the whole run (candidates, fronts, progress), for the dashboard's views. */
  | { kind: 'evolution'; id: string; items: ReplayItem[]; candidates: CandidateRow[]; progress: EvolutionState['progress']; state: EvolutionState };

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

const PURPOSES: Record<MetricCall['purpose'], string> = { 'seed-val': 'seed validation', 'parent-mb': 'parent minibatch', 'child-mb': 'child minibatch', 'child-val': 'child validation', 'merge-mb': 'merge subsample', 'human-parent-mb': 'parent minibatch (human candidate)', 'human-mb': 'human candidate minibatch', 'human-val': 'human candidate validation' };

function evolutionSource(state: EvolutionState, calls: { call: MetricCall; session: SessionRecord }[]): ReplaySource {
  const items = calls.map(({ call, session }) => itemOf(session, `${call.candidateId} (${PURPOSES[call.purpose]}, repeat ${call.repeat + 1}) · `));
  return { kind: 'evolution', id: state.id, items, candidates: candidateRows(state), progress: state.progress, state };
}

function evaluationSource(data: Record<string, unknown>): ReplaySource {
  const rows = data.sessions;
  if (!Array.isArray(rows)) throw new ImportError('This evaluation file has no "sessions" list.');
  // Who played it: the file's `model` block (absent in older files) must be its config's models.
  const models = isObject(data.config) && isObject(data.config.models) ? (data.config.models as RunModels) : {};
  const modelProblem = exportedModelProblem(data.model, models);
  if (modelProblem !== null) throw new ImportError(`This is not a valid evaluation file: ${modelProblem}`);
  const items: ReplayItem[] = [];
  const report = reportOf(data);
  const names = policyNamesOf(data, report);
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
    const record = upgradeSessionPayload(parsed.data);
    // The row's numbers must be its session's (the same check the evaluation's resume makes).
    if (typeof row.wAuc === 'number' && Math.abs(row.wAuc - (record.wAuc ?? 0)) > 1e-9) throw new ImportError(`This is not a valid evaluation file: sessions.${i}.wAuc: W-AUC ${row.wAuc} is not its session's (${record.wAuc ?? 0})`);
    const k = isObject(data.config) ? data.config.episodes : undefined;
    if (typeof k === 'number' && record.config.episodes !== k) throw new ImportError(`This is not a valid evaluation file: sessions.${i}.session.config.episodes: K = ${record.config.episodes}, the evaluation's is K = ${k}`);
    const policy = typeof row.policyId === 'string' ? `${names.get(row.policyId) ?? row.policyId} · ` : '';
    const repeat = typeof row.repeat === 'number' ? ` · repeat ${row.repeat + 1}` : '';
    const item = itemOf(record, policy);
    items.push({ ...item, label: item.label + repeat });
  });
  return { kind: 'evaluation', id: typeof data.id === 'string' ? data.id : '(no id)', items, withoutRecord, report, names };
}

/** The `format` tag of `metattl eval`'s results.json. */
export const EVALUATION_RESULTS_FORMAT = 'metattl-evaluation-results-1';

/**
 * A trajectory (`metattl play --out`, the Agent view's export) as a one-episode session with the
 * static policy (nothing adapted between episodes, there being one), so it replays like any
 * session: K = 1, S = the trajectory's step limit, W-AUC from its one score (method.md, "Metrics").
 */
export function trajectorySession(t: Trajectory): SessionRecord {
  const score = t.finalScore ?? 0;
  const scores = [score];
  return {
    format: 'metattl-session-1', id: `trajectory ${t.startedAt}`, faultedEpisodes: 0, faults: [],
    config: {
      story: { id: null, title: t.story.title, md5: t.story.md5, maxScore: t.story.maxScore }, ...(t.task ? { task: t.task } : {}), seed: t.seed,
      policy: { kind: 'static' }, metaPrompt: null, episodes: 1, maxSteps: t.maxSteps, initialGuidingPrompt: t.guidingPrompt,
      models: { actor: { model: t.actorModel, temperature: null, maxTokens: 1 }, reflection: null }, provider: { presetId: '', baseUrl: '' }, contextWindow: null,
    },
    status: t.termination === 'aborted' ? 'stopped' : 'complete', stopReason: t.stopReason, stopMessage: null,
    episodes: [{ index: 1, guidingPrompt: t.guidingPrompt, trajectory: t, steps: t.steps, finalScore: t.finalScore, termination: t.termination }],
    exchanges: [], scores, wAuc: wAuc(scores, t.story.maxScore), averageScore: score, bestScore: score,
    startedAt: t.startedAt, finishedAt: t.finishedAt, wallTimeMs: Math.max(0, Date.parse(t.finishedAt) - Date.parse(t.startedAt)) || 0,
  };
}

/**
 * A bare evolution state (a store header's data, or a state file), validated, in the current
 * payload shape. `at`: the path prefix of its fields in messages; `version`: its payload version
 * (the header's, or the file's; absent = 0).
 * @throws PayloadVersionError when a newer version wrote it; ImportError naming the first bad field
 */
function evolutionStateOf(data: unknown, at: string, version: unknown): EvolutionState {
  // A newer version's state is refused before the schema drops what it does not know.
  checkPayloadVersion(EVOLUTION_PAYLOAD, version);
  const parsed = evolutionStateSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ImportError(`This is not a valid evolution run: ${at}${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return upgradeEvolutionPayload(parsed.data, version);
}

/** A store's run header file (`--store DIR`'s `runs/<sha1>.json`: `{ id, kind, updatedAt, summary, data }`). */
const isStoreHeader = (data: Record<string, unknown>): boolean =>
  typeof data.id === 'string' && (data.kind === 'session' || data.kind === 'evolution' || data.kind === 'evaluation') && typeof data.updatedAt === 'number' && 'data' in data;

/** An evolution's store header holds its whole state (candidates, progress); a session's or an
 * evaluation's holds no episodes (they are in the events file beside it). */
function storeHeaderSource(header: Record<string, unknown>): ReplaySource {
  if (header.kind === 'evolution') return evolutionSource(evolutionStateOf(header.data, 'data.', header.payloadVersion), []);
  const what = header.kind === 'session' ? 'a session' : 'an evaluation';
  const instead = header.kind === 'session' ? '`metattl session … --out FILE` writes its export' : 'open the results.json `metattl eval` wrote to its --out folder';
  throw new ImportError(`This is the store header of ${what} (a --store folder's runs/…json): its episodes are in the events file beside it, not here. To replay it, ${instead}.`);
}

/** Why a text that is not JSON cannot be replayed when it is one of our other files, else null. */
function notJsonKind(text: string): string | null {
  const head = text.trimStart();
  if (head.startsWith('policy,task_set,')) return 'This is an evaluation’s summary.csv (its table only, no sessions): open the results.json beside it (the same --out folder) to replay its sessions.';
  if (head.startsWith('# Evaluation report')) return 'This is an evaluation’s report.md (its table only, no sessions): open the results.json beside it (the same --out folder) to replay its sessions.';
  if (head.startsWith('{"seq":')) return 'This is a store’s events file (runs/….events.jsonl): open an export instead — `metattl session --out`, the results.json of `metattl eval`, or for an evolution the runs/….json beside it.';
  return null;
}

/**
 * Read a file the Replay view was given.
 * @throws ImportError with a readable reason (not JSON, not one of our formats, the first invalid field)
 */
export function parseReplayFile(text: string): ReplaySource {
  const notJson = notJsonKind(text);
  if (notJson) throw new ImportError(notJson);
  const data = parseExportJson(text);
  const format = isObject(data) ? data.format : undefined;
  if (format === 'metattl-session-1') return { kind: 'session', items: [itemOf(upgradeSessionPayload(importSession(text)))] };
  if (format === EVOLUTION_EXPORT_FORMAT) {
    const run = importEvolution(text);
    const calls = run.events.flatMap((e) => {
      const data = evolutionEventOf(e.data);
      return data.type === 'call' ? [data] : [];
    });
    return evolutionSource(run.state, calls);
  }
  if (format === 'metattl-evolution-1') return evolutionSource(evolutionStateOf(data, '', isObject(data) ? data.payloadVersion : undefined), []);
  if (format === 'metattl-trajectory-1') return { kind: 'session', items: [itemOf(trajectorySession(importTrajectory(text)))] };
  if (format === 'metattl-evaluation-1') throw new ImportError('This is an evaluation’s saved state, which holds no sessions: export its JSON results from the Evaluate view (or use `metattl eval`’s results.json).');
  // `metattl eval` tags its results.json; the Evaluate view's export has no tag.
  if (isObject(data) && (format === EVALUATION_RESULTS_FORMAT || (format === undefined && 'sessions' in data))) return evaluationSource(data);
  if (isObject(data) && format === undefined && isStoreHeader(data)) return storeHeaderSource(data);
  throw new ImportError('This is not a Meta-TTL session, evolution or evaluation file (expected a session export, an evolution export or an evaluation results.json).');
}

/** The candidates table of an evolution file without sessions, as CSV: id, parent, status, mean
 * validation W-AUC (empty when none), why it was kept or not, and who played the run (`model`:
 * model and model_caveat, llm/model-label.ts; "unknown model" without it). */
export function replayCandidateTable(candidates: readonly CandidateRow[], model: { name: string; caveat: string | null } = describeModel({})): CsvTable {
  const who = modelCsvCells(model);
  return { header: ['candidate', 'parent', 'status', 'mean validation W-AUC', 'reason', ...MODEL_CSV_COLUMNS], rows: candidates.map((c) => [c.id, c.parentId, c.status, c.meanVal, c.reason, ...who]) };
}
