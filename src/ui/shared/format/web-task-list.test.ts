import { describe, expect, it } from 'vitest';
import { webTaskSet } from '../../../web/tasks/catalog.ts';
import { loadWebCatalog } from '../state/web-catalog.ts';
import { parseWebTaskList, webListIds, webPick, webTaskLabel, withWebTask } from './web-task-list.ts';

describe('web task lists', () => {
  it('parses sets (any case) and ids once each, in order; every id of a list is the set then the ids', async () => {
    const catalog = await loadWebCatalog();
    const list = parseWebTaskList(' web-ood,web:map/t40:3  web:map/t40:3, WEB-OOD', catalog);
    expect(list).toEqual({ sets: [{ name: 'WEB-OOD', ids: webTaskSet('WEB-OOD') }], ids: ['web:map/t40:3'] });
    expect(webListIds(list as never)).toEqual([...webTaskSet('WEB-OOD'), 'web:map/t40:3']);
    expect(parseWebTaskList('web:map/t1:3', catalog)).toEqual({ error: '“web:map/t1:3”: template t1 belongs to shop, not map.' });
    expect(catalog.intentOf('web:shop/t1:4')).toBe('What is the price of the Harbor Coffee Grinder?');
    expect(catalog.intentOf('web:shop/t1')).toMatch(/^e\.g\. What is the price of the /);
    expect(catalog.intentOf('advent')).toBeUndefined();
    expect(catalog.list()).toHaveLength(235);
  });

  it('labels, picks and appends', () => {
    expect(webTaskLabel('web:shop-admin/t13:2')).toBe('shop-admin/t13:2');
    expect(webTaskLabel('detective:0')).toBe('detective:0');
    expect(webPick('web:shop/t1:4')).toEqual({ storyId: 'web:shop/t1', seed: 4 });
    expect(withWebTask('', 'web:shop/t1:4')).toBe('web:shop/t1:4');
    expect(withWebTask('WEB-OOD web:shop/t1:4', 'web:shop/t1:4')).toBe('WEB-OOD web:shop/t1:4');
    expect(withWebTask('WEB-OOD,', 'web:map/t40:3')).toBe('WEB-OOD, web:map/t40:3');
  });
});
