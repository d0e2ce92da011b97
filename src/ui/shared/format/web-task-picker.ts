/**
 * The web task picker's data: the catalog's instances (`WebTaskListing`, as `metattl tasks --kind
 * web` lists them) grouped site → template → seed, each template shown with its first instance's
 * intent, and a typed id looked up in that tree. Pure; the listing itself loads lazily
 * (web-task-listing.ts), so the catalog stays out of the page's first chunk.
 */
import type { WebSiteId, WebSplit, WebTaskListing } from '../../../web/interface.ts';

/** One instance of a template: its seed, id, intent and place in the split. */
export interface PickerInstance {
  seed: number;
  id: string;
  intent: string;
  split: WebSplit;
}

/** A template of a site with its instances (seed order). */
export interface PickerTemplate {
  /** `t12` */
  template: string;
  /** The first instance's intent (what the template asks, filled in for its lowest seed). */
  intent: string;
  instances: PickerInstance[];
}

/** A site with its templates (catalog order). */
export interface PickerSite {
  site: WebSiteId;
  /** For people: `shop admin` for `shop-admin`. */
  label: string;
  templates: PickerTemplate[];
}

/** Where a task id sits in the tree. */
export interface PickerPosition {
  site: PickerSite;
  template: PickerTemplate;
  instance: PickerInstance;
}

/** Group the listing site → template → seed, keeping the listing's order of first appearance. */
export function groupWebTasks(listing: readonly WebTaskListing[]): PickerSite[] {
  const sites: PickerSite[] = [];
  for (const task of listing) {
    let site = sites.find((s) => s.site === task.site);
    if (!site) sites.push((site = { site: task.site, label: task.site.replace('-', ' '), templates: [] }));
    let template = site.templates.find((t) => t.template === task.template);
    if (!template) site.templates.push((template = { template: task.template, intent: task.intent, instances: [] }));
    template.instances.push({ seed: Number(task.id.slice(task.id.lastIndexOf(':') + 1)), id: task.id, intent: task.intent, split: task.split });
  }
  for (const site of sites) for (const template of site.templates) template.instances.sort((a, b) => a.seed - b.seed);
  return sites;
}

/** The position of task `id` (`web:<site>/<template>:<seed>`, surrounding spaces ignored), or null
 * when the catalog has no such instance. */
export function findWebTask(sites: readonly PickerSite[], id: string): PickerPosition | null {
  const wanted = id.trim();
  for (const site of sites) {
    for (const template of site.templates) {
      const instance = template.instances.find((i) => i.id === wanted);
      if (instance) return { site, template, instance };
    }
  }
  return null;
}

/** Why a typed id names no task (user-readable), or null when it names one. */
export function webTaskIdProblem(sites: readonly PickerSite[], id: string): string | null {
  const wanted = id.trim();
  if (wanted === '') return 'Type a web task id, e.g. web:shop/t1:1.';
  if (findWebTask(sites, wanted)) return null;
  const m = /^web:([a-z-]+)\/(t\d+):(\d+)$/.exec(wanted);
  if (!m) return `“${wanted}” is not a web task id: use web:<site>/<template>:<seed>, e.g. web:shop/t1:1.`;
  const site = sites.find((s) => s.site === m[1]);
  if (!site) return `There is no site “${m[1]}” (sites: ${sites.map((s) => s.site).join(', ')}).`;
  const template = site.templates.find((t) => t.template === m[2]);
  if (!template) return `The ${site.label} site has no template ${m[2]} (it has ${site.templates[0]?.template ?? '–'}–${site.templates.at(-1)?.template ?? '–'}).`;
  return `Template ${m[2]} has no seed ${m[3]} (seeds ${template.instances.map((i) => i.seed).join(', ')}).`;
}
