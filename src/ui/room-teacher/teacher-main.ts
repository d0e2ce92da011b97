/**
 * The teacher's control view's composition root (`?view=room-teacher&teacher=TOKEN`, loaded by
 * main.ts instead of the page's): the token moves at once from the address into sessionStorage
 * (history.replaceState), then the read-only connection to the room's document, the teacher's
 * routes, the shipped stories for the round form, and the view over the whole window. Nothing of
 * the other views is loaded.
 */
import { mount } from 'svelte';
import { parseCatalog } from '../../engine/catalog.ts';
import { RoomApi } from '../shared/room/room-api.ts';
import { RoomLive } from '../shared/room/room-live.svelte.ts';
import { takeRoomToken } from '../shared/room/room-token.ts';
import { TeacherRoom, type StoryChoice } from './teacher.svelte.ts';
import TeacherView from './TeacherView.svelte';

/** The shipped stories (those with a file), teaching games first; none when the catalog cannot be read. */
async function shippedStories(): Promise<StoryChoice[]> {
  try {
    const response = await fetch(new URL('stories/catalog.json', document.baseURI));
    if (!response.ok) return [];
    const catalog = parseCatalog(await response.json());
    return catalog.stories
      .filter((s) => s.file !== null)
      .map((s) => ({ id: s.id, title: s.title, teaching: s.tags.includes('teaching') }))
      .sort((a, b) => Number(b.teaching) - Number(a.teaching) || a.title.localeCompare(b.title));
  } catch {
    return [];
  }
}

/** Saves `blob` as a file named `name` (an anchor's download). */
function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const target = document.getElementById('app');
if (!target) throw new Error('index.html lacks #app');
document.documentElement.classList.add('room-screen');
document.title = 'Meta-TTL Playground — teacher';
const token = takeRoomToken('teacher', window);
target.replaceChildren();
if (token === null) {
  target.textContent = 'This page needs the teacher link the room server printed (it carries the teacher token). Open that link again.';
} else {
  const api = new RoomApi(location.origin, token);
  const live = new RoomLive(location.origin, token, 'teacher');
  const teacher = new TeacherRoom(api, live, { download, setInterval: (callback, ms) => window.setInterval(callback, ms) });
  const join = await api.projectorInfo().catch(() => null);
  mount(TeacherView, { target, props: { teacher, stories: await shippedStories(), join } });
}
