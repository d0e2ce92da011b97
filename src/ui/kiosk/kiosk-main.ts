/**
 * The booth's composition root (`?kiosk=1`, loaded by main.ts instead of the page's): fetches the
 * shipped recordings (public/replays/), builds the loop (kiosk-loop.svelte.ts) on the browser's
 * timer and mounts the booth (KioskView.svelte) over the whole window. With `&live=1` the
 * Settings view's provider plays fresh sessions first, up to the cap (kiosk-live.svelte.ts), and the
 * live code loads only then. Nothing of the other views is loaded. A recording that cannot be fetched or read is left out; with none at all the booth
 * says so and tries again a minute later.
 */
import { mount } from 'svelte';
import { SHIPPED_REPLAYS } from '../shared/replay/shipped-replays.ts';
import { browserSchedule } from '../shared/state/retry-countdown.svelte.ts';
import KioskView from './KioskView.svelte';
import { KioskLoop, PlaylistFeed, type KioskFeed } from './kiosk-loop.svelte.ts';
import { LiveFeed, liveModeText } from './kiosk-live.svelte.ts';

import { kioskRecordingsOf, type KioskRecording } from './kiosk-pace.ts';
import { errorText } from '../shared/state/error-text.ts';

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
const playlist = new PlaylistFeed(recordings);
const recorded = `Recorded sessions · ${recordings.length} in the loop`;
const query = new URLSearchParams(location.search);
let feed: KioskFeed = playlist;
let mode = (): string => recorded;
if (query.get('live') === '1') {
  const booth = await import('./kiosk-live-run.ts').then((m) => m.openLiveBooth(query.get('sessions'))).catch((error: unknown) => ({ problem: `Live mode could not start: ${errorText(error)}` }));
  if ('problem' in booth) mode = () => `${recorded} · not live: ${booth.problem}`;
  else {
    const live = new LiveFeed(booth.cap, booth.run, playlist, booth.costOf);
    feed = live;
    live.start();
    mode = () => liveModeText(live, booth.cap, booth.model, recorded, loop.recording);
  }
}
const loop = new KioskLoop(feed, browserSchedule);
target.replaceChildren();
mount(KioskView, { target, props: { loop, mode } });
loop.start();
