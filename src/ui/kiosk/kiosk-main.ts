/**
 * The booth's composition root (`?kiosk=1`, loaded by main.ts instead of the page's): fetches the
 * shipped recordings (public/replays/), builds the loop (kiosk-loop.svelte.ts) on the browser's
 * timer and mounts the booth (KioskView.svelte) over the whole window. Nothing of the other views
 * is loaded. A recording that cannot be fetched or read is left out; with none at all the booth
 * says so and tries again a minute later.
 */
import { mount } from 'svelte';
import { SHIPPED_REPLAYS } from '../shared/replay/shipped-replays.ts';
import { browserSchedule } from '../shared/stores/retry-countdown.svelte.ts';
import KioskView from './KioskView.svelte';
import { KioskLoop, PlaylistFeed } from './kiosk-loop.svelte.ts';
import { kioskRecordingsOf, type KioskRecording } from './kiosk-pace.ts';

/** Every session of the shipped recordings, in the Replay view's order. */
async function shippedRecordings(): Promise<KioskRecording[]> {
  const lists = await Promise.all(SHIPPED_REPLAYS.map(async (entry) => {
    try {
      const response = await fetch(new URL(entry.path, document.baseURI));
      if (!response.ok) return [];
      return kioskRecordingsOf(entry, await response.text());
    } catch {
      return [];
    }
  }));
  return lists.flat();
}

const target = document.getElementById('app');
if (!target) throw new Error('index.html lacks #app');
document.documentElement.classList.add('kiosk');
document.title = 'Meta-TTL Playground — booth';

let recordings = await shippedRecordings();
while (recordings.length === 0) {
  target.textContent = 'No recording could be loaded; trying again in a minute.';
  await new Promise((resolve) => setTimeout(resolve, 60_000));
  recordings = await shippedRecordings();
}
const loop = new KioskLoop(new PlaylistFeed(recordings), browserSchedule);
loop.mode = `Recorded sessions · ${recordings.length} in the loop`;
target.replaceChildren();
mount(KioskView, { target, props: { loop } });
loop.start();
