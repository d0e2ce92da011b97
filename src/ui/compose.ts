/** The composition root (loaded by main.ts): builds the services (the one place defaults are
 * made), the shared story shelf, the Play view's state and the router, and mounts the page — in
 * a main-thread task after the one that evaluated the modules, so neither is long. Every other
 * view's state (and Settings, the LLM services, the meta-prompt catalog and the run services they
 * share) is a `LazyState`: its code loads, and it is built, when a view first needs it, so the
 * first load carries the Play view alone (bench/page-bench.ts). A view's state starts (opens the
 * story shelf, loads the last story) when the view is first shown. The tour and workshop mode read
 * their saved settings once the store is open. */
import { mount } from 'svelte';
import App from './App.svelte';
import type { LearnSetup } from './learn/learn-setup.svelte.ts';
import type { PracticeRequest } from './room/room.svelte.ts';
import { KEYLESS_META_PROMPT } from './shared/format/learn-form.ts';
import { Player } from './play/player.svelte.ts';
import { LazyState } from './shell/lazy-state.svelte.ts';
import { loadSchemaStages } from './shell/schema-stages.ts';
import { yieldToMain } from './shell/main-thread.ts';
import { Router } from './shell/router.svelte.ts';
import { createExports, EXPORTS_CONTEXT } from './shared/state/exports.ts';
import { SETTINGS_LINK_CONTEXT } from './shared/settings-link.ts';
import { GET_GAMES_CONTEXT } from './shared/state/get-games-context.ts';
import { GetGamesState } from './shared/state/get-games.svelte.ts';
import { createBrowserNavigation, createBrowserServices } from './shared/state/services.ts';
import { SIMULATED_PROVIDER } from '../llm/model-label.ts';
import { StoryShelf } from './shared/state/story-shelf.svelte.ts';
import { StorageAlarm } from './shared/state/storage-alarm.svelte.ts';
import { TourState } from './tour/tour.svelte.ts';
import { copyText, newId, pageRunLocks } from './shared/page-abilities.ts';
import { workshopPreset, WorkshopPresets, type PresetTarget } from './workshop/learn-presets.ts';
import { WorkshopState } from './workshop/workshop.svelte.ts';

const target = document.getElementById('app');
if (!target) throw new Error('index.html lacks #app');
// The storage alarm hears of every failed save (storage low, full or closed) and offers an export.
const storageAlarm = new StorageAlarm({ store: () => shelf.store, download: (name, text, mime) => services.download(name, text, mime), now: () => Date.now() });
const services = createBrowserServices(document, fetch.bind(globalThis), (error) => storageAlarm.raise(error));
const shelf = new StoryShelf(services);
/** The story shelf's store, opened (or the memory-only fallback when opening failed). */
const shelfReady = shelf.init().catch(() => undefined);
const player = new Player(services, shelf);
const router = new Router(createBrowserNavigation());
/** The tour names the simulated model as the player once it is the chosen provider (settings are
 * read lazily: before they load, a language model plays). */
const tour = new TourState(() => settings.current?.form.presetId === SIMULATED_PROVIDER);
const workshop = new WorkshopState(services.query());

/** A view's state whose modules load after the schema stages (shell/schema-stages.ts): its own
 * import of them would otherwise evaluate them all in one long task. */
const stateAfterSchemas = <T,>(build: () => Promise<T>): LazyState<T> => new LazyState(async () => (await loadSchemaStages(), await build()));
/** The LLM services and Settings (provider, keys, models), built when a view first needs them; the
 * saved settings are read then. */
const llm = stateAfterSchemas(async () => (await import('./shared/state/llm-services.ts')).createBrowserLlmServices(location.origin));
const settings = stateAfterSchemas(async () => {
  const [{ SettingsState }, services] = await Promise.all([import('./shared/state/settings.svelte.ts'), llm.get()]);
  await yieldToMain();
  const state = new SettingsState(services, undefined, { pageUrl: () => location.href, copyText, workshop: () => workshop.on });
  void shelfReady.then(() => state.init(shelf.store));
  return state;
});
/** Session-running wiring shared by the Learn, Evolve, Evaluate and Experiments views (run-services.ts). */
const runs = stateAfterSchemas(async () => {
  const [{ RunServices }, llmServices, settingsState] = await Promise.all([import('./shared/state/run-services.ts'), llm.get(), settings.get()]);
  return new RunServices({ shelf, settings: settingsState, llm: llmServices, locks: pageRunLocks() });
});
/** The meta-prompt library's entries: built-in and the user's (Learn, Library, Evolve, a shared link). */
const catalog = stateAfterSchemas(async () => {
  const { MetaPromptCatalog } = await import('./shared/state/meta-prompt-catalog.svelte.ts');
  return new MetaPromptCatalog({ store: async () => (await shelf.init(), shelf.store), now: () => Date.now(), newId: () => `user-${newId()}` });
});
const agent = stateAfterSchemas(async () => {
  const [{ Agent }, settingsState, llmServices] = await Promise.all([import('./agent/agent.svelte.ts'), settings.get(), llm.get()]);
  await yieldToMain();
  return new Agent(services, shelf, settingsState, llmServices);
});
const learn = stateAfterSchemas(async () => {
  const [{ LearnSetup }, { LearnState }, { SessionRuns }, runServices, catalogState, settingsState] = await Promise.all([
    import('./learn/learn-setup.svelte.ts'), import('./learn/learn.svelte.ts'), import('./learn/session-runs.svelte.ts'), runs.get(), catalog.get(), settings.get(),
  ]);
  await yieldToMain();
  const setup: LearnSetup = new LearnSetup(runServices, catalogState, settingsState, services, copyText, workshopPreset);
  return new LearnState(runServices, setup, new SessionRuns(() => shelf.store, services), services);
});
const metaLibrary = stateAfterSchemas(async () => {
  const [{ MetaLibraryState }, catalogState] = await Promise.all([import('./meta-library/meta-library.svelte.ts'), catalog.get()]);
  return new MetaLibraryState({ catalog: catalogState, services, show: (view, params) => router.open(view, params), pageUrl: () => location.href, copyText });
});
const evolve = stateAfterSchemas(async () => {
  const [{ EvolveDashboard }, runServices, settingsState, catalogState] = await Promise.all([import('./evolve/evolve.svelte.ts'), runs.get(), settings.get(), catalog.get()]);
  await yieldToMain();
  return new EvolveDashboard({ runs: runServices, settings: settingsState, files: services, openLearn: (id) => router.open('learn', { metaPrompt: id }), saveMetaPrompt: (entry) => catalogState.save(entry), metaPrompts: catalogState });
});
const evaluate = stateAfterSchemas(async () => {
  const [{ EvaluateState }, runServices, settingsState] = await Promise.all([import('./evaluate/evaluate.svelte.ts'), runs.get(), settings.get()]);
  await yieldToMain();
  return new EvaluateState({ runs: runServices, settings: settingsState, files: services });
});
const experiments = stateAfterSchemas(async () => {
  const [{ ExperimentsState }, runServices, settingsState] = await Promise.all([import('./experiments/experiments.svelte.ts'), runs.get(), settings.get()]);
  return new ExperimentsState({ runs: runServices, settings: settingsState, files: services });
});
const replay = stateAfterSchemas(async () => new (await import('./replay/replay.svelte.ts')).ReplayState(services));
/** Learn on a room's practice task (`zork1:12`): its story and seed, the round's K and S, and the
 * student's draft as the meta-prompt when asked, with the room's model (Settings in the room). A
 * workshop-mode preset due is applied first, so it does not replace the round's settings. */
const openPractice = (practice: PracticeRequest): void => {
  void Promise.all([import('./room/room-standing.ts'), learn.get()]).then(async ([{ practiceTarget }, state]) => {
    const { story, seed } = practiceTarget(practice.task);
    await state.setup.init();
    await presets.apply();
    state.setup.practise({ storyId: story, seed, episodes: practice.episodes, maxSteps: practice.steps, draft: practice.draft });
    router.open('learn', { story });
  });
};
/** The student's side of a workshop room (room/): the page's origin is the room server. */
const room = stateAfterSchemas(async () => {
  const [{ RoomStudentState }, { RoomApi }, { socketUrlOf }, { connectRoom }] = await Promise.all([
    import('./room/room.svelte.ts'), import('./room/room-api.ts'), import('./room/room-identity.ts'), import('../room/room-client.ts'),
  ]);
  return new RoomStudentState({
    api: new RoomApi((input, init) => fetch(input, init), location.origin),
    storage: localStorage,
    socketUrl: socketUrlOf(location.origin),
    connect: connectRoom,
    useRoom: async (provider) => (await settings.get()).useRoom(provider),
    openPractice,
    storyTitle: (id) => shelf.find(id)?.title ?? null,
    newId,
    now: () => Date.now(),
    libraryEntries: async () => {
      const state = await catalog.get();
      await state.init();
      return state.entries;
    },
  });
});
/** At start: a page served by a room (its origin answers `/api/info`; asked only when the page is at
 * the origin's root) or carrying `?room=CODE` builds the student's room state and, when no view was
 * asked for, opens the Room view (not on the teacher's or the projector's page). Anything else (a
 * 404, a page, offline) means "not a room". Resolves to whether the page is in a room. */
const roomAtStart = async (): Promise<boolean> => {
  const [{ roomCodeOf, shouldProbe }, { RoomApi }] = await Promise.all([import('./room/room-identity.ts'), import('./room/room-api.ts')]);
  const url = new URL(location.href);
  const code = roomCodeOf(url);
  if (code === null && !(shouldProbe(url) && (await new RoomApi((input, init) => fetch(input, init), location.origin).info()) !== null)) return false;
  // The teacher's and the projector's pages of the room are not a student's.
  if (['room-teacher', 'projector'].includes(url.searchParams.get('view') ?? '')) return true;
  void room.get().then((state) => {
    if (!url.searchParams.has('view')) router.go('room');
    return state.start(url);
  });
  return true;
};
/** A share link (`#share=…`) is read by the share inbox, whose code loads only when the page's URL
 * carries one (share-location.ts reads it from the fragment or the query). */
const shareInbox = stateAfterSchemas(async () => {
  const [{ ShareInbox }, { createBrowserShareLocation }] = await Promise.all([import('./meta-library/share-inbox.svelte.ts'), import('./meta-library/share-location.ts')]);
  const catalogState = await catalog.get();
  const inbox = new ShareInbox(createBrowserShareLocation(), {
    catalog: catalogState,
    applySetup: async (setup) => (await learn.get()).applySetup(setup),
    applyProvider: async (provider) => {
      const state = await settings.get();
      await state.whenLoaded;
      state.applyProviderSetup(provider);
    },
    show: (view, params) => router.open(view, params),
    settled: () => tour.release(),
  });
  inbox.start();
  return inbox;
});
/** The URL may carry a share: `share=` in any encoding — a superset of share-link.ts
 * `shareFragmentOf`'s cases (the fragment, the query, a fragment encoded into the query), which the
 * inbox then decides on. */
const carriesShare = (): boolean => /share(?:=|%(?:25)*3d)/i.test(location.href);

/** Workshop mode's Learn presets (a teaching game, K = 3, S = 15), applied when the mode turns on
 * (not over a running session, nor over the settings of an unfinished one shown in the form); a
 * preset due before the Learn view's code has loaded waits for the view's first showing. */
const learnForm = (): LearnSetup | undefined => learn.current?.setup;
const presetTarget: PresetTarget = {
  get loaded() { return learnForm() !== undefined; },
  init: async () => (await learn.get()).setup.init(),
  get shelf() { return learnForm()?.shelf ?? { entries: [] }; },
  change: (patch) => learnForm()?.change(patch),
  get restoredForm() { return learnForm()?.restoredForm; },
  get changedAfterLoad() { return learnForm()?.changedAfterLoad; },
};
const presets = new WorkshopPresets(presetTarget, () => (learn.current?.running ?? false) || (learn.current?.holding ?? false));
workshop.onChange((on) => void presets.modeChanged(on));
/** Builds a view's state and starts it (`enter`) each time the view is shown; a chunk that fails to
 * load is reported by the view (App.svelte), not here. */
const onEnter = <T,>(state: LazyState<T>, enter: (value: T) => unknown): (() => void) => () => void state.get().then(enter).catch(() => undefined);
router.onEnter('play', () => void player.init());
router.onEnter('agent', onEnter(agent, (state) => state.init()));
router.onEnter('learn', onEnter(learn, async (state) => {
  await state.enter();
  await presets.apply();
  // In a workshop room: what the room still allows, for the warning before Start (read again after each run).
  state.setup.allowanceSource = async () => (await room.current?.allowance()) ?? null;
  await state.setup.refreshRoomAllowance();
}));
router.onEnter('replay', onEnter(replay, (state) => state.enter()));
router.onEnter('library', onEnter(metaLibrary, (state) => state.enter()));
router.onEnter('evolve', onEnter(evolve, (state) => state.init()));
router.onEnter('evaluate', onEnter(evaluate, (state) => state.enter()));
router.onEnter('experiments', onEnter(experiments, (state) => state.enter()));
router.onEnter('settings', onEnter(settings, () => undefined));
router.onEnter('room', onEnter(room, (state) => state.start(new URL(location.href))));
const onWatchReplay = (): void => router.open('replay', { replay: 'lever-room-naive' });
/** The first-run path's "Try it without a key": the simulated model (llm/model-label.ts) for every
 * role once the settings are loaded, then Learn on The Lever Room with the fact bank meta-prompt
 * (`KEYLESS_META_PROMPT`: the one that shows learning with the simulated model), ready to start. */
const onTrySimulated = (): void => {
  void settings.get().then(async (state) => {
    await state.whenLoaded;
    state.selectPreset(SIMULATED_PROVIDER);
    router.open('learn', { story: 'lever-room', metaPrompt: KEYLESS_META_PROMPT });
  });
};
await yieldToMain();
/** Chart and table exports (PNG, CSV) for every component, and the link to Settings in messages (MessageText), through Svelte context. */
const settingsLink = { href: () => router.href('settings'), go: () => router.go('settings') };
/** "Get the games" on the story shelf (Play, Agent, Learn): downloads on request, added to the story shelf. */
const getGames = new GetGamesState({
  fetch: (input, init) => fetch(input, init),
  catalog: () => shelf.catalogEntries,
  shelfMd5s: () => new Set(shelf.entries.flatMap((e) => (e.catalog ? [e.catalog.md5] : []))),
  add: async (fileName, bytes) => {
    const added = await shelf.add(fileName, bytes);
    if (added.problem !== null) throw new Error(added.problem);
  },
});
const context = new Map<unknown, unknown>([[EXPORTS_CONTEXT, createExports(services)], [SETTINGS_LINK_CONTEXT, settingsLink], [GET_GAMES_CONTEXT, getGames]]);
target.replaceChildren(); // the "Loading…" line index.html shows until the page's code has arrived
export default mount(App, { target, context, props: { storageAlarm, router, shelf, player, agent, settings, learn, metaLibrary, shareInbox, evolve, evaluate, experiments, replay, room, tour, workshop, onWatchReplay, onTrySimulated } });
router.start();
/** Whether the page is in a workshop room (then the first-visit tour stays closed: the Room view is the student's start). */
const inRoomAtStart = roomAtStart().catch(() => false);
// Offline, then back online (Wi-Fi, a laptop waking): said in the Room view; what was kept is sent at once.
window.addEventListener('online', () => room.current?.setOnline(true));
window.addEventListener('offline', () => room.current?.setOnline(false));
// The first-visit tour waits while a share link's preview is showing (ShareInbox `settled`).
const inboxAtStart = carriesShare() ? shareInbox.get().catch(() => undefined) : Promise.resolve(undefined);
window.addEventListener('hashchange', () => {
  if (carriesShare()) void shareInbox.get().catch(() => undefined);
});
void Promise.all([shelfReady, inboxAtStart, inRoomAtStart]).then(([, , inRoom]) => {
  void tour.init(shelf.store, () => inRoom || (shareInbox.current?.preview.status ?? 'none') !== 'none');
  void workshop.init(shelf.store);
});
