/** The guided tour: opens by itself on each visit until it has been shown — closed, finished or
 * used beside (remembered in the store's settings then, not when merely opened: a reload while it
 * loads brings it back), re-opens on demand, and walks its steps within bounds. */
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../store/memory-store.ts';
import { TOUR_STEPS, tourSteps } from './tour-steps.ts';
import { TOUR_SEEN_KEY, TourState } from './tour.svelte.ts';

describe('TourState', () => {
  it('opens on the first visit and not on the second', async () => {
    const store = new MemoryStore();
    const first = new TourState();
    await first.init(store);
    expect(first.open).toBe(true);
    expect(first.ready).toBe(true);
    expect(await store.getSetting(TOUR_SEEN_KEY)).toBeUndefined();
    // A reload while it shows (a cold dev server's re-optimise, a closed tab): it shows again.
    const reloaded = new TourState();
    await reloaded.init(store);
    expect(reloaded.open).toBe(true);
    reloaded.close();
    await new Promise((done) => setTimeout(done, 0));
    expect(await store.getSetting(TOUR_SEEN_KEY)).toBe(true);
    const second = new TourState();
    await second.init(store);
    expect(second.open).toBe(false);
    second.show(3);
    expect(second.open).toBe(true);
    expect(second.step.id).toBe(TOUR_STEPS[3]!.id);
  });

  it('counts as seen, still open, once the user worked beside it; not before it is open', async () => {
    const fresh = new MemoryStore();
    const shown = new TourState();
    await shown.init(fresh);
    shown.usedBeside();
    await new Promise((done) => setTimeout(done, 0));
    expect(shown.open).toBe(true);
    expect(await fresh.getSetting(TOUR_SEEN_KEY)).toBe(true);
    const closed = new MemoryStore();
    const notOpen = new TourState();
    await notOpen.init(closed, () => true); // waiting (a share preview): not shown yet
    notOpen.usedBeside();
    await new Promise((done) => setTimeout(done, 0));
    expect(await closed.getSetting(TOUR_SEEN_KEY)).toBeUndefined();
  });

  it('walks the steps within bounds and closes', async () => {
    const tour = new TourState();
    await tour.init(new MemoryStore());
    expect(tour.isFirst).toBe(true);
    tour.back();
    expect(tour.index).toBe(0);
    for (let i = 0; i < 20; i++) tour.next();
    expect(tour.isLast).toBe(true);
    expect(tour.index).toBe(TOUR_STEPS.length - 1);
    tour.close();
    expect(tour.open).toBe(false);
    tour.show(99);
    expect(tour.index).toBe(TOUR_STEPS.length - 1);
  });

  it('still works when the store fails (it may show again)', async () => {
    const store = new MemoryStore();
    store.getSetting = async () => Promise.reject(new Error('broken'));
    store.setSetting = async () => Promise.reject(new Error('broken'));
    const tour = new TourState();
    await tour.init(store);
    expect(tour.open).toBe(true);
    tour.close();
    expect(tour.open).toBe(false);
  });

  it('explains the actor, an episode, the meta-agent, the meta-prompt and W-AUC on The Lever Room', () => {
    const ids = TOUR_STEPS.map((s) => s.id);
    for (const id of ['actor', 'episode', 'meta-agent', 'meta-prompt', 'w-auc']) expect(ids).toContain(id);
    expect(TOUR_STEPS[0]!.paragraphs.join(' ')).toContain('The Lever Room');
    // The worked example matches the formula: scores 0, 1, 3, 4, 4 of 5.
    const scores = [0, 1, 3, 4, 4];
    const wAuc = scores.reduce((s, x, i) => s + (i + 1) * x, 0) / (5 * 15);
    expect(TOUR_STEPS.find((s) => s.id === 'w-auc')!.paragraphs.join(' ')).toContain(wAuc.toFixed(3));
  });

  it('once the simulated model was chosen, the steps that say who plays name it, not a language model; the rest is the same', () => {
    let chosen = false;
    const tour = new TourState(() => chosen);
    const who = (steps: readonly { id: string; paragraphs: readonly string[] }[]): string => steps.filter((s) => s.id === 'welcome' || s.id === 'actor').map((s) => s.paragraphs.join(' ')).join(' ');
    expect(tour.steps).toEqual(TOUR_STEPS);
    expect(who(tour.steps)).toContain('a language model plays');
    chosen = true;
    expect(who(tour.steps)).toContain('the simulated model you chose plays');
    expect(who(tour.steps)).toContain('here the simulated model');
    expect(who(tour.steps)).not.toMatch(/language model (plays|that plays)/);
    expect(tour.steps.map((s) => s.id)).toEqual(TOUR_STEPS.map((s) => s.id));
    expect(tour.steps.filter((s) => s.id !== 'welcome' && s.id !== 'actor')).toEqual(TOUR_STEPS.filter((s) => s.id !== 'welcome' && s.id !== 'actor'));
    expect(tourSteps(false)).toEqual(TOUR_STEPS);
  });
});
