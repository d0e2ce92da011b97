/**
 * The room's exports: the leaderboards and submissions as CSV (parsed back cell for cell, ending
 * with model and model_caveat), JSON, Markdown and HTML with untrusted names escaped, removed
 * people and submissions left out, units named, and a key pasted into a prompt never exported.
 */
import Papa from 'papaparse';
import { afterEach, describe, expect, it } from 'vitest';
import { forgetSecrets, KEY_HIDDEN, registerSecret } from '../src/common/secrets.ts';
import { describeModel, SCRIPTED_NOTICE } from '../src/llm/model-label.ts';
import { roomExport, roomExportHtml, roomExportJson, roomExportMarkdown, roomResultsCsv, roomSubmissionsCsv, type RoomExportInput } from '../src/room/room-export.ts';
import { person, roomState, submitted } from './support/room-state.ts';

const KEY = 'fake-test-key-Zq9Xw7Vt5Ru3Ps1';
const EVIL = '<script>alert("x")</script>';

function input(): RoomExportInput {
  const state = roomState([person('p1', EVIL), person('p2', 'Grace, "G" Hopper'), person('p3', 'Gone', true)], [
    submitted('s1', 'p1', 1, 0, 0.25), submitted('s2', 'p2', 1, 1, 0.5), submitted('s3', 'p2', 2, 2, 'removed'), submitted('s4', 'p3', 1, 0, 0.9), submitted('s5', 'p1', 2, 3, 'failed'),
  ]);
  return {
    state, model: describeModel({ actor: 'scripted-test-model' }), exportedAt: '2026-12-06T22:00:00.000Z',
    texts: { s1: `Keep a map.\nUse ${KEY} if asked.`, s2: '=HYPERLINK("http://x")\nTry | pipes', s3: 'removed text', s4: 'gone text', s5: 'short' },
  };
}

afterEach(() => forgetSecrets());

describe('the room\'s CSV exports', () => {
  it('the results CSV parses back to the ranked rows with their units, ending with model and model_caveat', () => {
    const rows = Papa.parse<string[]>(roomResultsCsv(input()).trim()).data;
    expect(rows[0]).toEqual(['round', 'round_title', 'rank', 'name', 'participant_id', 'submission_id', 'version', 'wauc_mean', 'wauc_low_95', 'wauc_high_95', 'sessions', 'hidden_tasks', 'repeats_per_task', 'episodes_k', 'steps_s', 'model', 'model_caveat']);
    expect(rows.slice(1)).toEqual([
      ['1', 'Levers', '1', 'Grace, "G" Hopper', 'p2', 's2', '1', '0.5', '0.4', '0.6', '4', '2', '2', '3', '10', 'scripted test model', SCRIPTED_NOTICE],
      ['1', 'Levers', '2', EVIL, 'p1', 's1', '1', '0.25', '0.15', '0.35', '4', '2', '2', '3', '10', 'scripted test model', SCRIPTED_NOTICE],
    ]);
  });

  it('the submissions CSV keeps texts with line breaks and quotes, defuses formulas, leaves out removed ones', () => {
    registerSecret(KEY);
    const rows = Papa.parse<string[]>(roomSubmissionsCsv(input()).trim()).data;
    const header = rows[0]!;
    expect(header.slice(-3)).toEqual(['text', 'model', 'model_caveat']);
    const byId = Object.fromEntries(rows.slice(1).map((r) => [r[header.indexOf('submission_id')]!, Object.fromEntries(header.map((h, i) => [h, r[i]]))]));
    expect(Object.keys(byId)).toEqual(['s1', 's2', 's5']);
    expect(byId.s1).toMatchObject({ name: EVIL, status: 'scored', wauc_mean: '0.25', sessions: '4', text: `Keep a map.\nUse ${KEY_HIDDEN} if asked.` });
    expect(byId.s2!.text).toBe('\'=HYPERLINK("http://x")\nTry | pipes');
    expect(byId.s5).toMatchObject({ status: 'failed', wauc_mean: '', text: 'short' });
  });
});

describe('the room\'s JSON, Markdown and HTML exports', () => {
  it('JSON holds rounds with units, leaderboards and texts; no removed participant, no key', () => {
    registerSecret(KEY);
    const text = roomExportJson(input());
    expect(text).not.toContain(KEY);
    const json = JSON.parse(text) as { format: string; units: Record<string, string>; participants: { name: string }[]; rounds: { repeatsPerHiddenTask: number; hiddenTaskCount: number; leaderboard: { rank: number; sessions: number }[]; submissions: { id: string; text: string }[] }[]; model: { kind: string } };
    expect(json.format).toBe('metattl-room-export-1');
    expect(json.model.kind).toBe('scripted');
    expect(json.units.sessions).toBe('sessions played = hidden tasks × repeats per task');
    expect(json.participants.map((p) => p.name)).toEqual([EVIL, 'Grace, "G" Hopper']);
    expect(json.rounds[0]).toMatchObject({ repeatsPerHiddenTask: 2, hiddenTaskCount: 2 });
    expect(json.rounds[0]!.leaderboard.map((r) => [r.rank, r.sessions])).toEqual([[1, 4], [2, 4]]);
    expect(json.rounds[0]!.submissions.map((s) => s.id)).toEqual(['s1', 's2', 's5']);
    expect(json.rounds[0]!.submissions[0]!.text).toBe(`Keep a map.\nUse ${KEY_HIDDEN} if asked.`);
  });

  it('HTML escapes a <script> name and every text; Markdown escapes it in tables and says the units', () => {
    registerSecret(KEY);
    const html = roomExportHtml(input());
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('<td>0.500</td><td>0.400–0.600</td><td>4 sessions (2 hidden tasks × 2 repeats)</td>');
    expect(html).not.toContain(KEY);
    const md = roomExportMarkdown(input());
    expect(md).toContain('| 2 | &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; | 1 | 0.250 | 0.150–0.350 | 4 sessions (2 hidden tasks × 2 repeats) |');
    expect(md).toContain('2 hidden tasks (lever-room:2, vault:1) × 2 repeats; K = 3 episodes of S = 10 steps; state: open.'); // the hidden set, as the JSON export names it
    expect(md).toContain('Try | pipes'); // inside a fenced block, as written
    expect(md).not.toContain('gone text');
    expect(md).not.toContain(KEY);
  });

  it('roomExport names each file and its media type', () => {
    const files = (['json', 'csv', 'submissions-csv', 'md', 'html'] as const).map((f) => roomExport(input(), f, '20261206-2200'));
    expect(files.map((f) => [f.fileName, f.contentType.split(';')[0]])).toEqual([
      ['room-20261206-2200.json', 'application/json'], ['room-20261206-2200-results.csv', 'text/csv'], ['room-20261206-2200-submissions.csv', 'text/csv'],
      ['room-20261206-2200.md', 'text/markdown'], ['room-20261206-2200.html', 'text/html'],
    ]);
  });
});
