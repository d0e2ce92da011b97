/**
 * Where a story keeps its score and moves, and reading them. Known stories use the catalog's
 * Jericho reads exactly (one byte, unsigned unless marked signed, or a signed 16-bit word, plus
 * an offset), or Jericho's status-line parse (afflicted: the number after the last ':', negated);
 * v3 stories use header globals 1 and 2 (Z-Machine Standard §8.2.3.1: the status line shows
 * globals 1 and 2) unless they are "time" games (Flags 1 bit 1: hours and minutes, no score);
 * v4+ stories use the globals whose values the status line shows, checked against the
 * status-line text every step. Words are signed and never wrap.
 */
import type { RamRead, ScoreSource, StoryRules } from './interface.ts';

/** Big-endian reads from Z-machine memory. */
export interface MemoryReader {
  /** Signed 16-bit word at a byte address. */
  int16(addr: number): number;
  /** Unsigned byte at a byte address. */
  uint8(addr: number): number;
  /** Byte address of the globals table (header word 0x0C). */
  readonly globalsAddr: number;
}

/**
 * Read a catalog value exactly as Jericho does: one byte (unsigned unless `signed`) or a signed
 * 16-bit word, plus `offset`.
 */
export function readRam(mem: MemoryReader, read: RamRead): number {
  let value: number;
  if (read.bytes === 1) {
    const byte = mem.uint8(read.addr);
    value = read.signed && byte > 127 ? byte - 256 : byte;
  } else {
    value = mem.int16(read.addr);
  }
  return value + (read.offset ?? 0);
}

/** Header facts that change where the score lives. */
export interface HeaderFacts {
  /** v3 Flags 1 bit 1 (Standard §8.2.3.2): the status line shows hours:minutes, not score/moves. */
  v3TimeGame?: boolean;
}

/** Decide the score source once per story at load. */
export function chooseScoreSource(version: number, rules: StoryRules | undefined, header: HeaderFacts = {}): ScoreSource {
  const moves = rules?.movesRead ? { ...rules.movesRead } : null;
  if (rules?.scoreRead) return { kind: 'catalog', score: { ...rules.scoreRead }, moves };
  if (rules?.statusLineScore) return { kind: 'status-line-text', negate: rules.statusLineScore.negate, last: null, moves };
  if (rules && rules.scoreRead === null) return { kind: 'victory-text', moves };
  if (version === 3) return header.v3TimeGame ? { kind: 'v3-time' } : { kind: 'v3-header' };
  return { kind: 'status-line-globals', scoreGlobal: null, movesGlobal: null };
}

/**
 * The status line's last number after its last ':' (Jericho's afflicted.c `parse_score`), or
 * null when there is none.
 */
export function lastNumberAfterColon(statusLine: string): number | null {
  const i = statusLine.lastIndexOf(':');
  if (i < 0) return null;
  const m = /^\s*([-+]?\d+)/.exec(statusLine.slice(i + 1));
  return m ? Number(m[1]) : null;
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
  const movesOf = (read: RamRead | null | undefined): number | null => (read ? readRam(mem, read) : null);
  switch (source.kind) {
    case 'catalog':
      return { score: readRam(mem, source.score), moves: movesOf(source.moves), source };
    case 'victory-text':
      return { score: victoryScore, moves: movesOf(source.moves), source };
    case 'status-line-text': {
      const shown = lastNumberAfterColon(statusLine);
      const score = shown === null ? source.last : source.negate ? 0 - shown : shown;
      return { score, moves: movesOf(source.moves), source: { ...source, last: score } };
    }
    case 'v3-header':
      return { score: mem.int16(globalAddr(mem, 1)), moves: mem.int16(globalAddr(mem, 2)), source };
    case 'v3-time':
      return { score: null, moves: null, source };
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
