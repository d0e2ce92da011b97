/**
 * Web tasks in the learning loops from the CLI, against the mock: `play` and `session` on a web
 * task, the teaching task web:shop/t47 showing test-time learning (the first attempt buys without
 * the coupon and fails, the site says where this week's code is, the meta-agent's next guide makes
 * episode 2 succeed), and `eval --policies static,naive --tasks WEB-ID-test` end to end.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeWebEnvironment } from '../src/cli/web-tasks.ts';
import { runScript } from '../src/web/dom/oracle.ts';
import { WEB_ACTOR_PREAMBLE } from '../src/web/texts.ts';
import { parseReplayFile } from '../src/ui/replay/replay-source.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { type CliResult, runCli } from './support/cli.ts';


const metattl = (args: string[]): Promise<CliResult> => runCli(args);

/** The task's goal and the bid actions of its oracle (or wrong) script, as the CLI would play them. */
async function script(taskId: string, wrong = false): Promise<{ goal: string; actions: string[] }> {
  const env = nodeWebEnvironment(taskId);
  await env.reset(env.task.seed);
  const goal = env.current.intent;
  const played = await runScript(env, wrong ? env.current.wrong : env.current.oracle);
  return { goal, actions: played.steps.map((s) => s.action) };
}

const plan = (actions: string[]) => ['PLAN:', ...actions.map((a, i) => `${i + 1}. ${a}`)].join('\n');

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: ["send_msg_to_user('N/A')"] });
});
afterAll(() => mock.close());

const common = () => ['--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--meta-model', 'mock-model', '--json'];

describe('web tasks in play and session', () => {
  it('play runs one episode on a web task: score = reward, max score 1, the web actor preamble', async () => {
    const { goal, actions } = await script('web:shop/t1:2');
    mock.setOptions({ goalScripts: [{ goal, script: actions }] });
    const { code, stdout, stderr } = await metattl(['play', 'web:shop/t1:2', ...common()]);
    expect(code, stderr).toBe(0);
    const out = JSON.parse(stdout) as { story: string; seed: number; finalScore: number; maxScore: number; termination: string; steps: { action: string; score: number }[] };
    expect(out).toMatchObject({ story: 'web:shop/t1:2', seed: 2, finalScore: 1, maxScore: 1, termination: 'game_over' });
    expect(out.steps.map((s) => s.action)).toEqual(actions);
    const actorRequest = mock.requests.find((r) => r.behaviour === 'actor:goalScript')!;
    expect(JSON.stringify(actorRequest.body)).toContain(JSON.stringify(WEB_ACTOR_PREAMBLE).slice(1, 60));
    mock.setOptions({ goalScripts: [] });
    // A bad task id is a usage error.
    const bad = await metattl(['play', 'web:shop/t999:1', ...common()]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown template "t999"/);
  });

  it('the teaching task web:shop/t47 shows learning: episode 1 fails, the site says where the coupon is, episode 2 succeeds', async () => {
    const wrong = await script('web:shop/t47:1', true);
    const right = await script('web:shop/t47:1');
    const hint = "No coupon was used: this week's code is on the My Account page.";
    mock.setOptions({ metaAgentRules: [{ whenLogIncludes: hint, guide: plan(right.actions) }] });
    const dir = mkdtempSync(join(tmpdir(), 'metattl-web-session-'));
    const { code, stdout, stderr } = await metattl(['session', 'web:shop/t47:1', '--policy', 'naive', '--guide', plan(wrong.actions), '--out', join(dir, 'session.json'), ...common()]);
    expect(code, stderr).toBe(0);
    const out = JSON.parse(stdout) as { story: string; maxScore: number; scores: number[]; wAuc: number; episodes: { finalScore: number; guidingPrompt: string; steps: { action: string }[] }[] };
    expect(out.story).toBe('web:shop/t47:1');
    expect(out.maxScore).toBe(1);
    expect(out.scores).toEqual([0, 1, 1]);
    expect(out.wAuc).toBeCloseTo(5 / 6, 6);
    expect(out.episodes[0]!.steps.map((s) => s.action)).toEqual(wrong.actions);
    expect(out.episodes[1]!.guidingPrompt).toBe(plan(right.actions));
    // The meta-agent read a web log header and the site's hint in the episode-1 log.
    const meta = mock.requests.find((r) => r.behaviour === 'metaAgent:rule')!;
    const body = JSON.stringify(meta.body);
    expect(body).toContain('You coach a web agent');
    expect(body).toContain(JSON.stringify(hint).slice(1, -1));
    // The record names the task and passes its own import check.
    const record = JSON.parse(readFileSync(join(dir, 'session.json'), 'utf8')) as { config: { task: unknown; episodes: number; maxSteps: number }; episodes: { trajectory: { task: unknown } }[] };
    expect(record.config).toMatchObject({ task: { kind: 'web', id: 'web:shop/t47:1' }, episodes: 3, maxSteps: 10 });
    expect(record.episodes[0]!.trajectory.task).toEqual({ kind: 'web', id: 'web:shop/t47:1' });

    // Stopped by a token cap in episode 1 and resumed from the store: the replay check passes on
    // the site and the session ends as the uninterrupted one did.
    const store = join(dir, 'store');
    const capped = await metattl(['session', 'web:shop/t47:1', '--guide', plan(wrong.actions), '--store', store, '--max-total-tokens', '12000', ...common()]);
    expect(capped.code, capped.stderr).toBe(0);
    const stopped = JSON.parse(capped.stdout) as { id: string; status: string; stopReason: string; episodes: { steps: unknown[] }[] };
    expect(stopped).toMatchObject({ status: 'stopped', stopReason: 'budget' });
    expect(stopped.episodes[0]!.steps.length).toBeGreaterThan(0);
    const resumed = await metattl(['session', '--store', store, `--resume=${stopped.id}`, ...common()]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ status: 'complete', story: 'web:shop/t47:1', scores: [0, 1, 1] });
    mock.setOptions({ metaAgentRules: [] });
  }, 60_000);
});

describe('metattl evolve on web tasks', () => {
  it('runs the outer loop on web tasks; the proposer sees the web log header', async () => {
    const store = mkdtempSync(join(tmpdir(), 'metattl-web-evolve-'));
    const { code, stdout, stderr } = await metattl(['evolve', '--train', 'web:shop/t47:1,web:shop/t1:1', '--val', 'web:shop/t47:2', '--budget', '6', '--store', store, '--proposer-model', 'mock-model', ...common()]);
    expect(code, stderr).toBe(0);
    const out = JSON.parse(stdout) as { bestCandidateId: string; metricCallsUsed: number; candidates: { id: string }[] };
    expect(out.bestCandidateId).toBe('c0');
    expect(out.candidates.length).toBeGreaterThan(1);
    const proposer = mock.requests.filter((r) => r.behaviour.startsWith('proposer')).at(-1)!;
    const system = JSON.stringify(proposer.body);
    expect(system).toContain('does a task on a website several times');
    expect(system).toContain('You coach a web agent');
    // The stored state passes the import checks (a web task's W-AUC from its scores and max score).
    const header = readdirSync(join(store, 'runs')).find((n) => n.endsWith('.json'))!;
    const source = parseReplayFile(readFileSync(join(store, 'runs', header), 'utf8'));
    expect(source.kind === 'evolution' && source.candidates.map((c) => c.id)).toEqual(out.candidates.map((c) => c.id));
  });
});

describe('metattl eval on WEB-ID-test', () => {
  it('static vs naive on the whole set: 60 tasks × 2 policies, 3 episodes × 10 steps, results.json scored', async () => {
    const scripted = await Promise.all(['web:shop/t1:4', 'web:map/t44:4'].map((id) => script(id)));
    mock.setOptions({ goalScripts: scripted.map((s) => ({ goal: s.goal, script: s.actions })) });
    const out = mkdtempSync(join(tmpdir(), 'metattl-web-eval-'));
    const { code, stderr } = await metattl(['eval', '--policies', 'static,naive', '--tasks', 'WEB-ID-test', '--repeats', '1', '--out', join(out, 'res'), ...common()]);
    expect(code, stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(out, 'res', 'results.json'), 'utf8')) as {
      status: string; completedSessions: number; config: { episodes: number; maxSteps: number; taskSets: { name: string; tasks: { id: string; maxScore: number }[] }[] };
      sessions: { policyId: string; taskId: string; scores: number[]; wAuc: number; session: { config: { task: unknown } } }[];
    };
    expect(results.status).toBe('complete');
    expect(results.completedSessions).toBe(120);
    expect(results.config).toMatchObject({ episodes: 3, maxSteps: 10 });
    expect(results.config.taskSets.map((s) => [s.name, s.tasks.length])).toEqual([['WEB-ID-test', 60]]);
    expect(results.config.taskSets[0]!.tasks.every((t) => t.maxScore === 1)).toBe(true);
    const byKey = new Map(results.sessions.map((s) => [`${s.policyId} ${s.taskId}`, s]));
    for (const policy of ['static', 'naive']) {
      // Scripted tasks are solved every episode; an unachievable one is solved by the N/A answer.
      expect(byKey.get(`${policy} web:shop/t1:4`)!.scores).toEqual([1, 1, 1]);
      expect(byKey.get(`${policy} web:map/t44:4`)!.scores).toEqual([1, 1, 1]);
      expect(byKey.get(`${policy} web:shop/t9:4`)!.scores).toEqual([1, 1, 1]);
      expect(byKey.get(`${policy} web:shop/t7:4`)!.scores).toEqual([0, 0, 0]);
    }
    expect(results.sessions.every((s) => s.scores.length === 3 && s.scores.every((x) => x === 0 || x === 1))).toBe(true);
    expect(results.sessions[0]!.session.config.task).toMatchObject({ kind: 'web' });
    mock.setOptions({ goalScripts: [] });
  }, 180_000);
});
