/**
 * The five sites by id: how each generates its data from the seed and starts a running site over
 * it. The shop and its admin back office share one store. No DOM here.
 */
import { generateForge } from '../data/forge-data.ts';
import { generateForum } from '../data/forum-data.ts';
import { generateMap } from '../data/map-data.ts';
import { generateShop } from '../data/shop-data.ts';
import type { RandomSource, WebSiteId } from '../interface.ts';
import { createForge } from './forge.ts';
import { createForum } from './forum.ts';
import { createMap } from './map.ts';
import { createShopAdmin } from './shop-admin.ts';
import { createShop } from './shop.ts';
import type { Site } from './site.ts';

/** A site kind: data generation (seeded) and a running site over that data. */
export interface SiteDefinition<D = unknown> {
  id: WebSiteId;
  /** Shown in texts ("the shop"). */
  title: string;
  generate(rng: RandomSource): D;
  create(data: D): Site<D>;
}

const shop: SiteDefinition<ReturnType<typeof generateShop>> = { id: 'shop', title: 'an online shop', generate: generateShop, create: createShop };
const shopAdmin: SiteDefinition<ReturnType<typeof generateShop>> = { id: 'shop-admin', title: "the shop's admin back office", generate: generateShop, create: createShopAdmin };

const forum: SiteDefinition<ReturnType<typeof generateForum>> = { id: 'forum', title: 'a discussion forum', generate: generateForum, create: createForum };

const forge: SiteDefinition<ReturnType<typeof generateForge>> = { id: 'forge', title: 'a code forge', generate: generateForge, create: createForge };

const map: SiteDefinition<ReturnType<typeof generateMap>> = { id: 'map', title: 'a town map', generate: generateMap, create: createMap };

/** Every site by id. */
export const SITE_DEFINITIONS: Record<WebSiteId, SiteDefinition> = {
  shop: shop as SiteDefinition,
  'shop-admin': shopAdmin as SiteDefinition,
  forum: forum as SiteDefinition,
  forge: forge as SiteDefinition,
  map: map as SiteDefinition,
};

/** @throws Error for an unknown site id */
export function siteDefinition(id: WebSiteId): SiteDefinition {
  const def = SITE_DEFINITIONS[id] as SiteDefinition | undefined;
  if (!def) throw new Error(`unknown site "${id}"`);
  return def;
}
