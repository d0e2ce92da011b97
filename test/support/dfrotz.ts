/**
 * Debian's dfrotz (package `frotz`, 2.54), the reference interpreter the engine tests compare
 * text with. Tests that need it fail — never skip — when it is missing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Path of dfrotz: $DFROTZ, /usr/games/dfrotz, /usr/bin/dfrotz. @throws Error when none exists. */
export function dfrotzPath(): string {
  const found = [process.env.DFROTZ, '/usr/games/dfrotz', '/usr/bin/dfrotz'].find((p) => p && existsSync(p));
  if (!found) throw new Error('dfrotz not found: apt-get install -y frotz (or set DFROTZ)');
  return found;
}

/**
 * Run dfrotz on a story with `input` on stdin: no MORE prompts, plain ASCII off (-p keeps
 * Unicode), no status line (-q), errors on object 0 ignored as in frotz's default fatal-only mode
 * (-Z 0), 200 columns, frotz seed `seed`.
 * @returns stdout and stderr (dfrotz reports fatal errors on stderr)
 */
export function runDfrotz(storyPath: string, input: string, seed = 0): { stdout: string; stderr: string } {
  execFileSync(dfrotzPath(), ['-v'], { stdio: 'ignore' });
  const run = spawnSync(dfrotzPath(), ['-m', '-p', '-q', '-Z', '0', '-w', '200', '-s', String(seed), storyPath], {
    input, encoding: 'utf8', timeout: 20_000,
  });
  return { stdout: run.stdout, stderr: run.stderr };
}

/** Non-blank lines, right-trimmed, with dfrotz's '>' prompts removed from their starts. */
export function textLines(text: string): string[] {
  return text.split('\n').map((l) => l.replace(/^>/, '').trimEnd()).filter((l) => l.trim() !== '');
}
