/**
 * The web task catalog for the Evolve and Evaluate forms, loaded on demand (the sites' data and the
 * task templates are not in the page's initial chunk): the named sets (WEB-ID-train, WEB-ID-val,
 * WEB-ID-test, WEB-OOD — the method's split), id validation with the catalog's messages, and each
 * instance's intent (for hover texts), computed from the seeded data on first use.
 */
import type { WebTaskListing, WebTaskSetName } from '../../../web/interface.ts';

export interface WebCatalog {
  /** The named sets, in the method's order. */
  readonly setNames: readonly WebTaskSetName[];
  /** The instance ids of a named set. */
  setIds(name: WebTaskSetName): string[];
  /** The canonical id of `id`. @throws Error (the catalog's message) for a malformed or unknown id */
  parseId(id: string): string;
  /** Every instance with its site, template, intent, check and split (computed on first call). */
  list(): readonly WebTaskListing[];
  /** What a task (`web:<site>/<t>:<seed>`) asks; for a template id (`web:<site>/<t>`), its first
   * instance's intent prefixed "e.g."; undefined for anything else. */
  intentOf(id: string): string | undefined;
}

let loading: Promise<WebCatalog> | null = null;

/** The catalog (one load per page; later calls share it). */
export function loadWebCatalog(): Promise<WebCatalog> {
  loading ??= Promise.all([import('../../../web/tasks/catalog.ts'), import('../../../ttl/web-engine.ts')]).then(([catalog, { webRng }]) => {
    let listing: Map<string, WebTaskListing> | null = null;
    const byId = (): Map<string, WebTaskListing> => (listing ??= new Map(catalog.listWebTasks(webRng).map((t) => [t.id, t])));
    return {
      setNames: catalog.WEB_TASK_SETS,
      setIds: (name) => catalog.webTaskSet(name),
      parseId: (id) => catalog.parseWebTaskId(id).id,
      list: () => [...byId().values()],
      intentOf: (id) => {
        if (!id.startsWith('web:')) return undefined;
        const exact = byId().get(id)?.intent;
        if (exact !== undefined || !/^web:[a-z-]+\/t\d+$/.test(id)) return exact;
        const first = [...byId().values()].find((t) => t.id.startsWith(`${id}:`));
        return first ? `e.g. ${first.intent}` : undefined;
      },
    };
  });
  return loading;
}
