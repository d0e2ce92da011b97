/**
 * Running the real `metattl` CLI (bin/metattl.js) as a child process in tests: one helper for
 * every CLI test file. Never throws on a non-zero exit: the code and both streams are returned.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './shared.ts';

const run = promisify(execFile);

/** The CLI's entry point, as `npx metattl` runs it. */
export const BIN = resolve(REPO_ROOT, 'bin/metattl.js');

/** What one CLI run gave: exit code (0 on success), stdout and stderr as text. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run `metattl ARGS` from the repository root.
 * @param env the child's environment (default: this process's)
 */
export async function runCli(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
