/**
 * The projector's composition root (`?view=projector&projector=TOKEN`, loaded by main.ts instead of
 * the page's): the token moves at once from the address into sessionStorage (history.replaceState),
 * then the read-only connection to the room's document, the join code and address
 * (`GET /api/projector`), and the view over the whole window (designed for 1920 × 1080). Nothing of
 * the other views is loaded.
 */
import { mount } from 'svelte';
import { RoomApi } from '../shared/room/room-api.ts';
import { RoomLive } from '../shared/room/room-live.svelte.ts';
import { takeRoomToken } from '../shared/room/room-token.ts';
import { ProjectorState } from './projector.svelte.ts';
import ProjectorView from './ProjectorView.svelte';

const target = document.getElementById('app');
if (!target) throw new Error('index.html lacks #app');
document.documentElement.classList.add('room-screen', 'projector');
// Type grows with the screen (23 px at 1920 wide, 16 px at 1280), set before anything is drawn so the
// charts, which read the root size when they are made, draw with it too (the view's CSS loads with its chunk).
document.documentElement.style.setProperty('--root-font-size', 'clamp(16px, 1.2vw, 28px)');
document.title = 'Meta-TTL Playground — projector';
const token = takeRoomToken('projector', window);
target.replaceChildren();
if (token === null) {
  target.textContent = 'This page needs the projector link the room server printed (it carries the projector token). Open that link again.';
} else {
  const live = new RoomLive(location.origin, token, 'projector');
  const join = await new RoomApi(location.origin, token).projectorInfo().catch(() => null);
  const projector = new ProjectorState(live, join, { now: () => Date.now(), setInterval: (callback, ms) => window.setInterval(callback, ms) });
  mount(ProjectorView, { target, props: { projector } });
}
