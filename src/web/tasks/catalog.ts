/**
 * Every web task: templates of the five sites × seeds → instances with ids `web:<site>/<t>:<seed>`,
 * the method's split (ID sites shop, forge, map: seeds 1–2 train, 3 val, 4–5 test; OOD sites forum
 * and shop admin: all ood) and the named task sets. Instances are computed from the seed's data with
 * an injected random source. No DOM.
 */
import {
  WEB_ID_SITES, WEB_SITES, type RandomSourceFactory, type WebSiteId, type WebSplit, type WebTaskInstance, type WebTaskListing, type WebTaskSetName, type WebTaskTemplate,
} from '../interface.ts';
import { siteDefinition } from '../sites/registry.ts';
import { FORGE_TEMPLATES } from './forge-tasks.ts';
import { MAP_TEMPLATES } from './map-tasks.ts';
import { FORUM_TEMPLATES } from './forum-tasks.ts';
import { SHOP_ADMIN_TEMPLATES } from './shop-admin-tasks.ts';
import { SHOP_TEMPLATES } from './shop-tasks.ts';

/** Every template, in id order. */
export const WEB_TEMPLATES: readonly WebTaskTemplate[] = [...SHOP_TEMPLATES, ...SHOP_ADMIN_TEMPLATES, ...FORUM_TEMPLATES, ...FORGE_TEMPLATES, ...MAP_TEMPLATES] as WebTaskTemplate[];

/** The seeds each template is instantiated with. */
export const WEB_SEEDS: readonly number[] = [1, 2, 3, 4, 5];

export const WEB_TASK_SETS: readonly WebTaskSetName[] = ['WEB-ID-train', 'WEB-ID-val', 'WEB-ID-test', 'WEB-OOD'];

/** Episodes and steps per episode the web task sets default to (defined in session-shape.ts). */
export { WEB_DEFAULT_EPISODES, WEB_DEFAULT_MAX_STEPS } from './session-shape.ts';

/** Where an instance falls in the split. */
export function splitOf(site: WebSiteId, seed: number): WebSplit {
  if (!WEB_ID_SITES.includes(site)) return 'ood';
  const r = ((seed - 1) % 5 + 5) % 5;
  return r < 2 ? 'train' : r === 2 ? 'val' : 'test';
}

export function webTaskId(site: WebSiteId, templateId: string, seed: number): string {
  return `web:${site}/${templateId}:${seed}`;
}

/** A parsed task id. */
export interface WebTaskRef {
  id: string;
  template: WebTaskTemplate;
  seed: number;
}

/** @throws Error (with the expected form) for a malformed id, an unknown template, a site mismatch
 * or a seed outside `WEB_SEEDS` */
export function parseWebTaskId(id: string): WebTaskRef {
  const m = /^web:([a-z-]+)\/(t\d+):(\d+)$/.exec(id.trim());
  if (!m) throw new Error(`"${id}" is not a web task id (expected web:<site>/<template>:<seed>, e.g. web:shop/t1:3)`);
  const [, site, templateId, seedText] = m;
  if (!WEB_SITES.includes(site as WebSiteId)) throw new Error(`unknown site "${site}" in ${id} (sites: ${WEB_SITES.join(', ')})`);
  const template = WEB_TEMPLATES.find((t) => t.id === templateId);
  if (!template) throw new Error(`unknown template "${templateId}" in ${id}`);
  if (template.site !== site) throw new Error(`template ${templateId} belongs to ${template.site}, not ${site}`);
  const seed = Number(seedText);
  // Only the listed instances are in the benchmark (each with its oracle and wrong script tested).
  if (!WEB_SEEDS.includes(seed)) throw new Error(`template ${templateId} has no seed ${seedText} in ${id} (seeds ${WEB_SEEDS.join(', ')})`);
  return { id: webTaskId(template.site, template.id, seed), template, seed };
}

/** The random-source seed a template's instantiation uses for a data seed (differs per template). */
export function instanceSeed(templateId: string, seed: number): number {
  let h = 2166136261;
  for (const c of `${templateId}:${seed}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

/** The data of the task's site for `seed` and the instance filled in from it. */
export function instantiate(template: WebTaskTemplate, seed: number, rng: RandomSourceFactory): { data: unknown; instance: WebTaskInstance } {
  const data = siteDefinition(template.site).generate(rng(seed));
  return { data, instance: template.instantiate(data, rng(instanceSeed(template.id, seed))) };
}

/** Every instance as listed by `metattl tasks --kind web`. */
export function listWebTasks(rng: RandomSourceFactory): WebTaskListing[] {
  return WEB_TEMPLATES.flatMap((template) =>
    WEB_SEEDS.map((seed) => {
      const { instance } = instantiate(template, seed, rng);
      return { id: webTaskId(template.site, template.id, seed), site: template.site, template: template.id, intent: instance.intent, check: instance.check.kind, split: splitOf(template.site, seed) };
    }),
  );
}

/** The ids of a named task set. */
export function webTaskSet(name: WebTaskSetName): string[] {
  const split: WebSplit = name === 'WEB-OOD' ? 'ood' : (name.slice('WEB-ID-'.length) as WebSplit);
  return WEB_TEMPLATES.flatMap((t) => WEB_SEEDS.filter((s) => splitOf(t.site, s) === split).map((s) => webTaskId(t.site, t.id, s)));
}
