/**
 * Provider faults end to end through `npx metattl play` / `session` as real processes against the
 * mock: a stalled reply ends as `timeout` instead of hanging; quota stops a session resumably
 * after one request; a reasoning model works with the defaults; errors inside streams and replies
 * without content are never played or taken as the meta-agent's decision; the token cap holds
 * when the provider sends no usage.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultRule } from './mock-llm/interface.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { REPO_ROOT } from './support/shared.ts';

const exec = promisify(execFile);
const SCRIPT = ['east', 'get all', 'west', 'south', 'score'];
let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ script: SCRIPT });
});
afterAll(() => mock.close());

/** Run `metattl` with the mock's base URL; resolves with the parsed JSON even on a non-zero exit. */
async function metattl(args: string[], faults: FaultRule[]): Promise<{ out: Record<string, unknown> & { steps?: Step[] }; requests: typeof mock.requests }> {
  mock.setOptions({ faults });
  const before = mock.requests.length;
  const argv = [resolve(REPO_ROOT, 'bin/metattl.js'), ...args, '--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--json'];
  const { stdout } = await exec(process.execPath, argv, { cwd: REPO_ROOT, env: { ...process.env, OPENAI_API_KEY: 'cli-fault-key-0123' }, timeout: 30_000 })
    .catch((error: { stdout?: string; code?: number }) => ({ stdout: error.stdout ?? '' }));
  return { out: JSON.parse(stdout), requests: mock.requests.slice(before) };
}

interface Step {
  action: string | null;
  parseStatus: string;
  error: { kind: string; message: string } | null;
}

const play = (extra: string[], faults: FaultRule[]) => metattl(['play', 'advent', '--seed', '0', '--steps', '5', ...extra], faults);

describe('play: faults end the episode as the right error, never hang, never play', () => {
  it.each([[[]], [['--stream']]])('a reply that stalls after its headers (%s) ends as timeout with --timeout-ms 3000 --max-retries 0', async (extra) => {
    const { out, requests } = await play(['--timeout-ms', '3000', '--max-retries', '0', ...extra], [{ kind: 'stall' }]);
    expect(out.termination).toBe('error');
    expect(out.steps).toHaveLength(1);
    expect(out.steps![0]).toMatchObject({ action: null, parseStatus: 'llm_error', error: { kind: 'timeout' } });
    expect(requests).toHaveLength(1);
  }, 60_000);

  it('a 429 insufficient_quota is one request, reported as quota', async () => {
    const { out, requests } = await play(['--max-retries', '2'], [{ kind: 'quota' }]);
    expect(out.steps![0]!.error).toMatchObject({ kind: 'quota' });
    expect(out.steps![0]!.error!.message).toMatch(/no credit left/);
    expect(requests).toHaveLength(1);
  });

  it('a reasoning model rejecting temperature and max_tokens plays every step; two extra requests in all; the adaptations are in the output', async () => {
    const { out, requests } = await play([], [{ kind: 'bad_param', param: 'temperature', style: 'value' }, { kind: 'bad_param', param: 'max_tokens' }]);
    expect(out.steps!.map((s) => s.action)).toEqual(SCRIPT);
    expect(requests.map((r) => r.outcome.status)).toEqual([400, 400, 200, 200, 200, 200, 200]);
    expect(out.adaptations).toEqual([
      expect.objectContaining({ model: 'mock-model', parameter: 'temperature', change: 'dropped', to: null }),
      expect.objectContaining({ model: 'mock-model', parameter: 'max_tokens', change: 'renamed', to: 'max_completion_tokens' }),
    ]);
  });

  it.each(['event', 'event_message', 'finish', 'cut', 'fastchat', 'done_no_finish'] as const)('an error (%s) inside the actor’s stream executes nothing of the partial reply', async (form) => {
    const { out } = await play(['--stream', '--max-retries', '0'], [{ kind: 'stream_error', form }]);
    expect(out.termination).toBe('error');
    expect(out.steps).toEqual([expect.objectContaining({ action: null, parseStatus: 'llm_error' })]);
    const expected = { fastchat: ['server', /NETWORK ERROR DUE TO HIGH TRAFFIC/], done_no_finish: ['bad_response', /\[DONE\] but no finish_reason/] } as Record<string, [string, RegExp]>;
    if (expected[form]) expect(out.steps![0]!.error).toMatchObject({ kind: expected[form][0], message: expect.stringMatching(expected[form][1]) });
  });

  it.each([[[]], [['--stream']]])('a second choice (%s) is never played or appended: every step plays choice 0', async (extra) => {
    const { out } = await play(extra, [{ kind: 'second_choice', text: 'eat leaflet' }]);
    expect(out.steps!.map((s) => [s.action, s.parseStatus])).toEqual(SCRIPT.map((a) => [a, 'ok']));
  });

  it('choices: [] is a provider fault after the retries, not a `look`', async () => {
    const { out, requests } = await play(['--max-retries', '1'], [{ kind: 'empty_reply', shape: 'no_choices' }]);
    expect(out.steps).toEqual([expect.objectContaining({ action: null, parseStatus: 'llm_error', error: expect.objectContaining({ kind: 'bad_response' }) })]);
    expect(requests).toHaveLength(2);
  });

  it('a 200 with a truncated JSON body is retried and the episode goes on', async () => {
    const { out } = await play(['--max-retries', '1'], [{ kind: 'malformed_json', attempts: 1 }]);
    expect(out.termination).toBe('step_limit');
    expect(out.steps!.map((s) => s.action)).toEqual(SCRIPT);
  }, 60_000);
});

describe('session: quota stops resumably; empty meta-agent replies are errors; caps hold without usage', () => {
  const session = (extra: string[], faults: FaultRule[]) =>
    metattl(['session', 'advent', '--seed', '0', '--policy', 'naive', '--meta-model', 'mock-model', ...extra], faults);

  it('quota stops the session (status stopped, resumable) after one request; --resume finishes it once credit is back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-quota-'));
    const stopped = await session(['--episodes', '2', '--steps', '3', '--store', dir, '--max-retries', '2'], [{ kind: 'quota' }]);
    expect(stopped.out).toMatchObject({ status: 'stopped', stopReason: 'provider' });
    expect(String(stopped.out.stopMessage)).toMatch(/^The account has no credit left/);
    expect(stopped.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(1);
    const resumed = await metattl(['session', '--store', dir, '--resume', String(stopped.out.id), '--meta-model', 'mock-model'], []);
    expect(resumed.out.status).toBe('complete');
  });

  it('an empty meta-agent reply is a provider fault, never "no <learn>": the session stops with the guide unchanged and --resume makes the update', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-empty-'));
    const out = join(dir, 'session.json');
    const { out: json, requests } = await session(['--episodes', '2', '--steps', '3', '--max-retries', '1', '--store', dir, '--out', out], [{ kind: 'empty_reply', shape: 'empty_content', role: 'metaAgent' }]);
    expect(json).toMatchObject({ status: 'stopped', stopReason: 'provider' });
    expect(requests.filter((r) => r.role === 'metaAgent')).toHaveLength(2);
    const record = JSON.parse(readFileSync(out, 'utf8')) as { session?: unknown };
    const body = (record.session ?? record) as { exchanges: { learnStatus: string | null }[]; episodes: { guidingPrompt: string }[] };
    expect(body.exchanges.filter((e) => e.learnStatus === 'missing')).toEqual([]);
    expect(body.episodes).toHaveLength(1);
    const resumed = await metattl(['session', '--store', dir, '--resume', String(json.id), '--meta-model', 'mock-model'], []);
    expect(resumed.out.status).toBe('complete');
    expect((resumed.out.episodes as unknown[]).length).toBe(2);
  });

  it('the session record keeps the adapted parameters', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'metattl-adapted-')), 'session.json');
    const { out: json } = await session(['--episodes', '2', '--steps', '2', '--out', out], [{ kind: 'bad_param', param: 'temperature' }]);
    expect(json.status).toBe('complete');
    const record = JSON.parse(readFileSync(out, 'utf8')) as { adaptations?: unknown[] };
    expect(record.adaptations).toEqual([expect.objectContaining({ baseUrl: mock.baseUrl, model: 'mock-model', parameter: 'temperature', change: 'dropped' })]);
  });

  it('--max-total-tokens 100 stops a 3×10 session when the provider sends no usage, and says the figures are estimates', async () => {
    const { out } = await session(['--episodes', '3', '--steps', '10', '--max-total-tokens', '100'], [{ kind: 'no_usage' }]);
    expect(out).toMatchObject({ status: 'stopped', stopReason: 'budget', usageEstimated: true });
    const played = (out.episodes as { steps: unknown[] }[]).reduce((n, e) => n + e.steps.length, 0);
    expect(played).toBeLessThan(30);
    expect(out.totalTokens as number).toBeGreaterThanOrEqual(100);
  });
});
