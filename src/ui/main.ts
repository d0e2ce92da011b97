/** Browser entry point and composition root: builds the services (the one place defaults are
 * made), the shared story library, each view's state and the router, and mounts the page. A
 * view's state starts (opens the library, loads the last story) when the view is first shown. */
import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { Agent } from './agent.svelte.ts';
import { createBrowserLlmServices } from './llm-services.ts';
import { Player } from './player.svelte.ts';
import { Router } from './router.svelte.ts';
import { createBrowserNavigation, createBrowserServices } from './services.ts';
import { SettingsState } from './settings.svelte.ts';
import { StoryLibrary } from './story-library.svelte.ts';

const target = document.getElementById('app');
if (!target) throw new Error('index.html lacks #app');
const services = createBrowserServices();
const llm = createBrowserLlmServices(location.origin);
const library = new StoryLibrary(services);
const player = new Player(services, library);
const settings = new SettingsState(llm);
const agent = new Agent(services, library, settings, llm);
const router = new Router(createBrowserNavigation());
router.onEnter('play', () => void player.init());
router.onEnter('agent', () => void agent.init());
export default mount(App, { target, props: { router, library, player, agent, settings } });
router.start();
void library.init().then(
  () => settings.init(library.store),
  () => settings.init(library.store),
);
