/**
 * The mock LLM's command-line entry (cli.ts) as a real process: it prints the base URL, serves the
 * script given with --script, and refuses a bad flag with exit code 2 and the usage text.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { chatBody } from './test-helpers.ts';

const CLI = resolve(import.meta.dirname, 'cli.ts');
const tsxArgs = (args: string[]) => ['--import', 'tsx', CLI, ...args];

describe('mock LLM cli', () => {
  it('prints the base URL and serves the script', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mock-llm-cli-'));
    writeFileSync(join(dir, 'script.txt'), '# commands\nopen mailbox\ntake leaflet\n');
    const child = spawn(process.execPath, tsxArgs(['--script', join(dir, 'script.txt'), '--models', 'a,b']), { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      const baseUrl = String((await lines.next()).value);
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const models = await (await fetch(`${baseUrl}/models`)).json();
      expect(models.data.map((m: { id: string }) => m.id)).toEqual(['a', 'b']);
      const reply = await fetch(`${baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(chatBody('You are an expert player of text adventure games.', 'Step 2 of 9. Score: 0.\n[OBSERVATION]\nHi.')),
      });
      expect((await reply.json()).choices[0].message.content).toBe('REASONING: Following the script. (step 2)\nACTION: take leaflet');
    } finally {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('refuses a bad flag value with exit code 2 and the usage', async () => {
    const failure = await promisify(execFile)(process.execPath, tsxArgs(['--proposer-reply', 'nonsense'])).catch((e: unknown) => e as { code: number; stderr: string });
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toMatch(/--proposer-reply must be one of[\s\S]*Usage: tsx test\/mock-llm\/cli.ts/);
  });
});
