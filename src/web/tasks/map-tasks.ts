/**
 * Task templates of the map (WebArena map style): driving distance, walking time, nearest place of
 * a kind, addresses, which of two places is closer (information); a directions page (navigation);
 * a route to a place that is not on the map (N/A). The map is read-only, so no state checks.
 */
import { roadKm, straightKm, TRAVEL_MODES, travelMinutes, type MapData, type Place } from '../data/map-data.ts';
import type { OracleStep, RandomSource, WebTaskTemplate } from '../interface.ts';
import { nearby } from '../sites/map.ts';
import { SITE_ORIGINS } from '../sites/site.ts';
import { answer, button, choose, click, combobox, done, fill, link, searchbox, textbox } from './steps.ts';

type MapTemplate = WebTaskTemplate<MapData, MapData>;

const route = (from: string, to: string, mode: string): OracleStep[] => [
  click(link('Directions')), fill(textbox('From'), from), fill(textbox('To'), to), choose(combobox('Travel mode'), TRAVEL_MODES.find((m) => m.id === mode)!.label), click(button('Get directions')),
];

/** Two different places whose road distance is not 0. */
function pair(data: MapData, rng: RandomSource): [Place, Place] {
  const [a, b] = rng.shuffle(data.places.filter((p, _i, all) => all.some((q) => q !== p && roadKm(p, q) > 0)));
  return roadKm(a!, b!) > 0 ? [a!, b!] : [a!, data.places.find((q) => roadKm(a!, q) > 0)!];
}

const driveKm: MapTemplate = {
  id: 't40', site: 'map', kind: 'information', intentTemplate: 'How far is it by car from {A} to {B}?',
  instantiate(data, rng) {
    const [a, b] = pair(data, rng);
    const km = roadKm(a, b).toFixed(1);
    const c = data.places.find((p) => p !== a && roadKm(a, p).toFixed(1) !== km && !roadKm(a, p).toFixed(1).includes(km))!;
    return { intent: `How far is it by car from ${a.name} to ${b.name}?`, check: { kind: 'string_match', mustInclude: [km] }, oracle: [...route(a.name, b.name, 'car'), answer(`${km} km`)], wrong: [...route(a.name, b.name, 'car'), answer(`${roadKm(a, c).toFixed(1)} km`)] };
  },
};

const walkMinutes: MapTemplate = {
  id: 't41', site: 'map', kind: 'information', intentTemplate: 'How many minutes does it take to walk from {A} to {B}?',
  instantiate(data, rng) {
    const [a, b] = pair(data, rng);
    const min = travelMinutes(a, b, 'foot');
    return { intent: `How many minutes does it take to walk from ${a.name} to ${b.name}?`, check: { kind: 'string_match', mustInclude: [String(min)] }, oracle: [...route(a.name, b.name, 'foot'), answer(`${min} min`)], wrong: [...route(a.name, b.name, 'car'), answer(`${travelMinutes(a, b, 'car') === min ? min + 1 : travelMinutes(a, b, 'car')} min`)] };
  },
};

const nearest: MapTemplate = {
  id: 't42', site: 'map', kind: 'information', intentTemplate: 'What is the nearest {category} to {place}?',
  instantiate(data, rng) {
    const options = data.places.flatMap((from) =>
      [...new Set(data.places.map((p) => p.category))].map((category) => ({ from, category, list: nearby(data, from, category) })),
    ).filter((o) => o.list.length >= 2 && straightKm(o.from, o.list[0]!) < straightKm(o.from, o.list[1]!));
    const { from, category, list } = rng.pick(options);
    const steps = [fill(searchbox('Search places'), from.name), click(button('Search')), click(link(from.name)), choose(combobox('Category'), category), click(button('Find nearby'))];
    return { intent: `What is the nearest ${category.toLowerCase()} to ${from.name}?`, check: { kind: 'string_match', mustInclude: [list[0]!.name] }, oracle: [...steps, answer(list[0]!.name)], wrong: [...steps, answer(list[1]!.name)] };
  },
};

const address: MapTemplate = {
  id: 't43', site: 'map', kind: 'information', intentTemplate: 'What is the address of {place}?',
  instantiate(data, rng) {
    const p = rng.pick(data.places);
    const other = rng.pick(data.places.filter((q) => q.address !== p.address)).address;
    const steps = [fill(searchbox('Search places'), p.name), click(button('Search')), click(link(p.name))];
    return { intent: `What is the address of ${p.name}?`, check: { kind: 'string_match', mustInclude: [p.address] }, oracle: [...steps, answer(p.address)], wrong: [...steps, answer(other)] };
  },
};

const bikeRoute: MapTemplate = {
  id: 't44', site: 'map', kind: 'navigation', intentTemplate: 'Show me the route by bicycle from {A} to {B}.',
  instantiate(data, rng) {
    const [a, b] = pair(data, rng);
    return { intent: `Show me the route by bicycle from ${a.name} to ${b.name}.`, check: { kind: 'url_match', url: `${SITE_ORIGINS.map}/directions?from=${a.id}&to=${b.id}&mode=bike` }, oracle: [...route(a.name, b.name, 'bike'), done()], wrong: [...route(b.name, a.name, 'bike'), done()] };
  },
};

const closer: MapTemplate = {
  id: 't45', site: 'map', kind: 'information', intentTemplate: 'Which is closer to {A} by road: {B} or {C}?',
  instantiate(data, rng) {
    const a = rng.pick(data.places);
    const [b, c] = rng.shuffle(data.places.filter((p) => p !== a));
    const c2 = roadKm(a, b!) === roadKm(a, c!) ? data.places.find((p) => p !== a && p !== b && roadKm(a, p) !== roadKm(a, b!))! : c!;
    const [near, far] = roadKm(a, b!) < roadKm(a, c2) ? [b!, c2] : [c2, b!];
    const steps = [...route(a.name, b!.name, 'car'), fill(textbox('To'), c2.name), click(button('Get directions'))];
    return { intent: `Which is closer to ${a.name} by road: ${b!.name} or ${c2.name}?`, check: { kind: 'string_match', mustInclude: [near.name] }, oracle: [...steps, answer(near.name)], wrong: [...steps, answer(far.name)] };
  },
};

const absentRoute: MapTemplate = {
  id: 't46', site: 'map', kind: 'information', intentTemplate: 'How far is it by car from {A} to {place not on the map}?',
  instantiate(data, rng) {
    const a = rng.pick(data.places);
    const steps = route(a.name, data.absentPlace, 'car');
    return { intent: `How far is it by car from ${a.name} to ${data.absentPlace}?`, check: { kind: 'string_match', exact: 'N/A' }, unachievable: true, oracle: [...steps, answer('N/A')], wrong: [...steps, answer(`${roadKm(a, rng.pick(data.places)).toFixed(1)} km`)] };
  },
};

export const MAP_TEMPLATES: readonly MapTemplate[] = [driveKm, walkMinutes, nearest, address, bikeRoute, closer, absentRoute];
