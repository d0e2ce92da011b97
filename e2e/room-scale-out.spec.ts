/**
 * Past one machine, in browsers: Debian's redis-server (a free port, nothing saved, killed after;
 * missing, the spec fails saying so) and two real `metattl room` CLI processes (bin/metattl.js,
 * `--json`, the built page from dist/, the deterministic mock LLM as the provider with a fake key)
 * sharing it with `--redis` on different ports, on a plain-http, non-localhost origin
 * (`room-hall.test`, mapped to 127.0.0.1 by Chromium): the second joins the first's room (the same
 * code). Student A's context opens server 1's join address, student B's opens server 2's; both join
 * by code; the teacher opens a round on server 1's page; A submits on server 1, B on server 2; each
 * student's page shows the round; the projector opened on server 2 shows both online and both
 * submissions scored on the leaderboard; the teacher's participant list on server 1 shows B; the
 * teacher's kill switch pressed on server 1 refuses B's model call on server 2 in plain words.
 * Nothing the students' or projector's pages receive (responses, frames) holds the key.
 * Screenshots go to test-results/room-scale-out/.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { resolve } from 'node:path';
import type { RoomSnapshot } from '../src/room/protocol.ts';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { startRedis, type RunningRedis } from '../test/support/redis-server.ts';
import { startRoomCli, type RoomCli } from '../test/support/room.ts';
import { LEVER_COMMANDS } from '../test/support/room-scoring.ts';
import { keyForms, Received } from './room-received.ts';
import { openLeverRound } from './room-round.ts';

const HOST = 'room-hall.test';
const KEY = 'fake-test-key-hall-scale-out-R4m8Tq';
const SHOTS = 'test-results/room-scale-out';
const PAUSED = 'The teacher paused model calls. Wait until the teacher resumes them, then try again.';

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--host-resolver-rules=MAP ${HOST} 127.0.0.1`],
  },
});

let redis: RunningRedis | undefined;
let mock: MockLlm | undefined;
const servers: RoomCli[] = [];

test.beforeAll(async () => {
  redis = await startRedis();
  mock = await startMockLlm({ apiKey: KEY, exploreCommands: LEVER_COMMANDS, metaAgentReply: 'build', log: () => {} });
});
test.afterAll(async () => {
  for (const server of servers.splice(0).reverse()) await server.stop();
  await mock?.close();
  await redis?.stop();
});

/** A room server of the hall: `metattl room` on a free port sharing the Redis. */
async function startHallServer(): Promise<RoomCli> {
  const server = await startRoomCli([
    '--port', '0', '--host', HOST, '--redis', redis!.url, '--page-dir', resolve('dist'), '--title', 'Conference hall',
    '--base-url', mock!.baseUrl, '--api-key', KEY, '--actor-model', 'mock-model', '--context-window', '8000',
  ]);
  servers.push(server);
  return server;
}

async function openContext(browser: Browser, who: string, width = 1280, height = 800): Promise<{ context: BrowserContext; page: Page; received: Received }> {
  const context = await browser.newContext({ viewport: { width, height } });
  const received = new Received(who);
  received.watch(context);
  return { context, page: await context.newPage(), received };
}

/** GET /api/room on `server` with the teacher's token (one token for the whole hall). */
async function teacherGet(server: RoomCli): Promise<RoomSnapshot> {
  const token = new URL(server.addresses.teacherUrl).searchParams.get('teacher')!;
  const response = await fetch(`http://127.0.0.1:${server.addresses.port}/api/room`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as RoomSnapshot;
}

/** A student opens `server`'s join link, types a name and joins; the participant token of the join's reply. */
async function joinAs(page: Page, server: RoomCli, name: string): Promise<string> {
  await page.goto(server.addresses.joinUrl);
  await expect(page.getByTestId('room-code')).toHaveValue(server.addresses.code);
  await page.getByTestId('room-name').fill(name);
  const reply = page.waitForResponse((r) => r.url().endsWith('/api/join') && r.request().method() === 'POST');
  await page.getByTestId('room-join-button').click();
  const joined = await reply;
  expect(joined.status()).toBe(200);
  expect(new URL(joined.url()).port).toBe(String(server.addresses.port));
  await expect(page.getByTestId('room')).toHaveAttribute('data-phase', 'joined');
  await expect(page.getByTestId('room-me')).toHaveText(name);
  return ((await joined.json()) as { token: string }).token;
}

async function submit(page: Page, text: string): Promise<void> {
  await page.getByTestId('room-text').fill(text);
  await page.getByTestId('room-submit').click();
  await expect(page.getByTestId('room-notice')).toHaveText('Submitted (version 1): the room scores it on the hidden tasks.');
}

/** A chat completion from `page` (at its own origin's forwarder) with `token`: its status and error message. */
async function callModel(page: Page, token: string): Promise<{ status: number; message: string }> {
  return await page.evaluate(async (t) => {
    const response = await fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock-model', messages: [{ role: 'user', content: 'look' }] }),
    });
    const body = (await response.json()) as { error?: { message?: string } };
    return { status: response.status, message: body.error?.message ?? '' };
  }, token);
}

test('two metattl room servers behind one redis-server serve one room to browsers on either', async ({ browser }) => {
  test.setTimeout(90_000);
  const one = await startHallServer();
  const two = await startHallServer();
  expect(two.addresses.port).not.toBe(one.addresses.port);
  expect(two.addresses.code).toBe(one.addresses.code);
  expect(two.addresses.joinUrl).toBe(`http://${HOST}:${two.addresses.port}/?room=${one.addresses.code}`);

  const t = await openContext(browser, 'the teacher');
  const p = await openContext(browser, 'the projector', 1920, 1080);
  const a = await openContext(browser, 'student A');
  const b = await openContext(browser, 'student B');

  // The teacher opens a round on server 1; the projector on server 2 shows it.
  await openLeverRound(t.page, one.addresses.teacherUrl, 'Hall round');
  await p.page.goto(two.addresses.projectorUrl);
  await expect(p.page.getByTestId('projector')).toHaveAttribute('data-status', 'connected');
  await expect(p.page.getByTestId('projector-round')).toHaveText('Hall round');
  await expect(p.page.getByTestId('join-code')).toHaveText(one.addresses.code);

  // A joins on server 1, B on server 2; each page shows the round; the projector sees both online.
  await joinAs(a.page, one, 'Ada');
  const tokenB = await joinAs(b.page, two, 'Bo');
  for (const page of [a.page, b.page]) await expect(page.getByTestId('room-round')).toContainText('Hall round');
  await expect(p.page.getByTestId('joined-name')).toHaveText(['Ada', 'Bo']);
  await expect(p.page.getByTestId('projector-joined')).toContainText('2 online');
  // The teacher's list on server 1 shows Bo, who joined on server 2.
  await expect(t.page.getByTestId('participant-row')).toHaveCount(2);
  await expect(t.page.getByTestId('participant-row').filter({ hasText: 'Bo' })).toHaveCount(1);

  // A submits on server 1, B on server 2; both are scored and on the projector's leaderboard (server 2).
  await submit(a.page, 'Pull each lever once, note which one raised the score, and pull that one first next episode.');
  await submit(b.page, 'Look around first, then make a plan: try every lever in order.');
  await expect(p.page.getByTestId('leaderboard-row')).toHaveCount(2, { timeout: 60_000 });
  const scored = await teacherGet(two);
  expect(scored.submissions).toHaveLength(2);
  for (const name of ['Ada', 'Bo']) {
    const id = scored.participants.find((x) => x.name === name)!.id;
    const score = scored.submissions.find((s) => s.participantId === id)!.score!;
    expect(score.status).toBe('scored');
    const row = p.page.locator('[data-testid="leaderboard-row"]', { hasText: name });
    await expect(row.getByTestId('leaderboard-wauc')).toHaveText(score.score!.wauc.toFixed(2));
    await expect(row.getByTestId('leaderboard-ci')).toHaveText('n = 1 (no interval)'); // one hidden task, one repeat: one session
  }
  for (const page of [a.page, b.page]) await expect(page.getByTestId('room-submission').first()).toHaveAttribute('data-status', 'scored');
  await p.page.screenshot({ path: `${SHOTS}/projector-1920x1080-hall.png` });

  // B's model call on server 2 goes through; the kill switch pressed on server 1 refuses the next in plain words.
  expect((await callModel(b.page, tokenB)).status).toBe(200);
  await t.page.getByTestId('kill-all').click();
  await expect(t.page.getByTestId('killed-all')).toBeVisible();
  await expect.poll(async () => await callModel(b.page, tokenB), { timeout: 10_000 }).toEqual({ status: 429, message: PAUSED });
  await t.page.screenshot({ path: `${SHOTS}/teacher-1280x800-killed.png` });

  // The key reached no page, and neither server printed it.
  for (const r of [a.received, b.received, p.received, t.received]) await r.expectNo(KEY);
  for (const r of [a.received, b.received, p.received]) expect(r.frames).toBeGreaterThan(3);
  for (const server of servers) for (const form of keyForms(KEY)) expect(server.output()).not.toContain(form);
  for (const c of [t, p, a, b]) await c.context.close();
});
