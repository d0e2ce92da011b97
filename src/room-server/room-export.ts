/**
 * The room's results as a download (`GET /api/export?format=json|csv|md|html`): participants with
 * their usage, rounds with their tasks (hidden ones included: the teacher's export), every kept
 * submission with its text and score, and the leaderboard. No token, no key: every text goes
 * through `scrubText`. CSV through the one CSV writer (formula injection guarded), HTML escaped.
 */
import { scrubText } from '../common/secrets.ts';
import { toCsv } from '../eval/csv.ts';
import { escapeHtml } from '../eval/report-html.ts';
import type { LeaderboardRow, ParticipantView, RoundConfig, RoundPublic, ScoreState, SubmissionText } from '../room/protocol.ts';

/** `format=json`: the whole export. */
export interface RoomExport {
  title: string;
  exportedAt: string;
  participants: ParticipantView[];
  rounds: (RoundPublic & { config: RoundConfig })[];
  submissions: (SubmissionText & { score: ScoreState | null })[];
  leaderboard: LeaderboardRow[];
}

export const EXPORT_FORMATS = ['json', 'csv', 'md', 'html'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const TYPES: Record<ExportFormat, string> = { json: 'application/json; charset=utf-8', csv: 'text/csv; charset=utf-8', md: 'text/markdown; charset=utf-8', html: 'text/html; charset=utf-8' };

/** The download's body, content type and file name. */
export function renderExport(data: RoomExport, format: ExportFormat): { body: string; type: string; fileName: string } {
  const body = format === 'json' ? JSON.stringify(data, null, 2) : format === 'csv' ? exportCsv(data) : format === 'md' ? exportMarkdown(data) : exportHtml(data);
  return { body: scrubText(body), type: TYPES[format], fileName: `room-${data.exportedAt.slice(0, 10)}.${format}` };
}

const nameOf = (data: RoomExport, id: string): string => data.participants.find((p) => p.id === id)?.name ?? id;
const roundTitle = (data: RoomExport, id: string): string => data.rounds.find((r) => r.id === id)?.title ?? id;
const num = (x: number | undefined | null): string => (x === undefined || x === null ? '—' : x.toFixed(3));

function exportCsv(data: RoomExport): string {
  const header = ['round', 'participant', 'name', 'submission', 'version', 'submittedAt', 'chars', 'source', 'status', 'wauc', 'low', 'high', 'n', 'text'];
  const rows = data.submissions.map((s) => [
    roundTitle(data, s.roundId), s.participantId, nameOf(data, s.participantId), s.id, s.version, s.submittedAt, s.chars, s.source,
    s.score?.status ?? '', s.score?.score?.wauc ?? null, s.score?.score?.low ?? null, s.score?.score?.high ?? null, s.score?.score?.n ?? null, s.text,
  ]);
  return toCsv({ header, rows });
}

/** A Markdown table cell: one line, pipes escaped. */
const cell = (text: string): string => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|');

function exportMarkdown(data: RoomExport): string {
  const lines = [`# ${cell(data.title)}`, '', `Exported ${data.exportedAt}; ${data.participants.length} participants, ${data.submissions.length} submissions.`, ''];
  for (const round of data.rounds) {
    lines.push(`## Round ${round.index}: ${cell(round.title)}`, '', `Hidden tasks: ${round.config.hiddenTasks.join(', ')}; K=${round.episodes}, S=${round.steps}, repeats ${round.repeats}.`, '');
    lines.push('| Rank | Name | Version | W-AUC | 95 % interval | n |', '|---|---|---|---|---|---|');
    for (const row of data.leaderboard.filter((r) => r.roundId === round.id)) {
      lines.push(`| ${row.rank} | ${cell(row.name)} | ${row.version} | ${num(row.score.wauc)} | ${num(row.score.low)}–${num(row.score.high)} | ${row.score.n} |`);
    }
    lines.push('');
  }
  lines.push('## Submissions', '');
  for (const s of data.submissions) {
    lines.push(`### ${cell(nameOf(data, s.participantId))}, ${cell(roundTitle(data, s.roundId))}, version ${s.version}`, '', `W-AUC ${num(s.score?.score?.wauc)} (${s.score?.status ?? 'not scored'})`, '', '```text', s.text.replace(/```/g, '`\u200b``'), '```', '');
  }
  return lines.join('\n');
}

function exportHtml(data: RoomExport): string {
  const e = escapeHtml;
  const rounds = data.rounds.map((round) => {
    const rows = data.leaderboard.filter((r) => r.roundId === round.id).map((row) => `<tr><td>${row.rank}</td><td>${e(row.name)}</td><td>${row.version}</td><td>${num(row.score.wauc)}</td><td>${num(row.score.low)}–${num(row.score.high)}</td><td>${row.score.n}</td></tr>`);
    return `<h2>Round ${round.index}: ${e(round.title)}</h2><p>Hidden tasks: ${e(round.config.hiddenTasks.join(', '))}</p><table><thead><tr><th>Rank</th><th>Name</th><th>Version</th><th>W-AUC</th><th>95 % interval</th><th>n</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
  });
  const subs = data.submissions.map((s) => `<h3>${e(nameOf(data, s.participantId))}, ${e(roundTitle(data, s.roundId))}, version ${s.version}</h3><p>W-AUC ${num(s.score?.score?.wauc)} (${e(s.score?.status ?? 'not scored')})</p><pre>${e(s.text)}</pre>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${e(data.title)}</title><style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem}</style></head><body><h1>${e(data.title)}</h1><p>Exported ${e(data.exportedAt)}; ${data.participants.length} participants, ${data.submissions.length} submissions.</p>${rounds.join('')}<h2>Submissions</h2>${subs.join('')}</body></html>\n`;
}
