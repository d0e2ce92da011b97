/**
 * README's mock example (its "30-second tour", the block after "# A session on a teaching game
 * against the mock provider", written identically in docs/cli.md's examples) runs exactly as written — the mock command started in the background, its
 * printed base URL put in place of http://127.0.0.1:PORT/v1 — and shows learning: a later episode
 * scores more than the first, and the printed scores are the ones README shows.
 */
import { spawn, execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/shared.ts';

const run = promisify(execFile);

const MARKER = '# A session on a teaching game against the mock provider';

/** The example's block in a repository file (`file`, relative to the root), from its marker comment to the fence. */
function exampleBlock(file: string): string {
  const text = readFileSync(resolve(REPO_ROOT, file), 'utf8');
  const start = text.indexOf(MARKER);
  if (start < 0) throw new Error(`${file} has no block starting "${MARKER}"`);
  return text.slice(start, text.indexOf('```', start));
}

/** The example's shell lines (continuations joined), comments dropped; and README's printed result line. */
function example(): { mock: string; session: string; shown: string } {
  const block = exampleBlock('README.md');
  const lines = block.replace(/\\\n\s*/g, '').split('\n');
  const commands = lines.filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#')).map((l) => l.replace(/\s+#.*$/, '').trim());
  const shown = lines.find((l) => l.startsWith('# session … '))!;
  return { mock: commands[0]!, session: commands[1]!, shown };
}

describe("README's mock example", () => {
  it('is the same text in README and in the CLI page (docs/cli.md)', () => {
    expect(exampleBlock('docs/cli.md')).toBe(exampleBlock('README.md'));
  });

  it('learns: scores rise from the first episode, as README shows', async () => {
    const { mock, session, shown } = example();
    expect(mock).toMatch(/^npx tsx test\/mock-llm\/cli\.ts .*&$/);
    expect(session).toMatch(/^npx metattl session lever-room --base-url http:\/\/127\.0\.0\.1:PORT\/v1 /);
    // Its own process group: `npx tsx` starts the mock as a grandchild, which killing npx alone
    // would leave running after the test.
    const server = spawn('bash', ['-c', `exec ${mock.replace(/&$/, '')}`], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'ignore'], detached: true });
    try {
      const baseUrl = await new Promise<string>((done, fail) => {
        let out = '';
        server.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const line = out.split('\n')[0]!;
          if (out.includes('\n')) done(line.trim());
        });
        server.on('exit', (code) => fail(new Error(`the mock exited with ${code}`)));
      });
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const env = { ...process.env };
      delete env.OPENAI_API_KEY;
      const { stdout } = await run('bash', ['-c', session.replace('http://127.0.0.1:PORT/v1', baseUrl)], { cwd: REPO_ROOT, env });
      const scores = /scores ([\d, ]+);/.exec(stdout)![1]!.split(', ').map(Number);
      expect(scores).toHaveLength(3);
      expect(Math.max(...scores.slice(1))).toBeGreaterThan(scores[0]!);
      expect(stdout.trim().split('\n').at(-1)!.replace(/^session \S+ /, '')).toBe(shown.replace(/^# session … /, ''));
    } finally {
      try {
        process.kill(-server.pid!, 'SIGTERM');
      } catch {
        // the group has already ended
      }
    }
  }, 60_000);
});
