/** Browser entry point: builds the services (the one place defaults are made), the player state,
 * and mounts the page. */
import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { Player } from './player.svelte.ts';
import { createBrowserServices } from './services.ts';

const target = document.getElementById('app');
if (!target) throw new Error('index.html lacks #app');
const player = new Player(createBrowserServices());
export default mount(App, { target, props: { player } });
void player.init();
