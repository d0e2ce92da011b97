/** The OPRO proposer's trajectory (scored pool, ascending, best 20) and its meta-prompt. */
import { describe, expect, it } from 'vitest';
import { buildOproMessages, OPRO_MAX_HISTORY, scoredHistory } from './opro-proposer.ts';

const cand = (id: string, status: string, strategy: string, valScores: Record<string, number>) => ({ id, status, strategy, valScores });

describe('scoredHistory', () => {
  it('keeps seed and accepted candidates scored on every validation task, mean W-AUC, ascending (ties: older first)', () => {
    const pool = [
      cand('c0', 'seed', '', { a: 0.2, b: 0.4 }), // mean 0.3
      cand('c1', 'rejected', 'R', {}),
      cand('c2', 'accepted', 'Map rooms.', { a: 0.5, b: 0.3 }), // mean 0.4
      cand('c3', 'failed', '', {}),
      cand('c4', 'accepted', 'Keep facts.', { a: 0.1, b: 0.1 }), // mean 0.1
      cand('c5', 'accepted', 'Tie.', { a: 0.3, b: 0.5 }), // mean 0.4, newer than c2
      cand('c6', 'accepted', 'Half-scored.', { a: 0.9 }),
    ];
    const history = scoredHistory(pool, ['a', 'b']);
    expect(history.map((h) => h.candidateId)).toEqual(['c4', 'c0', 'c2', 'c5']);
    expect(history.map((h) => h.score)).toEqual([0.1, (0.2 + 0.4) / 2, (0.5 + 0.3) / 2, (0.3 + 0.5) / 2]);
  });

  it('keeps only the best `limit` (the paper: 20), still ascending', () => {
    const pool = Array.from({ length: 25 }, (_, i) => cand(`c${i}`, i === 0 ? 'seed' : 'accepted', `s${i}`, { a: ((i * 7) % 25) / 100 }));
    const history = scoredHistory(pool, ['a']);
    expect(OPRO_MAX_HISTORY).toBe(20);
    expect(history).toHaveLength(20);
    expect(history[0]!.score).toBe(0.05);
    expect(history.at(-1)!.score).toBe(0.24);
    expect(history.map((h) => h.score)).toEqual([...history.map((h) => h.score)].sort((x, y) => x - y));
    // c14 scores 98 mod 25 = 23 hundredths, c7 49 mod 25 = 24: the two best, best last.
    expect(scoredHistory(pool, ['a'], 2).map((h) => h.candidateId)).toEqual(['c14', 'c7']);
  });
});

describe('buildOproMessages', () => {
  it('lists the solutions lowest to highest with 3-decimal scores, the naive seed named, then the reflective dataset as the task exemplar', () => {
    const messages = buildOproMessages(
      [{ candidateId: 'c0', strategy: '', score: 0.1 }, { candidateId: 'c2', strategy: 'Map rooms.\n', score: 0.4126 }],
      '=== EPISODE 1 ===\n[STEP 1] [OBS] Hall. [ACTION] north [REWARD] 0 [CUM_REWARD] 0',
    );
    expect(messages).toHaveLength(2);
    expect(messages[0]!.role).toBe('system');
    expect(messages[0]!.content).toContain('sorted by score from lowest to highest');
    expect(messages[0]!.content).toContain('scores higher than every one of them');
    expect(messages[0]!.content).toContain('inside <strategy>…</strategy>');
    expect(messages[1]).toEqual({
      role: 'user',
      content: [
        'Earlier strategy sections and their scores, from lowest to highest:', '',
        '<solution score="0.100">', '(empty: no strategy, the naive meta-agent)', '</solution>', '',
        '<solution score="0.413">', 'Map rooms.', '</solution>', '',
        'An example of the task — a session played with one of them, its worst run:',
        '=== EPISODE 1 ===', '[STEP 1] [OBS] Hall. [ACTION] north [REWARD] 0 [CUM_REWARD] 0', '',
        'Write a new strategy section that scores higher than all of the above.',
      ].join('\n'),
    });
  });

  it('shows the web log header for web runs and "(none yet)" for an empty trajectory', () => {
    const [system, user] = buildOproMessages([], 'log', 'web');
    expect(system!.content).toContain('does a task on a website several times');
    expect(user!.content).toContain('from lowest to highest:\n\n(none yet)\n\n');
  });
});
