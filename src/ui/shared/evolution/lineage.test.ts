/** The lineage tree layout: depth-first rows, numeric child order, box-drawing prefixes, orphans. */
import { describe, expect, it } from 'vitest';
import { ancestry, compareIds, lineageRows } from './lineage.ts';

const nodes = [
  { id: 'c0', parentId: null },
  { id: 'c1', parentId: 'c0' },
  { id: 'c2', parentId: 'c1' },
  { id: 'c10', parentId: 'c0' },
  { id: 'c3', parentId: 'c0' },
  { id: 'c4', parentId: 'c2' },
  { id: 'c5', parentId: 'c1' },
  { id: 'x', parentId: 'gone' },
];

describe('lineage tree layout', () => {
  it('lays out depth-first with children in creation order and tree prefixes', () => {
    expect(lineageRows(nodes).map((r) => `${r.prefix}${r.id}`)).toEqual([
      'c0',
      '├─ c1',
      '│  ├─ c2',
      '│  │  └─ c4',
      '│  └─ c5',
      '├─ c3',
      '└─ c10',
      'x',
    ]);
  });

  it('reports depth, parent and children; an unknown parent makes a root', () => {
    const rows = lineageRows(nodes);
    expect(rows.find((r) => r.id === 'c4')).toMatchObject({ depth: 3, parentId: 'c2', children: [] });
    expect(rows.find((r) => r.id === 'c0')?.children).toEqual(['c1', 'c3', 'c10']);
    expect(rows.find((r) => r.id === 'x')).toMatchObject({ depth: 0, prefix: '' });
  });

  it('orders ids numerically and finds a candidate’s ancestry', () => {
    expect(['c10', 'c2', 'z', 'c1'].sort(compareIds)).toEqual(['c1', 'c2', 'c10', 'z']);
    expect(ancestry(nodes, 'c4')).toEqual(['c0', 'c1', 'c2', 'c4']);
    expect(ancestry([{ id: 'a', parentId: 'b' }, { id: 'b', parentId: 'a' }], 'a')).toEqual(['b', 'a']);
  });
});
