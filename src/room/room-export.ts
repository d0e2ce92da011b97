/**
 * The room's results and submissions as files (`GET /api/export?format=…`, the teacher's download
 * before "end room"): JSON (everything), two CSVs (the leaderboards; the submissions with their
 * texts), Markdown and a standalone HTML page. Pure: the server hands in the document's snapshot,
 * the submission texts it keeps privately and who played the scoring.
 *
 * - Left out: removed participants and removed submissions (moderation), tokens, usage and keys.
 *   Every text is scrubbed of registered secrets (common/secrets.ts), so a key pasted into a
 *   prompt never leaves in an export.
 * - Names and prompts are untrusted: CSV cells are quoted (and guarded against formulas) by the one
 *   CSV writer (eval/csv.ts), HTML is escaped, Markdown table cells have `|`, `<`, `>`, `&` and line
 *   breaks escaped.
 * - Every number says its unit: W-AUC (0–1, mean over sessions), its 95 % interval, n sessions =
 *   hidden tasks × repeats; K episodes of S steps. Both CSVs end with `model` and `model_caveat`,
 *   like every results CSV of the project (llm/model-label.ts).
 */
import { scrubKeys } from '../common/secrets.ts';
import { toCsv } from '../eval/csv.ts';
import { escapeHtml } from '../eval/report-html.ts';
import { MODEL_CSV_COLUMNS, modelCsvCells, type ModelIdentity } from '../llm/model-label.ts';
import { leaderboard } from './leaderboard.ts';
import type { LeaderboardRow, ParticipantPublic, RoundPublic, ScoreState, SubmissionPublic } from './protocol.ts';
import type { RoomState } from './room-doc.ts';

/** What an export is made of. */
export interface RoomExportInput {
  state: RoomState;
  /** Submission texts by submission id (the server's private state); a missing one exports as ''. */
  texts: Readonly<Record<string, string>>;
  /** Who played the scoring sessions (llm/model-label.ts `describeModel` of the room's models). */
  model: ModelIdentity;
  /** When the export was made (ISO 8601). */
  exportedAt: string;
}

/** The export formats: `csv` is the leaderboards, `submissions-csv` the submissions with texts. */
export type RoomExportFormat = 'json' | 'csv' | 'submissions-csv' | 'md' | 'html';
export const ROOM_EXPORT_FORMATS: readonly RoomExportFormat[] = ['json', 'csv', 'submissions-csv', 'md', 'html'];

/** A file to send: its text, its media type and a file name. */
export interface RoomExportFile {
  body: string;
  contentType: string;
  fileName: string;
}

/** One submission as exported. */
interface ExportedSubmission {
  submission: SubmissionPublic;
  name: string;
  score: ScoreState | null;
  text: string;
}

/** One round as exported: its settings, leaderboard and kept submissions. */
interface ExportedRound {
  round: RoundPublic;
  leaderboard: LeaderboardRow[];
  submissions: ExportedSubmission[];
}

/** The rounds with their leaderboards and submissions, removed ones left out. */
function exportedRounds(input: RoomExportInput): ExportedRound[] {
  const { state } = input;
  const people = new Map<string, ParticipantPublic>(state.participants.filter((p) => !p.removed).map((p) => [p.id, p]));
  return state.rounds.map((round) => ({
    round,
    leaderboard: leaderboard(state, round.id),
    submissions: state.submissions
      .filter((s) => s.roundId === round.id && people.has(s.participantId) && state.scores[s.id]?.status !== 'removed')
      .map((s) => ({ submission: s, name: people.get(s.participantId)!.name, score: state.scores[s.id] ?? null, text: input.texts[s.id] ?? '' })),
  }));
}

/** Units of the numbers, as words every format carries. */
export const ROOM_EXPORT_UNITS = {
  wauc: 'W-AUC of a session on a hidden task (0–1: Σ t·s_t / (M · Σ t) over its K episodes), averaged over the submission\'s sessions',
  interval: '95 % percentile bootstrap interval of that mean (B = 2,000, seeded: hidden games, then seeds, then repeats)',
  sessions: 'sessions played = hidden tasks × repeats per task',
  curve: 'mean final score ÷ the game\'s max score after each episode (1…K)',
} as const;

const sessionsText = (n: number, round: RoundPublic) => `${n} session${n === 1 ? '' : 's'} (${round.hiddenTaskCount} hidden task${round.hiddenTaskCount === 1 ? '' : 's'} × ${round.repeats} repeat${round.repeats === 1 ? '' : 's'})`;
const fixed = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');

/** The JSON export (format `metattl-room-export-1`). */
export function roomExportJson(input: RoomExportInput): string {
  const { model } = input;
  const rounds = exportedRounds(input).map(({ round, leaderboard: rows, submissions }) => ({
    id: round.id, index: round.index, title: round.title, state: round.state, openedAt: round.openedAt,
    practiceTasks: round.practiceTasks, hiddenTasks: round.hiddenTasks, hiddenTaskCount: round.hiddenTaskCount,
    repeatsPerHiddenTask: round.repeats, episodesPerSession: round.episodes, stepsPerEpisode: round.steps,
    leaderboard: rows.map((r) => ({ rank: r.rank, participantId: r.participantId, name: r.name, submissionId: r.submissionId, version: r.version, wauc: r.score.wauc, low: r.score.low, high: r.score.high, sessions: r.score.n, curve: r.score.curve })),
    submissions: submissions.map(({ submission: s, name, score, text }) => ({
      id: s.id, participantId: s.participantId, name, version: s.version, submittedAt: s.submittedAt, source: s.source, chars: s.chars,
      status: score?.status ?? 'queued', message: score?.message ?? null, score: score?.score ?? null, text,
    })),
  }));
  const participants = input.state.participants.filter((p) => !p.removed).map((p) => ({ id: p.id, name: p.name, joinedAt: p.joinedAt }));
  const body = {
    format: 'metattl-room-export-1', title: input.state.settings?.title ?? 'Workshop room', exportedAt: input.exportedAt,
    model: { name: model.name, simulated: model.simulated, kind: model.kind, caveat: model.caveat }, units: ROOM_EXPORT_UNITS,
    participants, rounds,
  };
  return scrubKeys(`${JSON.stringify(body, null, 2)}\n`);
}

/** The leaderboards CSV: one row per (round, ranked participant). */
export function roomResultsCsv(input: RoomExportInput): string {
  const header = ['round', 'round_title', 'rank', 'name', 'participant_id', 'submission_id', 'version', 'wauc_mean', 'wauc_low_95', 'wauc_high_95', 'sessions', 'hidden_tasks', 'repeats_per_task', 'episodes_k', 'steps_s', ...MODEL_CSV_COLUMNS];
  const model = modelCsvCells(input.model);
  const rows = exportedRounds(input).flatMap(({ round, leaderboard: rows }) => rows.map((r) => [
    round.index, round.title, r.rank, r.name, r.participantId, r.submissionId, r.version, r.score.wauc, r.score.low, r.score.high, r.score.n,
    round.hiddenTaskCount, round.repeats, round.episodes, round.steps, ...model,
  ]));
  return scrubKeys(toCsv({ header, rows }));
}

/** The submissions CSV: one row per kept submission, with its status, score and text. */
export function roomSubmissionsCsv(input: RoomExportInput): string {
  const header = ['round', 'round_title', 'name', 'participant_id', 'submission_id', 'version', 'submitted_at', 'source', 'chars', 'status', 'wauc_mean', 'wauc_low_95', 'wauc_high_95', 'sessions', 'hidden_tasks', 'repeats_per_task', 'text', ...MODEL_CSV_COLUMNS];
  const model = modelCsvCells(input.model);
  const rows = exportedRounds(input).flatMap(({ round, submissions }) => submissions.map(({ submission: s, name, score, text }) => [
    round.index, round.title, name, s.participantId, s.id, s.version, s.submittedAt, s.source, s.chars, score?.status ?? 'queued',
    score?.score?.wauc ?? null, score?.score?.low ?? null, score?.score?.high ?? null, score?.score?.n ?? null, round.hiddenTaskCount, round.repeats, text, ...model,
  ]));
  return scrubKeys(toCsv({ header, rows }));
}

/** A Markdown table cell: one line, with `|`, `<`, `>` and `&` escaped. */
const mdCell = (text: string) => escapeHtml(text).replace(/\|/g, '\\|').replace(/\r?\n|\r/g, ' ');

/** The Markdown export: per round its settings, leaderboard and submissions. */
export function roomExportMarkdown(input: RoomExportInput): string {
  const title = input.state.settings?.title ?? 'Workshop room';
  const lines = [`# ${mdCell(title)}: results`, '', `Exported ${input.exportedAt}. ${input.model.sentence}`, '', `W-AUC: ${ROOM_EXPORT_UNITS.wauc}. Interval: ${ROOM_EXPORT_UNITS.interval}. n: ${ROOM_EXPORT_UNITS.sessions}.`, ''];
  for (const { round, leaderboard: rows, submissions } of exportedRounds(input)) {
    const hidden = round.hiddenTasks === null ? '' : ` (${round.hiddenTasks.map(mdCell).join(', ')})`;
    lines.push(`## Round ${round.index}: ${mdCell(round.title)}`, '', `${round.hiddenTaskCount} hidden task${round.hiddenTaskCount === 1 ? '' : 's'}${hidden} × ${round.repeats} repeat${round.repeats === 1 ? '' : 's'}; K = ${round.episodes} episodes of S = ${round.steps} steps; state: ${round.state}.`, '');
    lines.push('| rank | name | version | W-AUC (0–1) | 95 % interval | n |', '|---:|---|---:|---:|---|---|');
    for (const r of rows) lines.push(`| ${r.rank} | ${mdCell(r.name)} | ${r.version} | ${fixed(r.score.wauc)} | ${fixed(r.score.low)}–${fixed(r.score.high)} | ${sessionsText(r.score.n, round)} |`);
    if (rows.length === 0) lines.push('| — | no scored submission | | | | |');
    lines.push('', '### Submissions', '');
    for (const { submission: s, name, score, text } of submissions) {
      const scored = score?.score ? `W-AUC ${fixed(score.score.wauc)} [${fixed(score.score.low)}, ${fixed(score.score.high)}], ${sessionsText(score.score.n, round)}` : (score?.status ?? 'queued');
      lines.push(`#### ${mdCell(name)}, version ${s.version} (${mdCell(s.source)}, ${s.submittedAt}): ${mdCell(scored)}`, '', '```text', text.replace(/```/g, '`\u200b``'), '```', '');
    }
  }
  return scrubKeys(`${lines.join('\n')}\n`);
}

/** The HTML export: a standalone page (no script), every text escaped. */
export function roomExportHtml(input: RoomExportInput): string {
  const title = escapeHtml(input.state.settings?.title ?? 'Workshop room');
  const parts = [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}: results</title>`,
    '<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:70rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem}</style></head><body>',
    `<h1>${title}: results</h1>`, `<p>Exported ${escapeHtml(input.exportedAt)}. ${escapeHtml(input.model.sentence)}</p>`,
    `<p>W-AUC: ${escapeHtml(ROOM_EXPORT_UNITS.wauc)}. Interval: ${escapeHtml(ROOM_EXPORT_UNITS.interval)}. n: ${escapeHtml(ROOM_EXPORT_UNITS.sessions)}.</p>`,
  ];
  for (const { round, leaderboard: rows, submissions } of exportedRounds(input)) {
    parts.push(`<h2>Round ${round.index}: ${escapeHtml(round.title)}</h2>`, `<p>${round.hiddenTaskCount} hidden task(s) × ${round.repeats} repeat(s); K = ${round.episodes} episodes of S = ${round.steps} steps; state: ${escapeHtml(round.state)}.</p>`);
    parts.push('<table><thead><tr><th>rank</th><th>name</th><th>version</th><th>W-AUC (0–1)</th><th>95 % interval</th><th>n</th></tr></thead><tbody>');
    for (const r of rows) parts.push(`<tr><td>${r.rank}</td><td>${escapeHtml(r.name)}</td><td>${r.version}</td><td>${fixed(r.score.wauc)}</td><td>${fixed(r.score.low)}–${fixed(r.score.high)}</td><td>${escapeHtml(sessionsText(r.score.n, round))}</td></tr>`);
    parts.push('</tbody></table>', '<h3>Submissions</h3>');
    for (const { submission: s, name, score, text } of submissions) {
      const scored = score?.score ? `W-AUC ${fixed(score.score.wauc)} [${fixed(score.score.low)}, ${fixed(score.score.high)}], ${sessionsText(score.score.n, round)}` : (score?.status ?? 'queued');
      parts.push(`<h4>${escapeHtml(name)}, version ${s.version} (${escapeHtml(s.source)}): ${escapeHtml(scored)}</h4><pre>${escapeHtml(text)}</pre>`);
    }
  }
  parts.push('</body></html>');
  return scrubKeys(`${parts.join('\n')}\n`);
}

/**
 * The export in `format`, as a file to send.
 * @param stamp a file-name-safe time stamp for the file name (e.g. `20261206-2130`)
 */
export function roomExport(input: RoomExportInput, format: RoomExportFormat, stamp: string): RoomExportFile {
  const base = `room-${stamp}`;
  switch (format) {
    case 'json': return { body: roomExportJson(input), contentType: 'application/json; charset=utf-8', fileName: `${base}.json` };
    case 'csv': return { body: roomResultsCsv(input), contentType: 'text/csv; charset=utf-8', fileName: `${base}-results.csv` };
    case 'submissions-csv': return { body: roomSubmissionsCsv(input), contentType: 'text/csv; charset=utf-8', fileName: `${base}-submissions.csv` };
    case 'md': return { body: roomExportMarkdown(input), contentType: 'text/markdown; charset=utf-8', fileName: `${base}.md` };
    case 'html': return { body: roomExportHtml(input), contentType: 'text/html; charset=utf-8', fileName: `${base}.html` };
  }
}
