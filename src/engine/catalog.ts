/**
 * The story catalog (`public/stories/catalog.json`, built by scripts/build-catalog.mjs): one entry
 * per known story, shipped or metadata-only. A loaded story is matched to its entry by md5, which
 * gives it a max score, a default seed and its score/end rules. Pure data; no I/O here.
 */
import type { RamRead, StoryRules } from './interface.ts';

export interface CatalogEntry {
  id: string;
  title: string;
  author: string;
  licence: string;
  /** File name under public/stories/, or null when only metadata is shipped. */
  file: string | null;
  /** The usual file name of the story (e.g. "zork1.z5"), to find a local copy. */
  localName?: string;
  format: 'zcode';
  md5: string;
  /** Maximum score in score points, or null when unknown (W-AUC is then n/a). */
  maxScore: number | null;
  defaultSeed: number;
  /** e.g. "jericho", "id", "ood", "demo". */
  tags: string[];
  /** Jericho's score read (bytes, signedness, offset as games.json gives them); null = no RAM score. */
  scoreRead: RamRead | null;
  movesRead: RamRead | null;
  /** Jericho parses the status line instead of RAM (afflicted: "Rating: -N", negated). */
  statusLineScore?: { negate: boolean } | null;
  /** Jericho's victory / game-over texts, any of which counts (unescaped, " OR " split). */
  victoryText: string | string[] | null;
  gameOverText: string | string[] | null;
  victoryScore: number | null;
  introActions: string[];
  /** The player's object number (Jericho's `get_self_object_num`; teaching games: the Inform
   * library's `selfobj`): steps report its parent as their `location`. Null/absent: unknown. */
  playerObject?: number | null;
}

export interface Catalog {
  version: number;
  stories: CatalogEntry[];
}

/** The engine rules of a catalog entry. */
export function rulesFor(entry: CatalogEntry): StoryRules {
  return {
    scoreRead: entry.scoreRead,
    movesRead: entry.movesRead,
    statusLineScore: entry.statusLineScore ?? null,
    victoryText: entry.victoryText,
    gameOverText: entry.gameOverText,
    victoryScore: entry.victoryScore,
    introActions: entry.introActions,
    playerObject: entry.playerObject ?? null,
  };
}

/** The entry whose md5 matches (lower-case hex), if any. */
export function findByMd5(catalog: Catalog, md5: string): CatalogEntry | undefined {
  const wanted = md5.toLowerCase();
  return catalog.stories.find((s) => s.md5 === wanted);
}

/**
 * Validate parsed catalog JSON.
 * @throws Error naming the first malformed entry
 */
export function parseCatalog(json: unknown): Catalog {
  const c = json as Partial<Catalog> | null;
  if (!c || !Array.isArray(c.stories)) throw new Error('catalog.json: expected an object with a "stories" array');
  for (const [i, s] of c.stories.entries()) {
    if (typeof s?.id !== 'string' || typeof s.md5 !== 'string' || !/^[0-9a-f]{32}$/.test(s.md5)) {
      throw new Error(`catalog.json: story #${i} needs an id and a 32-hex-digit md5`);
    }
  }
  return { version: c.version ?? 1, stories: c.stories };
}
