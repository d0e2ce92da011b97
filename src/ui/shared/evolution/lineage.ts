/**
 * The lineage tree of an evolution's candidates as rows of an indented tree (parentId links):
 * depth-first from the roots, children in creation order (c1 before c2 before c10), each row
 * with its depth and the tree-drawing prefix ("│  ├─ "). A candidate whose parent is unknown is
 * a root. Pure.
 */
import type { CsvTable } from '../../../eval/csv.ts';
import { describeModel, MODEL_CSV_COLUMNS, modelCsvCells } from '../../../llm/model-label.ts';

export interface LineageNode {
  id: string;
  parentId: string | null;
}

export interface LineageRow {
  id: string;
  parentId: string | null;
  depth: number;
  /** Box-drawing prefix of the row ('' for a root). */
  prefix: string;
  /** Ids of the children, in order. */
  children: string[];
}

/** Numeric order of ids like "c12" (other ids after, by text). */
export function compareIds(a: string, b: string): number {
  const na = Number(/^c(\d+)$/.exec(a)?.[1] ?? NaN);
  const nb = Number(/^c(\d+)$/.exec(b)?.[1] ?? NaN);
  if (Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  if (Number.isFinite(na) !== Number.isFinite(nb)) return Number.isFinite(na) ? -1 : 1;
  return a.localeCompare(b);
}

export function lineageRows(nodes: readonly LineageNode[]): LineageRow[] {
  const ids = new Set(nodes.map((n) => n.id));
  const children = new Map<string, string[]>();
  const roots: string[] = [];
  for (const n of nodes) {
    if (n.parentId !== null && ids.has(n.parentId) && n.parentId !== n.id) children.set(n.parentId, [...(children.get(n.parentId) ?? []), n.id]);
    else roots.push(n.id);
  }
  for (const list of children.values()) list.sort(compareIds);
  roots.sort(compareIds);
  const parentOf = new Map(nodes.map((n) => [n.id, n.parentId]));
  const rows: LineageRow[] = [];
  const seen = new Set<string>();
  const visit = (id: string, depth: number, lead: string, last: boolean, root: boolean) => {
    if (seen.has(id)) return;
    seen.add(id);
    const kids = children.get(id) ?? [];
    rows.push({ id, parentId: parentOf.get(id) ?? null, depth, prefix: root ? '' : `${lead}${last ? '└─ ' : '├─ '}`, children: kids });
    const nextLead = root ? '' : `${lead}${last ? '   ' : '│  '}`;
    kids.forEach((kid, i) => visit(kid, depth + 1, nextLead, i === kids.length - 1, false));
  };
  for (const r of roots) visit(r, 0, '', true, true);
  return rows;
}

/** The ids from a root down to `id` (for highlighting a candidate's ancestry). */
export function ancestry(nodes: readonly LineageNode[], id: string): string[] {
  const parentOf = new Map(nodes.map((n) => [n.id, n.parentId]));
  const path: string[] = [];
  for (let at: string | null | undefined = id; at && !path.includes(at); at = parentOf.get(at)) path.unshift(at);
  return path;
}

/** The lineage tree as a table (tree order): id, parent, depth (0 = root), the drawn tree line,
 * status and mean validation W-AUC (`meanOf`; empty when not validated), then who played the run
 * (`model`: model and model_caveat, llm/model-label.ts; "unknown model" without it). */
export function lineageTable(nodes: readonly (LineageNode & { status: string })[], meanOf: (id: string) => number | null, model: { name: string; caveat: string | null } = describeModel({})): CsvTable {
  const statusOf = new Map(nodes.map((n) => [n.id, n.status]));
  const who = modelCsvCells(model);
  return {
    header: ['id', 'parent', 'depth', 'tree', 'status', 'mean', ...MODEL_CSV_COLUMNS],
    rows: lineageRows(nodes).map((r) => [r.id, r.parentId, r.depth, `${r.prefix}${r.id}`, statusOf.get(r.id) ?? '', meanOf(r.id), ...who]),
  };
}
