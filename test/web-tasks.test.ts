/**
 * The web benchmark as a whole: size and spread of the task set (WebArena-Lite's shape), ids and
 * splits, and for every instance of every template: the oracle script reaches reward 1 and the
 * wrong script gets 0 — every task is solvable and every check tells right from wrong.
 */
import { describe, expect, it } from 'vitest';
import { runScript } from '../src/web/dom/oracle.ts';
import { WEB_SITES, type WebCheckKind } from '../src/web/interface.ts';
import { instantiate, listWebTasks, parseWebTaskId, splitOf, WEB_DEFAULT_MAX_STEPS, WEB_SEEDS, WEB_TEMPLATES, webTaskSet } from '../src/web/tasks/catalog.ts';
import { rng, webEnv } from './support/web.ts';

describe('the web task catalog', () => {
  const tasks = listWebTasks(rng);

  it('has ≥ 30 templates and ≥ 150 instances over the five sites, every check kind and N/A cases on each site', () => {
    expect(WEB_TEMPLATES.length).toBe(47);
    expect(tasks.length).toBe(235);
    expect(new Set(tasks.map((t) => t.id)).size).toBe(tasks.length);
    for (const site of WEB_SITES) {
      const own = WEB_TEMPLATES.filter((t) => t.site === site);
      expect(own.length, site).toBeGreaterThanOrEqual(7);
      expect(new Set(own.map((t) => t.kind)), site).toContain('information');
      expect(own.filter((t) => instantiate(t, 1, rng).instance.unachievable).length, site).toBe(1);
    }
    const kinds = (site: string) => new Set(tasks.filter((t) => t.site === site).map((t) => t.check));
    for (const site of ['shop', 'shop-admin', 'forum', 'forge']) expect([...kinds(site)].sort(), site).toEqual<WebCheckKind[]>(['state', 'string_match', 'url_match']);
    expect([...kinds('map')].sort()).toEqual(['string_match', 'url_match']);
  });

  it('lists instances as { id, site, template, intent, check, split } with ids web:<site>/<template>:<seed>', () => {
    const t = tasks.find((x) => x.id === 'web:shop/t12:3')!;
    expect(Object.keys(t).sort()).toEqual(['check', 'id', 'intent', 'site', 'split', 'template']);
    expect(t).toMatchObject({ site: 'shop', template: 't12', check: 'state', split: 'val' });
    expect(t.intent).toMatch(/^Put one .+ and one .+ in my cart\.$/);
    expect(() => parseWebTaskId('web:shop/t99:1')).toThrow(/unknown template "t99"/);
    expect(() => parseWebTaskId('web:forum/t1:1')).toThrow(/belongs to shop, not forum/);
    expect(() => parseWebTaskId('shop/t1')).toThrow(/expected web:<site>\/<template>:<seed>/);
    // Only the listed (oracle-tested) instances: seeds 1–5.
    expect(() => parseWebTaskId('web:shop/t1:0')).toThrow('template t1 has no seed 0 in web:shop/t1:0 (seeds 1, 2, 3, 4, 5)');
    expect(() => parseWebTaskId('web:shop/t47:99')).toThrow('template t47 has no seed 99 in web:shop/t47:99 (seeds 1, 2, 3, 4, 5)');
    expect(parseWebTaskId('web:shop/t1:5').seed).toBe(5);
  });

  it('splits shop, forge and map into train / val / test and keeps forum and shop admin out of distribution', () => {
    expect(WEB_SEEDS.map((s) => splitOf('forge', s))).toEqual(['train', 'train', 'val', 'test', 'test']);
    expect(WEB_SEEDS.map((s) => splitOf('forum', s))).toEqual(['ood', 'ood', 'ood', 'ood', 'ood']);
    const sizes = Object.fromEntries((['WEB-ID-train', 'WEB-ID-val', 'WEB-ID-test', 'WEB-OOD'] as const).map((n) => [n, webTaskSet(n).length]));
    expect(sizes).toEqual({ 'WEB-ID-train': 60, 'WEB-ID-val': 30, 'WEB-ID-test': 60, 'WEB-OOD': 85 });
    expect(webTaskSet('WEB-OOD').every((id) => /^web:(forum|shop-admin)\//.test(id))).toBe(true);
    expect(webTaskSet('WEB-ID-test').every((id) => /^web:(shop|forge|map)\/t\d+:[45]$/.test(id))).toBe(true);
  });

  it('the same seed gives the same instances and different seeds give different data', () => {
    expect(listWebTasks(rng)).toEqual(tasks);
    const prices = tasks.filter((t) => t.template === 't1').map((t) => t.intent);
    expect(new Set(prices).size).toBeGreaterThan(1);
  });
});

describe.each(WEB_TEMPLATES.map((t) => [`${t.site}/${t.id}`, t] as const))('template %s', (_name, template) => {
  it.each(WEB_SEEDS)('seed %i: the oracle script fits the step limit and gets reward 1, the wrong script 0', async (seed) => {
    const env = webEnv(`web:${template.site}/${template.id}:${seed}`);
    await env.reset(seed);
    expect(env.current.oracle.length).toBeLessThanOrEqual(WEB_DEFAULT_MAX_STEPS);
    const oracle = await runScript(env, env.current.oracle);
    expect(oracle.reward, oracle.steps.map((s) => s.action).join(' ')).toBe(1);
    const wrong = await runScript(env, env.current.wrong);
    expect(wrong.reward, wrong.steps.map((s) => s.action).join(' ')).toBe(0);
    if (env.current.unachievable) expect(env.current.check).toEqual({ kind: 'string_match', exact: 'N/A' });
  });
});
