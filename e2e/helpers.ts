/**
 * Shared steps of the player e2e tests (built site under /sub/path/, Debian Chromium): open the
 * page, pick a story by id, send commands, and build story-file buffers in memory.
 * Test ids used here are the page's stable contract (a golden-transcript test relies on them).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Locator, type Page } from '@playwright/test';

export const ADVENT_MD5 = 'ee2242e155fd8910921b0f8e04019a3a';

/** advent.z5 as shipped in glkote-term's tests folder (the file the site ships). */
export function adventBytes(): Buffer {
  return readFileSync(createRequire(import.meta.url).resolve('glkote-term/tests/advent.z5'));
}

/** Open the player and wait until its library is ready. */
export async function openPlayer(page: Page): Promise<void> {
  await page.goto('./');
  await expect(page.getByTestId('player')).toHaveAttribute('data-ready', 'true');
}

/** Choose a story in the picker by id ("advent", "local:detective.z5", "user:<md5>") and wait for its start. */
export async function pickStory(page: Page, id: string): Promise<void> {
  await page.getByTestId('story-picker').selectOption(id);
  await waitForStory(page, id);
}

/** Wait until story `id` is playing and the command line accepts input. */
export async function waitForStory(page: Page, id: string): Promise<void> {
  await expect(page.getByTestId('player')).toHaveAttribute('data-story', id);
  await expect(page.getByTestId('command-input')).toBeEnabled();
}

/** Type a command and press Enter. */
export async function send(page: Page, command: string): Promise<void> {
  const input = page.getByTestId('command-input');
  await input.fill(command);
  await input.press('Enter');
}

export const statusLine = (page: Page): Locator => page.getByTestId('status-line');
export const transcript = (page: Page): Locator => page.getByTestId('transcript');

/** Upload story files through the file input, from memory. */
export async function upload(page: Page, name: string, bytes: Uint8Array): Promise<void> {
  await page.getByTestId('story-file-input').setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
}

/** `count` pseudo-random bytes from a seeded generator (mulberry32), the same on every run. */
export function seededBytes(seed: number, count: number): Uint8Array {
  let a = seed >>> 0;
  const out = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = ((t ^ (t >>> 14)) >>> 0) & 255;
  }
  return out;
}

const fourCC = (id: string): number[] => [...id].map((c) => c.charCodeAt(0));
const u32 = (n: number): number[] => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];

/**
 * A Blorb (Blorb 2.0: IFF "FORM" of type "IFRS") holding `zcode`: a resource index "RIdx" with one
 * entry (usage "Exec", number 0, offset of the story chunk) followed by the "ZCOD" chunk.
 */
export function makeZblorb(zcode: Uint8Array): Uint8Array {
  const ridxBody = [...u32(1), ...fourCC('Exec'), ...u32(0), ...u32(12 + 8 + 16)];
  const ridx = [...fourCC('RIdx'), ...u32(ridxBody.length), ...ridxBody];
  const pad = zcode.length % 2;
  const formLength = 4 + ridx.length + 8 + zcode.length + pad;
  const out = new Uint8Array(8 + formLength);
  out.set([...fourCC('FORM'), ...u32(formLength), ...fourCC('IFRS'), ...ridx], 0);
  const at = 12 + ridx.length;
  out.set([...fourCC('ZCOD'), ...u32(zcode.length)], at);
  out.set(zcode, at + 8);
  return out;
}

/**
 * Hold every request matching `url` until `release()` is called (later ones then pass at once), so
 * a test sees what the page shows while a file is slow without racing a fixed delay.
 * `served()` counts the requests seen.
 */
export async function holdRequests(page: Page, url: string | RegExp): Promise<{ release: () => void; served: () => number }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let count = 0;
  await page.route(url, async (route) => {
    count++;
    await released;
    await route.continue();
  });
  return { release, served: () => count };
}
