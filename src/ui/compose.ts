/** The composition root (loaded by main.ts): builds the services (the one place defaults are
 * made), the shared story library, each view's state and the router, and mounts the page — in a
 * main-thread task after the one that evaluated the modules, so neither is long. A view's state
 * starts (opens the library, loads the last story) when the view is first shown. The tour and
 * workshop mode read their saved settings once the store is open. */
import { mount } from 'svelte';
import App from './App.svelte';
import { Agent } from './agent/agent.svelte.ts';
import { EvaluateState } from './evaluate/evaluate.svelte.ts';
import { EvolveDashboard } from './evolve/evolve.svelte.ts';
import { LearnSetup } from './learn/learn-setup.svelte.ts';
import { LearnState } from './learn/learn.svelte.ts';
import { SessionRuns } from './learn/session-runs.svelte.ts';
import { createBrowserLlmServices } from './shared/stores/llm-services.ts';
import { MetaLibraryState } from './meta-library/meta-library.svelte.ts';
import { MetaPromptCatalog } from './shared/stores/meta-prompt-catalog.svelte.ts';
import { ShareInbox } from './meta-library/share-inbox.svelte.ts';
import { createBrowserShareLocation } from './meta-library/share-location.ts';
import { Player } from './play/player.svelte.ts';
import { ReplayState } from './replay/replay.svelte.ts';
import { yieldToMain } from './shell/main-thread.ts';
import { Router } from './shell/router.svelte.ts';
import { RunServices } from './shared/stores/run-services.ts';
import { createExports, EXPORTS_CONTEXT } from './shared/stores/exports.ts';
import { SETTINGS_LINK_CONTEXT } from './shared/settings-link.ts';
import { GET_GAMES_CONTEXT } from './shared/stores/get-games-context.ts';
import { GetGamesState } from './shared/stores/get-games.svelte.ts';
import { createBrowserNavigation, createBrowserServices } from './shared/stores/services.ts';
import { SettingsState } from './shared/stores/settings.svelte.ts';
import { SIMULATED_PROVIDER } from '../llm/model-label.ts';
import { StoryLibrary } from './shared/stores/story-library.svelte.ts';
import { StorageAlarm } from './shared/stores/storage-alarm.svelte.ts';
import { TourState } from './tour/tour.svelte.ts';
import { WorkshopPresets } from './workshop/learn-presets.ts';
import { WorkshopState } from './workshop/workshop.svelte.ts';

const target = document.getElementById('app');
if (!target) throw new Error('index.html lacks #app');
// The storage alarm hears of every failed save (storage low, full or closed) and offers an export.
const storageAlarm = new StorageAlarm({ store: () => library.store, download: (name, text, mime) => services.download(name, text, mime), now: () => Date.now() });
const services = createBrowserServices(document, fetch.bind(globalThis), (error) => storageAlarm.raise(error));
const llm = createBrowserLlmServices(location.origin);
const library = new StoryLibrary(services);
const player = new Player(services, library);
const copyText = (text: string): Promise<void> => navigator.clipboard.writeText(text);
const settings = new SettingsState(llm, undefined, { pageUrl: () => location.href, copyText, workshop: () => workshop.on });
const agent = new Agent(services, library, settings, llm);
/** Session-running wiring shared by the Learn, Evolve and Evaluate views (run-services.ts). */
const runs = new RunServices({ library, settings, llm });
const router = new Router(createBrowserNavigation());
const catalog = new MetaPromptCatalog({ store: async () => (await library.init(), library.store), now: () => Date.now(), newId: () => `user-${crypto.randomUUID()}` });
const learnSetup = new LearnSetup(runs, catalog, settings, services, copyText);
const learn = new LearnState(runs, learnSetup, new SessionRuns(() => library.store, services), services);
const metaLibrary = new MetaLibraryState({ catalog, services, show: (view, params) => router.open(view, params), pageUrl: () => location.href, copyText });
const tour = new TourState();
const shareInbox = new ShareInbox(createBrowserShareLocation(), { catalog, applySetup: (setup) => learn.applySetup(setup), applyProvider: async (provider) => (await settings.whenLoaded, settings.applyProviderSetup(provider)), show: (view, params) => router.open(view, params), settled: () => tour.release() });
const evolve = new EvolveDashboard({ runs, settings, files: services, openLearn: (id) => router.open('learn', { metaPrompt: id }), saveMetaPrompt: (entry) => catalog.save(entry) });
const evaluate = new EvaluateState({ runs, settings, files: services });
/** The Experiments view's state loads with its chunk, on first use (not with the page). */
let experimentsState: Promise<import('./experiments/experiments.svelte.ts').ExperimentsState> | undefined;
const experiments = () => (experimentsState ??= import('./experiments/experiments.svelte.ts').then((m) => new m.ExperimentsState({ runs, settings, files: services })));
const replay = new ReplayState(services);
const workshop = new WorkshopState(services.query());
/** Workshop mode's Learn presets (a teaching game, K = 3, S = 15), applied when the mode turns on
 * (not over a running session, nor over the settings of an unfinished one shown in the form). */
const presets = new WorkshopPresets(learnSetup, () => learn.running || learn.holding);
workshop.onChange((on) => void presets.modeChanged(on));
router.onEnter('play', () => void player.init());
router.onEnter('agent', () => void agent.init());
router.onEnter('learn', () => void learn.enter().then(() => presets.apply()));
router.onEnter('replay', () => void replay.enter());
router.onEnter('library', () => void metaLibrary.enter());
router.onEnter('evolve', () => void evolve.init());
router.onEnter('evaluate', () => void evaluate.enter());
router.onEnter('experiments', () => void experiments().then((state) => state.enter()));
const onWatchReplay = (): void => router.open('replay', { replay: 'lever-room-naive' });
/** The first-run path's "Try it without a key": the simulated model (llm/model-label.ts) for every
 * role once the settings are loaded, then Learn on The Lever Room, ready to start. */
const onTrySimulated = (): void => {
  void settings.whenLoaded.then(() => {
    settings.selectPreset(SIMULATED_PROVIDER);
    router.open('learn', { story: 'lever-room' });
  });
};
await yieldToMain();
/** Chart and table exports (PNG, CSV) for every component, and the link to Settings in messages (MessageText), through Svelte context. */
const settingsLink = { href: () => router.href('settings'), go: () => router.go('settings') };
/** "Get the games" in the story library (Play, Agent, Learn): downloads on request, added to the library. */
const getGames = new GetGamesState({
  fetch: (input, init) => fetch(input, init),
  catalog: () => library.catalogEntries,
  libraryMd5s: () => new Set(library.entries.flatMap((e) => (e.catalog ? [e.catalog.md5] : []))),
  add: async (fileName, bytes) => {
    const added = await library.add(fileName, bytes);
    if (added.problem !== null) throw new Error(added.problem);
  },
});
const context = new Map<unknown, unknown>([[EXPORTS_CONTEXT, createExports(services)], [SETTINGS_LINK_CONTEXT, settingsLink], [GET_GAMES_CONTEXT, getGames]]);
target.replaceChildren(); // the "Loading…" line index.html shows until the page's code has arrived
export default mount(App, { target, context, props: { storageAlarm, router, library, player, agent, settings, learn, metaLibrary, shareInbox, evolve, evaluate, experiments, replay, tour, workshop, onWatchReplay, onTrySimulated } });
router.start();
shareInbox.start();
const withStore = (): void => {
  void settings.init(library.store);
  // The first-visit tour waits while a share link's preview is showing (ShareInbox `settled`).
  void tour.init(library.store, () => shareInbox.preview.status !== 'none');
  void workshop.init(library.store);
};
void library.init().then(withStore, withStore);
