/**
 * A session whose guides have many short lines (a 20 MB import) is shown in bounded work: the
 * import reads it, the between-episode feedback is made without a stack overflow, and a diff too
 * large or too different to show line by line is one `omitted` line saying so; a large guide with a
 * few changes within the limits is still diffed exactly. The guides are generated here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importSession } from '../../ttl/session-io.ts';
import { diffPrompts, feedbackOf, MAX_DIFF_EDITS, MAX_DIFF_LINES } from '../shared/format/feedback.ts';

const REPLAY = readFileSync(new URL('../../../test/fixtures/recordings/lever-room-scripted.json', import.meta.url), 'utf8');
const guide = (lines: number, version: number) => Array.from({ length: lines }, (_, i) => `- rule ${i}: try v${(i * 7 + version) % 13}`).join('\n');

/** The shipped session with every guide replaced by one of `lines` lines (each episode's differing in every line). */
function sessionWithGuides(lines: number): string {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- free-form edits of parsed JSON
  const record: any = JSON.parse(REPLAY);
  record.exchanges.forEach((e: { guidingPromptAfter: string; reply: string }, k: number) => {
    e.guidingPromptAfter = guide(lines, k);
    e.reply = `<learn>${e.guidingPromptAfter}</learn>`;
  });
  record.episodes.forEach((e: { guidingPrompt: string }, k: number) => {
    if (k > 0) e.guidingPrompt = guide(lines, k - 1);
  });
  return JSON.stringify(record);
}

describe('large guides in Learn', () => {
  it('a 20 MB session of 100,000-line guides imports and its feedback says the diffs are too large, without throwing', () => {
    const text = sessionWithGuides(100_000);
    expect(text.length).toBeGreaterThan(20e6);
    const feedback = feedbackOf(importSession(text));
    expect(feedback).toHaveLength(4);
    for (const f of feedback.slice(1)) {
      expect(f.diff).toEqual([{ kind: 'omitted', parts: [{ kind: 'same', text: expect.stringMatching(/^The guiding prompts are too large to compare line by line \(before: 100,000 lines, [\d,]+ characters; after: 100,000 lines, [\d,]+ characters; at most 3,000 lines or 300,000 characters each\)/) }] }]);
    }
  });

  it('guides that differ in more lines than the bound say so; one changed line of 3,000 is diffed exactly', () => {
    expect(diffPrompts(guide(2_000, 0), guide(2_000, 1))).toEqual([{ kind: 'omitted', parts: [{ kind: 'same', text: `The guiding prompts differ in more than ${MAX_DIFF_EDITS} lines: too many changes to show line by line.` }] }]);
    const before = guide(MAX_DIFF_LINES, 0);
    const line = before.split('\n')[1500]!;
    const after = before.replace(line, `${line} twice`);
    const diff = diffPrompts(before, after);
    expect(diff).toHaveLength(MAX_DIFF_LINES + 1);
    expect(diff.filter((l) => l.kind !== 'same')).toEqual([
      { kind: 'removed', parts: [{ kind: 'same', text: line }] },
      { kind: 'added', parts: [{ kind: 'same', text: line }, { kind: 'added', text: ' twice' }] },
    ]);
    // The line bound is exact: 3,000 lines are diffed, 3,001 are not.
    const short = guide(MAX_DIFF_LINES - 1, 0);
    expect(diffPrompts(short, `${short}\nx`).at(-1)).toEqual({ kind: 'added', parts: [{ kind: 'added', text: 'x' }] });
    expect(diffPrompts(short, `${short}\nx\ny`)[0]!.kind).toBe('omitted');
  });
});
