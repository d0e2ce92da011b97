/**
 * The raw system-prompt mode through the built CLI against the mock provider: with
 * `--raw-meta-prompt FILE` the meta-agent's system message is the file's bytes exactly (a byte-order
 * mark, CRLF line ends, tabs, non-ASCII text and trailing white space kept; no header, no footer),
 * for `session`, for `eval` beside an ordinary policy, and for an experiment arm with `"raw": true`;
 * the record says `raw: true`; a resume keeps the raw prompt (and refuses another); bad files are
 * refused before any call.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { META_PROMPT_FOOTER, META_PROMPT_HEADER } from '../src/agents/meta-prompt.ts';
import { startMockLlm, type LoggedRequest, type MockLlm } from './mock-llm/server.ts';
import { runCli } from './support/cli.ts';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: ['pull red lever', 'pull green lever', 'look', 'north'], metaAgentReply: 'build' });
});
afterAll(() => mock.close());

const env = { ...process.env, OPENAI_API_KEY: 'k' };
const provider = () => ['--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--meta-model', 'mock-model', '--context-window', '8000', '--concurrency', '1'];
const dir = () => mkdtempSync(join(tmpdir(), 'metattl-raw-'));

/** A prompt file whose bytes a trim, a re-encode or a line-end change would alter; `mark` tells its requests apart. */
function promptFile(mark: string): { file: string; bytes: Buffer; text: string } {
  const text = `\ufeff  ${mark}: you adapt a player's guide between episodes.\r\n\tRead the log — «every step» — and answer\r\n<think>why</think><learn>the next guide</learn>\n\n  \t\n`;
  const file = join(dir(), `${mark}.txt`);
  writeFileSync(file, text);
  return { file, bytes: readFileSync(file), text };
}

/** The system messages of the mock's meta-agent requests whose system text holds `mark`. */
function metaSystems(mark: string): string[] {
  const systems = mock.requests
    .filter((r: LoggedRequest) => r.role === 'metaAgent')
    .map((r) => (r.body as { messages: { role: string; content: string }[] }).messages)
    .filter((m) => m[0]!.role === 'system' && m[0]!.content.includes(mark))
    .map((m) => m[0]!.content);
  return systems;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('--raw-meta-prompt', () => {
  it('session: the meta-agent gets the file byte for byte, the record says raw, and a resume keeps it', async () => {
    const { file, bytes, text } = promptFile('RAW-SESSION');
    const argsWith = (prompt: string) => ['session', 'lever-room', '--seed', '1', '--episodes', '3', '--steps', '3', '--raw-meta-prompt', prompt, '--json', ...provider()];
    const args = argsWith(file);
    const cleanFile = join(dir(), 'clean.json');
    const clean = await runCli([...args, '--out', cleanFile], env);
    expect(clean.code, clean.stderr).toBe(0);
    const out = JSON.parse(clean.stdout);
    expect(out).toMatchObject({ status: 'complete', policy: 'RAW-SESSION.txt', raw: true });
    const systems = metaSystems('RAW-SESSION');
    expect(systems).toHaveLength(2);
    for (const system of systems) {
      expect(Buffer.from(system, 'utf8').equals(bytes)).toBe(true);
      expect(system).not.toContain(META_PROMPT_HEADER.slice(0, 40));
      expect(system).not.toContain(META_PROMPT_FOOTER.slice(0, 40));
    }
    const record = JSON.parse(readFileSync(cleanFile, 'utf8'));
    expect(record.config.policy).toEqual({ kind: 'meta', name: 'RAW-SESSION.txt', strategy: text, raw: true });
    expect(record.config.metaPrompt).toEqual({ text, hash: sha256(text) });

    // Stopped by a token cap before its last meta-agent call, then resumed with the same file.
    const store = dir();
    const capped = JSON.parse((await runCli([...args, '--store', store, '--max-total-tokens', '2000'], env)).stdout);
    expect([capped.status, capped.stopReason, capped.raw, capped.exchanges < 2]).toEqual(['stopped', 'budget', true, true]);
    const other = promptFile('RAW-OTHER');
    const refused = await runCli([...argsWith(other.file), '--store', store, '--resume', capped.id], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`session ${capped.id} was started with another raw meta-prompt (RAW-SESSION.txt); a resume keeps its own`);
    const before = metaSystems('RAW-SESSION').length;
    const resumedFile = join(dir(), 'resumed.json');
    const resumed = await runCli([...args, '--store', store, '--resume', capped.id, '--out', resumedFile], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ status: 'complete', raw: true, scores: out.scores, wAuc: out.wAuc });
    const after = metaSystems('RAW-SESSION').slice(before);
    expect(after.length).toBeGreaterThan(0);
    for (const system of after) expect(Buffer.from(system, 'utf8').equals(bytes)).toBe(true);
    const again = JSON.parse(readFileSync(resumedFile, 'utf8'));
    expect(again.config.policy).toEqual(record.config.policy);
    expect(again.config.metaPrompt).toEqual(record.config.metaPrompt);
  }, 60_000);

  it('eval: a raw policy beside the naive meta-agent, each with its own system message, recorded as raw', async () => {
    const { file, bytes, text } = promptFile('RAW-EVAL');
    const out = dir();
    const run = await runCli(['eval', '--policies', 'naive', '--raw-meta-prompt', file, '--tasks', 'lever-room:1', '--repeats', '1', '--episodes', '2', '--steps', '3', '--out', out, '--json', ...provider()], env);
    expect(run.code, run.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(results.config.policies.map((p: { id: string; name?: string; spec: { raw?: boolean } }) => [p.id, p.name ?? null, p.spec.raw ?? false])).toEqual([['naive', null, false], ['RAW-EVAL', 'RAW-EVAL (raw)', true]]);
    expect(results.config.policies[1].spec.strategy).toBe(text);
    const rawSession = results.sessions.find((s: { policyId: string }) => s.policyId === 'RAW-EVAL').session;
    expect(rawSession.config.policy.raw).toBe(true);
    expect(rawSession.config.metaPrompt.text).toBe(text);
    const naiveSession = results.sessions.find((s: { policyId: string }) => s.policyId === 'naive').session;
    expect(naiveSession.config.policy.raw).toBeUndefined();
    expect(naiveSession.config.metaPrompt.text.startsWith(META_PROMPT_HEADER)).toBe(true);
    const systems = metaSystems('RAW-EVAL');
    expect(systems).toHaveLength(1);
    expect(Buffer.from(systems[0]!, 'utf8').equals(bytes)).toBe(true);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('| RAW-EVAL (raw) | custom |');
    expect(results.report.policies.map((p: { policyId: string; rawMetaPrompt?: boolean }) => [p.policyId, p.rawMetaPrompt ?? false])).toEqual([['naive', false], ['RAW-EVAL', true]]);
    const csv = readFileSync(join(out, 'summary.csv'), 'utf8').trim().split('\n').map((line) => line.split(','));
    const column = csv[0]!.indexOf('raw_meta_prompt');
    expect(csv.slice(1).map((cells) => [cells[0], cells[column]])).toEqual([['naive', 'false'], ['RAW-EVAL', 'true']]);
  }, 60_000);

  it('experiment: an arm with "raw": true runs its file as the whole system prompt', async () => {
    const { file, bytes, text } = promptFile('RAW-ARM');
    const spec = join(dir(), 'raw-arm.json');
    writeFileSync(spec, JSON.stringify({
      name: 'raw-arm', episodes: 2, steps: 3, repeats: 1, taskSets: { T: ['lever-room:1'] },
      arms: [{ id: 'naive', policy: 'naive' }, { id: 'paper', policy: file, raw: true }], baseline: 'naive', evaluateOn: ['T'],
    }));
    const store = dir();
    const run = await runCli(['experiment', 'run', spec, ...provider(), '--store', store, '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).report.rows.map((r: { arm: string }) => r.arm)).toEqual(['naive', 'paper']);
    const results = JSON.parse(readFileSync(join(store, 'experiments', 'raw-arm', 'eval-T', 'out', 'results.json'), 'utf8'));
    expect(results.config.policies.find((p: { id: string }) => p.id === 'paper').spec).toEqual({ kind: 'meta', name: 'paper.txt', strategy: text, raw: true });
    const systems = metaSystems('RAW-ARM');
    expect(systems).toHaveLength(1);
    expect(Buffer.from(systems[0]!, 'utf8').equals(bytes)).toBe(true);

    // A raw arm whose file is missing stops the run before any call.
    writeFileSync(spec, JSON.stringify({
      name: 'raw-missing', episodes: 2, steps: 3, repeats: 1, taskSets: { T: ['lever-room:1'] },
      arms: [{ id: 'naive', policy: 'naive' }, { id: 'paper', policy: join(dir(), 'absent.txt'), raw: true }], baseline: 'naive', evaluateOn: ['T'],
    }));
    const calls = mock.requests.length;
    const missing = await runCli(['experiment', 'run', spec, ...provider(), '--store', dir()], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/arm paper: raw .*absent\.txt: cannot read it \(ENOENT\)/);
    expect(mock.requests.length).toBe(calls);
  }, 60_000);

  it('bad files and flags are refused before any call, saying why', async () => {
    const d = dir();
    const json = join(d, 'entry.json');
    writeFileSync(json, JSON.stringify({ name: 'x', strategy: 'y' }));
    const empty = join(d, 'empty.txt');
    writeFileSync(empty, ' \n\t\r\n');
    const latin1 = join(d, 'latin1.txt');
    writeFileSync(latin1, Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const ok = promptFile('RAW-BAD').file;
    const calls = mock.requests.length;
    const session = (extra: string[]) => runCli(['session', 'lever-room', '--episodes', '1', '--steps', '1', ...extra, ...provider()], env);
    const cases: [string[], RegExp][] = [
      [['--raw-meta-prompt', json], /--raw-meta-prompt takes the prompt's own text file; .*entry\.json is JSON/],
      [['--raw-meta-prompt', empty], /empty\.txt: the file is empty/],
      [['--raw-meta-prompt', latin1], /latin1\.txt: not UTF-8 text, so it cannot be sent byte for byte/],
      [['--raw-meta-prompt', join(d, 'absent.txt')], /absent\.txt: cannot read it \(ENOENT\)/],
      [['--raw-meta-prompt', ok, '--policy', 'naive'], /give --policy or --raw-meta-prompt, not both/],
    ];
    for (const [extra, message] of cases) {
      const result = await session(extra);
      expect(result.code, extra.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    const evalRun = await runCli(['eval', '--policies', 'naive', '--raw-meta-prompt', ok, '--raw-meta-prompt', ok, '--tasks', 'lever-room:1', '--out', join(d, 'o'), ...provider()], env);
    expect(evalRun.code).toBe(2);
    expect(evalRun.stderr).toContain('a policy "RAW-BAD" is already listed');
    expect(mock.requests.length).toBe(calls);
  }, 60_000);
});
