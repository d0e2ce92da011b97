/**
 * Walkthrough files, read once for every caller (the CLI's `probe recall` and `stories overlap`,
 * the page's walkthrough-recall probe, the experiment's recall-probe step): either a plain text
 * file of one command per line, or a Jericho games.json-shaped file (an array of games, each with
 * `name`, `rom_md5` and `walkthrough`, a list of commands). Pure: text in, commands out; no UI, DOM
 * or Node imports.
 */
import { MetattlError } from '../common/errors.ts';

/** A walkthrough file that cannot be used: not JSON where JSON was meant, no commands, the wrong
 * shape (`message` names the file and what to fix). */
export class WalkthroughFileError extends MetattlError {
  constructor(message: string) {
    super('walkthrough_file', message);
    this.name = 'WalkthroughFileError';
  }
}

/** One game's walkthrough of a games.json-shaped file: its Jericho name and story md5 when given. */
export interface WalkthroughEntry {
  name: string | null;
  md5: string | null;
  walkthrough: string[];
}

/** A read walkthrough file: one walkthrough (`lines`) or several by game (`games`). */
export type WalkthroughFile = { kind: 'lines'; commands: string[] } | { kind: 'games'; games: WalkthroughEntry[] };

/** Lines longer than this are not commands (a binary or a prose file read by mistake). */
const MAX_COMMAND_CHARS = 200;

/**
 * The games of a Jericho games.json-shaped value: each entry with a `walkthrough` that is a list of
 * strings (others skipped), its `name` and `rom_md5` kept when they are strings.
 * @throws WalkthroughFileError when `value` is not an array, or no entry has a walkthrough
 */
export function walkthroughGames(value: unknown, fileName: string): WalkthroughEntry[] {
  if (!Array.isArray(value)) throw new WalkthroughFileError(`${fileName}: expected Jericho's games.json shape (an array of games, each with "name" and "walkthrough"), got ${value === null ? 'null' : typeof value === 'object' ? 'an object' : typeof value}`);
  const games: WalkthroughEntry[] = [];
  for (const g of value as { name?: unknown; rom_md5?: unknown; walkthrough?: unknown }[]) {
    if (!g || typeof g !== 'object' || !Array.isArray(g.walkthrough) || !g.walkthrough.every((c) => typeof c === 'string')) continue;
    games.push({ name: typeof g.name === 'string' ? g.name : null, md5: typeof g.rom_md5 === 'string' ? g.rom_md5 : null, walkthrough: g.walkthrough as string[] });
  }
  if (!games.length) throw new WalkthroughFileError(`${fileName}: none of its ${value.length} entries has a "walkthrough" that is a list of commands`);
  return games;
}

/**
 * Read a walkthrough file's text: JSON when it starts with `[` or `{` (after spaces) or the name
 * ends in .json — then games.json-shaped; otherwise one command per line (blank lines and lines
 * starting with # dropped, outer spaces trimmed, a leading "> " prompt dropped).
 * @throws WalkthroughFileError for JSON that does not parse or has no walkthrough, an empty file,
 *   or a line too long to be a command (with its line number)
 */
export function parseWalkthroughFile(text: string, fileName: string): WalkthroughFile {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (!trimmed) throw new WalkthroughFileError(`${fileName} is empty: a walkthrough is one command per line, or Jericho's games.json`);
  if (/^[[{]/.test(trimmed) || /\.json$/i.test(fileName)) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      throw new WalkthroughFileError(`${fileName}: cannot read it as JSON (${(error as Error).message.split('\n')[0]})`);
    }
    return { kind: 'games', games: walkthroughGames(value, fileName) };
  }
  const commands: string[] = [];
  for (const [i, raw] of trimmed.split(/\r?\n/).entries()) {
    const line = raw.trim().replace(/^>\s*/, '');
    if (!line || line.startsWith('#')) continue;
    // eslint-disable-next-line no-control-regex
    if (line.length > MAX_COMMAND_CHARS || /[\u0000-\u0008\u000e-\u001f]/.test(line)) throw new WalkthroughFileError(`${fileName}, line ${i + 1}: not a command (${line.length > MAX_COMMAND_CHARS ? `${line.length} characters` : 'control characters'}): a walkthrough is one command per line`);
    commands.push(line);
  }
  if (!commands.length) throw new WalkthroughFileError(`${fileName} has no commands (only blank or # lines)`);
  return { kind: 'lines', commands };
}

/**
 * The walkthrough of one game in a read file: a text file's commands; in a games.json-shaped file
 * the entry named `game` or with story md5 `md5`, else the only entry.
 * @throws WalkthroughFileError naming the games the file has when none matches
 */
export function walkthroughFor(file: WalkthroughFile, game: { id: string; md5?: string | null }, fileName: string): string[] {
  if (file.kind === 'lines') return file.commands;
  const found = file.games.find((g) => g.name === game.id) ?? file.games.find((g) => game.md5 && g.md5 === game.md5) ?? (file.games.length === 1 ? file.games[0] : undefined);
  if (!found) throw new WalkthroughFileError(`${fileName} has no walkthrough for ${game.id} (it has ${file.games.map((g) => g.name ?? g.md5 ?? '?').slice(0, 12).join(', ')}${file.games.length > 12 ? ', …' : ''})`);
  return found.walkthrough;
}
