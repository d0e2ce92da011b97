/**
 * The map (WebArena's OpenStreetMap in miniature): place search, place pages, directions between
 * two places (by name or id) with distance and time per travel mode, and nearby search by category.
 * Read-only: its state is the `MapData`.
 */
import { PLACE_CATEGORIES, roadKm, straightKm, TRAVEL_MODES, travelMinutes, type MapData, type Place } from '../data/map-data.ts';
import { html, withQuery } from './html.ts';
import { layout, notFoundPage, page, redirect, Router, selectField, SITE_ORIGINS, textField, type Site, type WebResponse } from './site.ts';

const NAME = 'Map';
const NAV: [string, string][] = [['/', 'Search'], ['/directions', 'Directions']];

/** Places whose name, category or address contains every word of `query` (case-insensitive). */
export function searchPlaces(data: MapData, query: string): Place[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  return data.places.filter((p) => words.every((w) => `${p.name} ${p.category} ${p.address}`.toLowerCase().includes(w)));
}

/** A place by id or exact name (case-insensitive), or null. */
export function findPlace(data: MapData, text: string): Place | null {
  const t = text.trim().toLowerCase();
  return data.places.find((p) => p.id === t || p.name.toLowerCase() === t) ?? null;
}

/** Places of a category nearest to `from` first (straight line; ties by name). */
export function nearby(data: MapData, from: Place, category: string): Place[] {
  return data.places.filter((p) => p.id !== from.id && p.category === category).sort((a, b) => straightKm(from, a) - straightKm(from, b) || a.name.localeCompare(b.name));
}

export function createMap(data: MapData): Site<MapData> {
  const frame = (title: string, body: ReturnType<typeof html>): WebResponse => page(`${title} – ${NAME}`, layout(NAME, NAV, title, body));
  const notFound = (path: string) => notFoundPage(NAME, NAV, path);
  const searchForm = (q: string) => html`<form method="get" action="/search" role="search">${textField('q', 'Search places', q, 'search')} <button type="submit">Search</button></form>`;

  const directions = (q: URLSearchParams) => {
    const fromText = q.get('from') ?? '';
    const toText = q.get('to') ?? '';
    const mode = TRAVEL_MODES.some((m) => m.id === q.get('mode')) ? q.get('mode')! : 'car';
    const from = findPlace(data, fromText);
    const to = findPlace(data, toText);
    // Names typed in the form are resolved to place ids, as a map's canonical directions URL does.
    if (from && to && (fromText !== from.id || toText !== to.id)) return redirect(withQuery('/directions', { from: from.id, to: to.id, mode }));
    const form = html`<form method="get" action="/directions">${textField('from', 'From', from?.name ?? fromText)} ${textField('to', 'To', to?.name ?? toText)} ${selectField('mode', 'Travel mode', TRAVEL_MODES.map((m) => [m.id, m.label]), mode)} <button type="submit">Get directions</button></form>`;
    let result = html``;
    if (fromText && !from) result = html`<p role="alert">No place found for '${fromText}'.</p>`;
    else if (toText && !to) result = html`<p role="alert">No place found for '${toText}'.</p>`;
    else if (from && to) result = html`<section aria-label="Route"><h2>${from.name} to ${to.name}</h2><p>Distance: ${roadKm(from, to).toFixed(1)} km</p><p>Time: ${travelMinutes(from, to, mode)} min by ${TRAVEL_MODES.find((m) => m.id === mode)!.label.toLowerCase()}</p></section>`;
    return frame('Directions', html`${form}${result}`);
  };

  const router = new Router()
    .add('GET', /^\/$/, () => frame('Map of Town', html`${searchForm('')}<p>${data.places.length} places on the map.</p>`))
    .add('GET', /^\/search$/, (_, r) => {
      const q = r.query.get('q') ?? '';
      const hits = searchPlaces(data, q);
      return frame(`Search results for '${q}'`, html`${searchForm(q)}${hits.length === 0 ? html`<p>No places found.</p>` : html`<ul>${hits.map((p) => html`<li><a href="/place/${p.id}">${p.name}</a> · ${p.category} · ${p.address}</li>`)}</ul>`}`);
    })
    .add('GET', /^\/place\/(p\d+)$/, ([id], r) => {
      const p = data.places.find((x) => x.id === id);
      if (!p) return notFound(r.path);
      return frame(p.name, html`<p>Category: ${p.category}</p><p>Address: ${p.address}</p><p>Coordinates: ${p.x.toFixed(1)} km east, ${p.y.toFixed(1)} km north</p>
<p><a href="/directions?from=${p.id}">Directions from here</a> <a href="/directions?to=${p.id}">Directions to here</a></p>
<form method="get" action="/nearby"><input type="hidden" name="place" value="${p.id}">${selectField('category', 'Category', PLACE_CATEGORIES.map((c) => [c, c]), null)} <button type="submit">Find nearby</button></form>`);
    })
    .add('GET', /^\/directions$/, (_, r) => directions(r.query))
    .add('GET', /^\/nearby$/, (_, r) => {
      const from = findPlace(data, r.query.get('place') ?? '');
      const category = r.query.get('category') ?? '';
      if (!from || !PLACE_CATEGORIES.includes(category)) return notFound(r.path);
      const list = nearby(data, from, category);
      return frame(`${category} near ${from.name}`, list.length === 0 ? html`<p>None nearby.</p>` : html`<ol>${list.map((p) => html`<li><a href="/place/${p.id}">${p.name}</a> · ${straightKm(from, p).toFixed(1)} km</li>`)}</ol>`);
    });
  return { id: 'map', origin: SITE_ORIGINS.map, state: data, handle: (request) => router.handle(request, () => notFound(request.path)) };
}
