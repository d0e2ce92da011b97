/**
 * Where a story keeps its score and moves, and reading them. Known stories use the catalog's
 * Jericho addresses (the whole signed 16-bit global word containing the byte Jericho reads);
 * v3 stories use header globals 1 and 2 (Z-Machine Standard §8.2.3.1: the status line shows
 * globals 1 and 2); v4+ stories use the globals whose values the status line shows, checked
 * against the status-line text every step. Scores are signed and never wrap.
 */
import type { ScoreSource, StoryRules } from './interface.ts';

/** Signed 16-bit big-endian reads from Z-machine memory. */
export interface MemoryReader {
  int16(addr: number): number;
  /** Byte address of the globals table (header word 0x0C). */
  readonly globalsAddr: number;
}

/** Address of the 16-bit word that holds a Jericho read of `bytes` bytes at `addr`. */
export function wordAddress(read: { addr: number; bytes: number }): number {
  return read.bytes === 1 ? read.addr - 1 : read.addr;
}

/** Decide the score source once per story at load. */
export function chooseScoreSource(version: number, rules: StoryRules | undefined): ScoreSource {
  const movesAddr = rules?.movesRead ? wordAddress(rules.movesRead) : null;
  if (rules?.scoreRead) return { kind: 'catalog', scoreAddr: wordAddress(rules.scoreRead), movesAddr };
  if (rules && rules.scoreRead === null) return { kind: 'victory-text', movesAddr };
  if (version === 3) return { kind: 'v3-header' };
  return { kind: 'status-line-globals', scoreGlobal: null, movesGlobal: null };
}

/** Numbers the status line shows: "Score: 10  Moves: 3", "Turns: 3", or "10/3". */
export function parseStatusNumbers(statusLine: string): { score: number | null; moves: number | null } {
  const score = /score:?\s*(-?\d+)/i.exec(statusLine);
  const moves = /(?:moves|turns):?\s*(-?\d+)/i.exec(statusLine);
  if (score || moves) return { score: score ? Number(score[1]) : null, moves: moves ? Number(moves[1]) : null };
  const pair = /(-?\d+)\s*\/\s*(-?\d+)\s*$/.exec(statusLine);
  if (pair) return { score: Number(pair[1]), moves: Number(pair[2]) };
  return { score: null, moves: null };
}

const globalAddr = (mem: MemoryReader, index: number): number => mem.globalsAddr + 2 * index;

/** Find the global (0–239) holding `value`, preferring `preferred`, then the lowest index. */
function findGlobal(mem: MemoryReader, value: number, preferred: number): number | null {
  if (mem.int16(globalAddr(mem, preferred)) === value) return preferred;
  for (let g = 0; g < 240; g++) if (mem.int16(globalAddr(mem, g)) === value) return g;
  return null;
}

/**
 * Read score and moves. For `status-line-globals` the source is updated in place when the status
 * line disagrees with the globals in use (returned as the new source).
 */
export function readScore(
  source: ScoreSource,
  mem: MemoryReader,
  statusLine: string,
  victoryScore: number | null,
): { score: number | null; moves: number | null; source: ScoreSource } {
  switch (source.kind) {
    case 'catalog':
      return { score: mem.int16(source.scoreAddr), moves: source.movesAddr === null ? null : mem.int16(source.movesAddr), source };
    case 'victory-text':
      return { score: victoryScore, moves: source.movesAddr === null ? null : mem.int16(source.movesAddr), source };
    case 'v3-header':
      return { score: mem.int16(globalAddr(mem, 1)), moves: mem.int16(globalAddr(mem, 2)), source };
    case 'status-line-globals': {
      const shown = parseStatusNumbers(statusLine);
      let { scoreGlobal, movesGlobal } = source;
      if (shown.score !== null && (scoreGlobal === null || mem.int16(globalAddr(mem, scoreGlobal)) !== shown.score)) {
        scoreGlobal = findGlobal(mem, shown.score, 1);
      }
      if (shown.moves !== null && (movesGlobal === null || mem.int16(globalAddr(mem, movesGlobal)) !== shown.moves)) {
        movesGlobal = findGlobal(mem, shown.moves, 2);
      }
      const next: ScoreSource = { kind: 'status-line-globals', scoreGlobal, movesGlobal };
      return {
        score: scoreGlobal !== null ? mem.int16(globalAddr(mem, scoreGlobal)) : shown.score,
        moves: movesGlobal !== null ? mem.int16(globalAddr(mem, movesGlobal)) : shown.moves,
        source: next,
      };
    }
  }
}
