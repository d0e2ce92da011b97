import { describe, expect, it } from 'vitest';
import { webRng } from '../../../ttl/web-engine.ts';
import { listWebTasks } from '../../../web/tasks/catalog.ts';
import { findWebTask, groupWebTasks, webTaskIdProblem } from './web-task-picker.ts';

describe('web task picker data', () => {
  const listing = listWebTasks(webRng);
  const sites = groupWebTasks(listing);

  it('groups the catalog site → template → seed with nothing lost', () => {
    expect(sites.map((s) => s.label)).toEqual(['shop', 'shop admin', 'forum', 'forge', 'map']);
    expect(sites.flatMap((s) => s.templates)).toHaveLength(47);
    expect(sites.flatMap((s) => s.templates.flatMap((t) => t.instances.map((i) => i.id))).sort()).toEqual(listing.map((t) => t.id).sort());
    const t1 = sites[0]!.templates[0]!;
    expect(t1.template).toBe('t1');
    expect(t1.instances.map((i) => [i.seed, i.split])).toEqual([[1, 'train'], [2, 'train'], [3, 'val'], [4, 'test'], [5, 'test']]);
    expect(t1.intent).toBe(listing.find((t) => t.id === 'web:shop/t1:1')!.intent);
    expect(t1.intent).toMatch(/^What is the price of the /);
    expect(sites.find((s) => s.site === 'forum')!.templates.every((t) => t.instances.every((i) => i.split === 'ood'))).toBe(true);
  });

  it('finds a typed id, and says why one names no task', () => {
    const found = findWebTask(sites, ' web:shop/t47:2 ')!;
    expect([found.site.site, found.template.template, found.instance.seed]).toEqual(['shop', 't47', 2]);
    expect(found.instance.intent).toBe(listing.find((t) => t.id === 'web:shop/t47:2')!.intent);
    expect(webTaskIdProblem(sites, 'web:shop/t47:2')).toBeNull();
    expect(webTaskIdProblem(sites, '')).toBe('Type a web task id, e.g. web:shop/t1:1.');
    expect(webTaskIdProblem(sites, 'shop/t1')).toBe('“shop/t1” is not a web task id: use web:<site>/<template>:<seed>, e.g. web:shop/t1:1.');
    expect(webTaskIdProblem(sites, 'web:mall/t1:1')).toBe('There is no site “mall” (sites: shop, shop-admin, forum, forge, map).');
    expect(webTaskIdProblem(sites, 'web:forum/t1:1')).toMatch(/^The forum site has no template t1 \(it has t\d+–t\d+\)\.$/);
    expect(webTaskIdProblem(sites, 'web:shop/t1:9')).toBe('Template t1 has no seed 9 (seeds 1, 2, 3, 4, 5).');
  });
});
