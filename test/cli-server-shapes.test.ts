/**
 * Server shapes end to end through `npx metattl play` / `session` as real processes
 * against the mock: vLLM's error framing is adapted (the run does not stop at step 1); a cut-off
 * finish reason is never played; usage of zeros, `{}`, strings or negatives does not defeat
 * `--max-total-tokens`, and a negative-usage run's `--out` re-imports; a key echoed in another
 * encoding inside an error message reaches none of stderr, `--json`, `--out` and the store (also
 * through `eval` and `evolve`).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSession } from '../src/ttl/session-io.ts';
import type { FaultRule, KeyEncoding } from './mock-llm/interface.ts';
import { encodeKey } from './mock-llm/server-shapes.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { REPO_ROOT } from './support/shared.ts';

const exec = promisify(execFile);
const SCRIPT = ['east', 'get all', 'west', 'south', 'score'];
/** A key with characters that URL, percent and JSON encodings all change. */
const KEY = 'sk-test/Key+with=chars_0123456789abcdef';
let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ script: SCRIPT });
});
afterAll(() => mock.close());

interface Run {
  out: Record<string, unknown>;
  stdout: string;
  stderr: string;
  requests: typeof mock.requests;
}

async function metattl(args: string[], faults: FaultRule[], baseUrl = mock.baseUrl): Promise<Run> {
  mock.setOptions({ faults });
  const before = mock.requests.length;
  const argv = [resolve(REPO_ROOT, 'bin/metattl.js'), ...args, '--base-url', baseUrl, '--actor-model', 'mock-model', '--json'];
  const { stdout, stderr } = await exec(process.execPath, argv, { cwd: REPO_ROOT, env: { ...process.env, OPENAI_API_KEY: KEY }, timeout: 60_000 })
    .catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '' }));
  return { out: JSON.parse(stdout) as Record<string, unknown>, stdout, stderr, requests: mock.requests.slice(before) };
}

interface Step {
  action: string | null;
  parseStatus: string;
  error: { kind: string; message: string } | null;
}
const steps = (run: Run) => run.out.steps as Step[];
const play = (extra: string[], faults: FaultRule[], baseUrl?: string) => metattl(['play', 'advent', '--seed', '0', '--steps', '5', ...extra], faults, baseUrl);
const session = (extra: string[], faults: FaultRule[]) => metattl(['session', 'advent', '--seed', '0', '--policy', 'naive', '--meta-model', 'mock-model', ...extra], faults);

describe('play: other servers’ errors and cut-off replies', () => {
  it('vLLM rejecting temperature in its own framing is adapted: every step is played, one extra request', async () => {
    const run = await play([], [{ kind: 'provider_error', server: 'vllm', param: 'temperature' }]);
    expect(steps(run).map((s) => s.action)).toEqual(SCRIPT);
    expect(run.requests.map((r) => r.outcome.status)).toEqual([400, 200, 200, 200, 200, 200]);
    expect(run.out.adaptations).toEqual([expect.objectContaining({ parameter: 'temperature', change: 'dropped' })]);
  });

  it('a vLLM 400 about something else stops with the provider’s message, not "(no body)"', async () => {
    const run = await play(['--max-retries', '0'], [{ kind: 'provider_error', server: 'vllm', message: 'This model supports at most 4096 tokens (mock).' }]);
    expect(steps(run)[0]).toMatchObject({ action: null, parseStatus: 'llm_error', error: { kind: 'bad_request' } });
    expect(steps(run)[0]!.error!.message).toContain('This model supports at most 4096 tokens (mock).');
  });

  it('DeepSeek’s insufficient_system_resource is a provider fault: the cut-off action is not played', async () => {
    const run = await play(['--max-retries', '0'], [{ kind: 'finish_reason', reason: 'insufficient_system_resource' }]);
    expect(steps(run)).toEqual([expect.objectContaining({ action: null, parseStatus: 'llm_error', error: expect.objectContaining({ kind: 'server' }) })]);
  });

  it.each(['length', 'content_filter', 'unknown_reason'])('finish_reason %s: no scripted action is played (the fallback is, marked truncated)', async (reason) => {
    const run = await play([], [{ kind: 'finish_reason', reason }]);
    expect(steps(run).map((s) => [s.action, s.parseStatus])).toEqual(SCRIPT.map(() => ['look', 'truncated']));
  });
});

describe('session: usage that cannot be believed is estimated, and the caps hold', () => {
  const usages: [string, unknown][] = [
    ['zeros', { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }],
    ['{}', {}],
    ['strings', { prompt_tokens: '1', completion_tokens: '1', total_tokens: '2' }],
    ['negative', { prompt_tokens: -5_000_000, completion_tokens: -5_000_000, total_tokens: -10_000_000 }],
  ];
  it.each(usages)('--max-total-tokens 100 stops a 3×10 session early with usage %s, marked estimated', async (_name, usage) => {
    const run = await session(['--episodes', '3', '--steps', '10', '--max-total-tokens', '100'], [{ kind: 'usage', usage }]);
    expect(run.out).toMatchObject({ status: 'stopped', stopReason: 'budget', usageEstimated: true });
    const played = (run.out.episodes as { steps: unknown[] }[]).reduce((n, e) => n + e.steps.length, 0);
    expect(played).toBeLessThan(30);
    expect(run.out.totalTokens as number).toBeGreaterThanOrEqual(100);
  });

  it('a negative-usage run’s --out re-imports, with no negative token or cost figure', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'metattl-negative-')), 'session.json');
    const run = await session(['--episodes', '2', '--steps', '2', '--out', out], [{ kind: 'usage', usage: { prompt_tokens: -5_000_000, completion_tokens: -10, total_tokens: -5_000_010 } }]);
    expect(run.out.status).toBe('complete');
    const record = importSession(readFileSync(out, 'utf8'));
    const played = record.episodes.flatMap((e) => e.steps);
    expect(played.length).toBe(4);
    for (const step of played) {
      expect(step.promptTokens).toBeGreaterThan(0);
      expect(step.completionTokens).toBeGreaterThan(0);
      expect(step.costUsd).toBeGreaterThanOrEqual(0);
    }
    for (const exchange of record.exchanges) expect(exchange.usage?.promptTokens).toBeGreaterThan(0);
  });
});

/** Every file under `dir`, as text. */
function allText(dir: string): string {
  return readdirSync(dir).map((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? allText(path) : readFileSync(path, 'utf8');
  }).join('\n');
}

describe('a key echoed in another encoding is scrubbed from everything kept', () => {
  const encodings: KeyEncoding[] = ['url', 'percent_lower', 'percent_upper', 'base64', 'json_unicode'];
  it.each(encodings)('%s: not in stderr, --json, --out or the store; the message is still shown', async (encoding) => {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-keyecho-'));
    const out = join(dir, 'session.json');
    const run = await session(['--episodes', '1', '--steps', '2', '--max-retries', '0', '--store', join(dir, 'store'), '--out', out], [{ kind: 'echo_key', encoding }]);
    expect(run.out).toMatchObject({ status: 'stopped', stopReason: 'provider' });
    expect(run.stderr).toContain('?key=[key hidden]');
    const kept = [run.stdout, run.stderr, allText(dir)].join('\n');
    expect(kept).toContain('API key not valid (mock)');
    const forms = [KEY, encodeKey(KEY, 'url'), encodeKey(KEY, 'percent_lower'), encodeKey(KEY, 'percent_upper'), encodeKey(KEY, 'base64'), JSON.stringify(KEY).slice(1, -1)];
    for (const form of forms) expect(kept).not.toContain(form);
    expect(kept.toLowerCase()).not.toContain(encodeKey(KEY, 'percent_lower').slice(0, 24));
    expect(kept).not.toMatch(/\\u0073\\u006b/i);
  });
  it.each(['url', 'base64'] as const)('eval and evolve, %s: not in stderr, --json, results.json, report.md, summary.csv or the store', async (encoding) => {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-keyecho-runs-'));
    const common = ['--episodes', '1', '--steps', '2', '--max-retries', '0', '--meta-model', 'mock-model'];
    const evaluation = await metattl(['eval', '--policies', 'static', '--tasks', 'advent:0', '--repeats', '1', ...common, '--store', join(dir, 'eval-store'), '--out', join(dir, 'eval-out')], [{ kind: 'echo_key', encoding }]);
    const evolution = await metattl(['evolve', '--train', 'advent:0', '--val', 'advent:0', '--budget', '4', '--proposer-model', 'mock-model', ...common, '--store', join(dir, 'evolve-store')], [{ kind: 'echo_key', encoding }]);
    expect([evaluation.out.status, evaluation.out.stopReason, evolution.out.status, evolution.out.stopReason]).toEqual(['stopped', 'provider_error', 'stopped', 'provider_error']);
    // A refused request (400) is systemic: no further attempt re-runs the faulted session (one chat
    // request each; the other request is the GET /models that looks up the context window).
    const chats = (run: Run) => run.requests.filter((r) => r.body !== null).length;
    expect([chats(evaluation), chats(evolution)]).toEqual([1, 1]);
    const kept = [evaluation.stdout, evaluation.stderr, evolution.stdout, evolution.stderr, allText(dir)].join('\n');
    expect(kept).toContain('API key not valid (mock)');
    expect(kept).toContain('?key=[key hidden]');
    for (const form of [KEY, encodeKey(KEY, 'url'), encodeKey(KEY, 'percent_lower'), encodeKey(KEY, 'base64')]) expect(kept).not.toContain(form);
  });
});

describe('session: a reasoning model that spends its whole budget', () => {
  /** `metattl session` as a process; resolves with its exit code and parsed JSON. */
  async function sessionRun(extra: string[], faults: FaultRule[]): Promise<Run & { code: number }> {
    mock.setOptions({ faults });
    const before = mock.requests.length;
    const argv = [resolve(REPO_ROOT, 'bin/metattl.js'), 'session', 'advent', '--seed', '0', '--policy', 'naive', '--meta-model', 'mock-model', ...extra, '--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--json'];
    const { stdout, stderr, code } = await exec(process.execPath, argv, { cwd: REPO_ROOT, env: { ...process.env, OPENAI_API_KEY: KEY }, timeout: 60_000 })
      .then((r) => ({ ...r, code: 0 }), (error: { stdout?: string; stderr?: string; code?: number }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '', code: error.code ?? -1 }));
    return { out: JSON.parse(stdout) as Record<string, unknown>, stdout, stderr, code, requests: mock.requests.slice(before) };
  }
  const played = (run: Run) => (run.out.episodes as { steps: { action: string }[] }[]).map((e) => e.steps.map((s) => s.action));

  it('once: the budget is raised, every step plays the model’s choice, and the adaptation is reported', async () => {
    const run = await sessionRun(['--episodes', '2', '--steps', '3'], [{ kind: 'length_empty', shape: 'gemini', belowBudget: 4096 }]);
    expect(run.code).toBe(0);
    expect(run.out.status).toBe('complete');
    expect(played(run)).toEqual([SCRIPT.slice(0, 3), SCRIPT.slice(0, 3)]);
    expect(run.out.adaptations).toEqual([expect.objectContaining({ model: 'mock-model', parameter: 'max_tokens', change: 'raised', to: '4096' })]);
  });

  it.each([['actor', '--actor-max-tokens'], ['metaAgent', '--meta-max-tokens']] as const)('always (%s): the run stops at once, exit 1, resumable, the message naming %s; resume completes it', async (role, flag) => {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-reasoning-'));
    const run = await sessionRun(['--episodes', '2', '--steps', '3', '--store', join(dir, 'store')], [{ kind: 'length_empty', role }]);
    expect(run.code).toBe(1);
    expect(run.out).toMatchObject({ status: 'stopped', stopReason: 'provider' });
    expect(run.out.stopMessage as string).toContain(flag);
    expect(run.stderr).toContain(flag);
    expect(run.out.scores).not.toEqual([0, 0]);
    const resumed = await sessionRun(['--store', join(dir, 'store'), '--resume', run.out.id as string], []);
    expect(resumed.out.status).toBe('complete');
    expect(played(resumed)).toEqual([SCRIPT.slice(0, 3), SCRIPT.slice(0, 3)]);
  });
});

describe('play: refusals that name what to change', () => {
  it('a model that refuses the system role: sent as developer, every step played, the adaptation in the output', async () => {
    const run = await play([], [{ kind: 'bad_role', roles: ['system'] }]);
    expect(steps(run).map((s) => s.action)).toEqual(SCRIPT);
    expect(run.requests.map((r) => r.outcome.status)).toEqual([400, 200, 200, 200, 200, 200]);
    expect(run.out.adaptations).toEqual([expect.objectContaining({ parameter: 'role:system', change: 'renamed', to: 'developer' })]);
  });

  it('a base URL without /v1: the step’s error suggests the URL with /v1', async () => {
    const bare = mock.baseUrl.replace(/\/v1$/, '');
    const run = await play(['--max-retries', '0'], [], bare);
    expect(steps(run)[0]).toMatchObject({ action: null, parseStatus: 'llm_error', error: { kind: 'bad_request' } });
    expect(steps(run)[0]!.error!.message).toContain(`try ${bare}/v1.`);
  });

  it('a Responses-only model: the step’s error says to pick a chat-completions model', async () => {
    const run = await play(['--max-retries', '0'], [{ kind: 'responses_only' }]);
    expect(steps(run)[0]!.error!.message).toMatch(/The model mock-model is not served by the chat-completions API.*Pick a chat-completions model/);
  });
});

describe('play: compressed replies', () => {
  it.each([['gzip', []], ['br', ['--stream']], ['deflate', []]] as const)('%s %s: decoded, every step played', async (coding, extra) => {
    const run = await play([...extra], [{ kind: 'encoding', coding }]);
    expect(steps(run).map((s) => s.action)).toEqual(SCRIPT);
    expect(run.requests.every((r) => r.headers['accept-encoding'] === 'identity' || r.body === null)).toBe(true);
  });

  it('a body labelled gzip that is not: the step’s error names the coding', async () => {
    const run = await play(['--max-retries', '0'], [{ kind: 'encoding', coding: 'gzip', valid: false }]);
    expect(steps(run)[0]).toMatchObject({ action: null, parseStatus: 'llm_error', error: { kind: 'bad_response' } });
    expect(steps(run)[0]!.error!.message).toContain('labelled content-encoding: gzip but could not be decoded as gzip');
  });
});
