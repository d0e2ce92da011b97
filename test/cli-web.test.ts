/**
 * The `npx metattl tasks --kind web` and `npx metattl oracle <task>` contracts, run as real
 * processes: JSON shapes and values, the named sets, and usage errors with exit code 2.
 */
import { describe, expect, it } from 'vitest';
import { type CliResult, runCli } from './support/cli.ts';


const metattl = (args: string[]): Promise<CliResult> => runCli(args);

describe('metattl tasks --kind web', () => {
  it('lists all 235 instances as { id, site, template, intent, check, split }', async () => {
    const { code, stdout } = await metattl(['tasks', '--kind', 'web', '--json']);
    expect(code).toBe(0);
    const tasks = JSON.parse(stdout) as { id: string; site: string; template: string; intent: string; check: string; split: string }[];
    expect(tasks).toHaveLength(235);
    expect(tasks[0]).toEqual({ id: 'web:shop/t1:1', site: 'shop', template: 't1', intent: expect.stringMatching(/^What is the price of the .+\?$/), check: 'string_match', split: 'train' });
    expect(new Set(tasks.map((t) => t.check))).toEqual(new Set(['string_match', 'url_match', 'state']));
    expect(new Set(tasks.map((t) => t.site))).toEqual(new Set(['shop', 'shop-admin', 'forum', 'forge', 'map']));
  });

  it('filters by a named set and refuses unknown kinds and sets', async () => {
    const { stdout } = await metattl(['tasks', '--kind', 'web', '--set', 'WEB-ID-test', '--json']);
    const ids = (JSON.parse(stdout) as { id: string; split: string }[]).map((t) => t.id);
    expect(ids).toHaveLength(60);
    expect(ids).toContain('web:map/t46:5');
    const badSet = await metattl(['tasks', '--kind', 'web', '--set', 'WEB-XYZ']);
    expect(badSet.code).toBe(2);
    expect(badSet.stderr).toMatch(/unknown set "WEB-XYZ" \(sets: WEB-ID-train, WEB-ID-val, WEB-ID-test, WEB-OOD\)/);
    expect((await metattl(['tasks', '--kind', 'zmachine'])).code).toBe(2);
  });
});

describe('metattl oracle', () => {
  it('plays the oracle script: { task, reward, steps: [{ action, observation }] }', async () => {
    const { code, stdout } = await metattl(['oracle', 'web:shop/t7:3', '--json']);
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as { task: string; reward: number; steps: { action: string; observation: string }[] };
    expect(out.task).toBe('web:shop/t7:3');
    expect(out.reward).toBe(1);
    expect(out.steps.at(-1)!.action).toBe("send_msg_to_user('done')");
    expect(out.steps.some((s) => /^click\('\d+'\)$/.test(s.action))).toBe(true);
    expect(out.steps.find((s) => s.action.startsWith('fill('))!.action).toMatch(/^fill\('\d+', '.+'\)$/);
    expect(out.steps.find((s) => s.action.startsWith('select_option('))!.action).toMatch(/^select_option\('\d+', '(Express|Store pickup).+'\)$/);
    expect(out.steps.at(-2)!.observation).toMatch(/Thank you for your purchase! Your order number is 000041\./);
  });

  it('--wrong plays the wrong script (reward 0); a bad task id is a usage error', async () => {
    const wrong = JSON.parse((await metattl(['oracle', 'web:map/t41:2', '--wrong', '--json'])).stdout) as { reward: number };
    expect(wrong.reward).toBe(0);
    const bad = await metattl(['oracle', 'web:map/t1:2']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^metattl: template t1 belongs to shop, not map/);
    const unlisted = await metattl(['oracle', 'web:shop/t1:99']);
    expect(unlisted.code).toBe(2);
    expect(unlisted.stderr).toMatch(/^metattl: template t1 has no seed 99 in web:shop\/t1:99 \(seeds 1, 2, 3, 4, 5\)/);
  }, 60_000);
});
