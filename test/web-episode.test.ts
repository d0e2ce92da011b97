/**
 * The episode runner on a web task (the `webEpisodeEngine` adapter): the actor's prompt carries the
 * web preamble and reply contract, an unparseable reply sends the web fallback `noop()`, the
 * trajectory names the task, and at the step limit the task's check runs once more (a state task
 * done without a final message still scores 1); the reflexion baseline reviews it as a web task.
 */
import { describe, expect, it } from 'vitest';
import { Actor } from '../src/agents/actor.ts';
import { formatEpisodeLog } from '../src/agents/episode-log.ts';
import { exportTrajectory, importTrajectory } from '../src/agents/trajectory-io.ts';
import { nodeWebEnvironment } from '../src/cli/web-tasks.ts';
import type { ChatMessage, ChatModel, Completion } from '../src/llm/interface.ts';
import { runEpisode } from '../src/ttl/episode-runner.ts';
import { REFLEXION_PROMPT, REFLEXION_WEB_PROMPT, ReflexionPolicy } from '../src/ttl/policies/reflexion-policy.ts';
import { webEpisodeEngine } from '../src/ttl/web-engine.ts';
import { runScript } from '../src/web/dom/oracle.ts';
import { WEB_ACTOR_PREAMBLE, WEB_REPLY_CONTRACT } from '../src/web/texts.ts';

/** A model that replies with `replies[i]` to its i-th call and records the prompts. */
function scriptedModel(replies: string[]): ChatModel & { prompts: ChatMessage[][] } {
  const prompts: ChatMessage[][] = [];
  return {
    role: 'actor', prompts,
    settings: { model: 'scripted', maxTokens: 100 } as ChatModel['settings'],
    async complete(messages): Promise<Completion> {
      prompts.push(messages);
      const content = replies[prompts.length - 1] ?? 'no idea';
      return { content, finishReason: 'stop', model: 'scripted', usage: { promptTokens: 1, completionTokens: 1, reasoningTokens: 0, latencyMs: 0, costUsd: 0 } as Completion['usage'] };
    },
  };
}

describe('runEpisode on a web task', () => {
  it('uses the web texts and the noop() fallback, and names the task', async () => {
    const env = nodeWebEnvironment('web:shop/t1:1');
    const model = scriptedModel([]);
    const trajectory = await runEpisode({
      engine: webEpisodeEngine(env, 'web:shop/t1:1', 1), actor: new Actor(model), story: { title: 'web:shop/t1:1', maxScore: 1 }, guidingPrompt: 'Be quick.', maxSteps: 2,
    });
    expect(model.prompts[0]![0]!.content.startsWith(WEB_ACTOR_PREAMBLE)).toBe(true);
    expect(model.prompts[0]![1]!.content.endsWith(WEB_REPLY_CONTRACT)).toBe(true);
    expect(model.prompts[0]![1]!.content).toContain('# Goal\nWhat is the price of the');
    expect(trajectory.steps.map((s) => [s.action, s.parseStatus])).toEqual([['noop()', 'parse_failure'], ['noop()', 'parse_failure']]);
    expect(trajectory).toMatchObject({ task: { kind: 'web', id: 'web:shop/t1:1' }, termination: 'step_limit', finalScore: 0, seed: 1 });
    expect(trajectory.story.md5).toMatch(/^[0-9a-f]{32}$/);

    // The reflexion baseline reviews it as a web task; a story's trajectory keeps the game prompt.
    const reflector = scriptedModel(['<learn>Open the product first.</learn>', '<learn>x</learn>']);
    const policy = new ReflexionPolicy(reflector, { countTokens: (text: string) => Math.ceil(text.length / 4), contextWindow: 100_000 });
    expect((await policy.update(1, trajectory, '')).guidingPrompt).toBe('Open the product first.');
    expect(reflector.prompts[0]![0]!.content).toBe(REFLEXION_WEB_PROMPT);
    const { task: _task, ...story } = trajectory;
    await policy.update(1, story, '');
    expect(reflector.prompts[1]![0]!.content).toBe(REFLEXION_PROMPT);
  });

  it('judges the task at the step limit: a state change made without a final message scores 1', async () => {
    const probe = nodeWebEnvironment('web:shop/t7:1');
    await probe.reset(1);
    const actions = (await runScript(probe, probe.current.oracle)).steps.map((s) => s.action);
    expect(actions.at(-1)).toBe("send_msg_to_user('done')");
    const work = actions.slice(0, -1);
    const model = scriptedModel(work.map((a) => `REASONING: go\nACTION: ${a}`));
    const trajectory = await runEpisode({
      engine: webEpisodeEngine(nodeWebEnvironment('web:shop/t7:1'), 'web:shop/t7:1', 1), actor: new Actor(model), story: { title: 't7', maxScore: 1 }, guidingPrompt: '', maxSteps: work.length,
    });
    expect(trajectory.steps.map((s) => s.action)).toEqual(work);
    expect(trajectory.steps.every((s) => s.score === 0)).toBe(true);
    expect(trajectory).toMatchObject({ termination: 'step_limit', finalScore: 1 });
    expect(formatEpisodeLog(1, trajectory)).toMatch(/\[EPISODE END\] the step limit was reached after \d+ steps\. Final score: 1 out of 1\.$/);
    const answered = { ...trajectory, termination: 'game_over' as const };
    expect(formatEpisodeLog(1, answered)).toContain('[EPISODE END] the actor sent its message to the user after');
  });

  it('records the page at the start and after every step (typed text, the acted element), never in a prompt, and exports keep it', async () => {
    const actions = ["fill('12', 'Aurora Camping Tent')", "click('13')"];
    const model = scriptedModel(actions.map((a) => `REASONING: go\nACTION: ${a}`));
    const trajectory = await runEpisode({
      engine: webEpisodeEngine(nodeWebEnvironment('web:shop/t1:1'), 'web:shop/t1:1', 1), actor: new Actor(model), story: { title: 't1', maxScore: 1 }, guidingPrompt: '', maxSteps: 2,
    });
    expect(trajectory.startPage).toMatchObject({ url: 'http://shop.test/', targetBid: null });
    expect(trajectory.startPage!.html).toContain('bid="12"');
    const [filled, clicked] = trajectory.steps;
    expect(filled!.page).toMatchObject({ url: 'http://shop.test/', targetBid: '12' });
    expect(filled!.page!.html).toMatch(/<input[^>]*bid="12"[^>]*value="Aurora Camping Tent"|<input[^>]*value="Aurora Camping Tent"[^>]*bid="12"/);
    // The click loaded the results page: bid 13 there is another element, so nothing is marked.
    expect(clicked!.page!.targetBid).toBeNull();
    expect(clicked!.page!.url).toMatch(/^http:\/\/shop\.test\/search\?.*Aurora/);
    expect(clicked!.page!.title).not.toBe('');
    // A web task's steps carry the page, never a Z-machine location.
    expect(trajectory.steps.map((s) => 'location' in s)).toEqual([false, false]);
    expect('startLocation' in trajectory).toBe(false);
    // The actor reads the accessibility tree, never the HTML.
    for (const prompt of model.prompts) for (const message of prompt) expect(message.content).not.toContain('bid="');
    // A trajectory export keeps the pages (replays draw them).
    const back = importTrajectory(exportTrajectory(trajectory));
    expect(back.startPage).toEqual(trajectory.startPage);
    expect(back.steps.map((s) => s.page)).toEqual(trajectory.steps.map((s) => s.page));
  });
});
