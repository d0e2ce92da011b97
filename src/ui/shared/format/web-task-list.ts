/**
 * Web tasks typed into the Evolve and Evaluate forms: a list of task ids
 * (`web:<site>/<template>:<seed>`) and named sets (WEB-ID-train, WEB-ID-val, WEB-ID-test, WEB-OOD,
 * any case), separated by commas or spaces — as the CLI's `--tasks`. Parsing needs the catalog
 * (web-catalog.ts); labels do not. Pure.
 */
import type { WebTaskSetName } from '../../../web/interface.ts';
import type { WebCatalog } from '../state/web-catalog.ts';
import { isWebTaskId } from '../state/web-task-id.ts';
import { parseTaskId } from '../state/run-services.ts';
import type { TaskPick } from './task-picks.ts';
import { WEB_SESSION_DEFAULTS } from '../../../ttl/run-defaults.ts';
import { errorText } from '../state/error-text.ts';

/** A parsed list: the named sets it names (with their ids) and the single ids, each once, in order. */
export interface WebTaskList {
  sets: { name: WebTaskSetName; ids: string[] }[];
  ids: string[];
}

/** Parse a typed list. @returns the list, or a message naming the first bad entry */
export function parseWebTaskList(text: string, catalog: WebCatalog): WebTaskList | { error: string } {
  const out: WebTaskList = { sets: [], ids: [] };
  for (const part of text.split(/[\s,]+/).filter(Boolean)) {
    const set = catalog.setNames.find((n) => n.toLowerCase() === part.toLowerCase());
    if (set) {
      if (!out.sets.some((s) => s.name === set)) out.sets.push({ name: set, ids: catalog.setIds(set) });
      continue;
    }
    if (!isWebTaskId(part)) return { error: `“${part}” is not a web task or set: use web:<site>/<template>:<seed> (e.g. web:shop/t1:3) or ${catalog.setNames.join(', ')}.` };
    let id: string;
    try {
      id = catalog.parseId(part);
    } catch (error) {
      return { error: `“${part}”: ${errorText(error)}.` };
    }
    if (!out.ids.includes(id)) out.ids.push(id);
  }
  return out;
}

/** Every id of a list (sets first, then single ids), each once. */
export function webListIds(list: WebTaskList): string[] {
  return [...new Set([...list.sets.flatMap((s) => s.ids), ...list.ids])];
}

/** A web task id as a pick: story `web:<site>/<template>` (the template is the "game"), its seed. */
export function webPick(id: string): TaskPick {
  return parseTaskId(id);
}

/** A task or game id for people: `web:shop/t12:3` → `shop/t12:3`; other ids unchanged. */
export function webTaskLabel(id: string): string {
  return isWebTaskId(id) ? id.slice('web:'.length) : id;
}

/** Episodes K and steps S when every task is a web task (the core's, ttl/run-defaults.ts, which
 * does not load the catalog). */
export const WEB_DEFAULTS = WEB_SESSION_DEFAULTS;

/** `text` with `id` appended (", "-separated; unchanged when it is already listed). */
export function withWebTask(text: string, id: string): string {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  return parts.includes(id) ? text : [...parts, id].join(', ');
}
