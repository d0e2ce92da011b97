/**
 * A whole workshop round as a teacher runs it: the real `metattl room` CLI process (bin/metattl.js,
 * `--json`, `--data` in a temporary folder, the built page from dist/, the deterministic mock LLM
 * as the provider with a fake key, a small call cap), on a plain-http, non-localhost origin
 * (`http://room-class.test:PORT/`, mapped to 127.0.0.1 by Chromium). In separate browser contexts:
 * the teacher opens a round from the page; the projector (1920×1080) shows two students joining by
 * code; student A practises in Learn through the room's forwarder and submits, student B submits;
 * the room's own scorer scores both through the mock and the projector shows the leaderboard (W-AUC,
 * interval, n) and a "new best" moment; the kill switch stops B's Learn run mid-way in plain words;
 * A's call cap stops A's run in plain words; B's submission made offline waits and is sent once; lock
 * and reveal (the hidden tasks shown); then SIGTERM (exit 0) and a restart with the same --data and
 * port: every page reconnects and the room (participants, submissions, scores, round) is as it was.
 * Every response (headers and body) and WebSocket frame (recorded by e2e/room-received.ts) the students', projector's and teacher's
 * pages receive, everything the CLI printed and every file of its --data folder is checked for the
 * provider's key (as is, URL- and base64-encoded). Screenshots go to test-results/room-workshop/.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RoomSnapshot } from '../src/room/protocol.ts';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { startRoomCli, type RoomCli } from '../test/support/room.ts';
import { LEVER_COMMANDS } from '../test/support/room-scoring.ts';
import { keyForms, Received } from './room-received.ts';
import { openLeverRound } from './room-round.ts';

const HOST = 'room-class.test';
const KEY = 'fake-test-key-workshop-Q7xv29LmPz';
const MAX_CALLS = 10;
const SHOTS = 'test-results/room-workshop';

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--host-resolver-rules=MAP ${HOST} 127.0.0.1`],
  },
});

let mock: MockLlm;
let cli: RoomCli;
let data = '';

test.beforeAll(async () => {
  mock = await startMockLlm({ apiKey: KEY, exploreCommands: LEVER_COMMANDS, metaAgentReply: 'build', log: () => {} });
  data = mkdtempSync(join(tmpdir(), 'room-workshop-data-'));
});
test.afterAll(async () => {
  await cli?.stop();
  await mock?.close();
});

/** The room's CLI arguments; `port` 0 the first time, the same port on the restart. */
const cliArgs = (port: number): string[] => [
  '--port', String(port), '--host', HOST, '--data', data, '--page-dir', resolve('dist'), '--title', 'Friday workshop',
  '--base-url', mock.baseUrl, '--api-key', KEY, '--actor-model', 'mock-model', '--context-window', '8000', '--participant-max-calls', String(MAX_CALLS),
];

async function teacherGet(): Promise<RoomSnapshot> {
  const a = cli.addresses;
  const token = new URL(a.teacherUrl).searchParams.get('teacher')!;
  const response = await fetch(`http://127.0.0.1:${a.port}/api/room`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as RoomSnapshot;
}

const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}` });

async function openContext(browser: Browser, who: string, width = 1280, height = 800): Promise<{ context: BrowserContext; page: Page; received: Received }> {
  const context = await browser.newContext({ viewport: { width, height } });
  const received = new Received(who);
  received.watch(context);
  return { context, page: await context.newPage(), received };
}

/** The teacher opens the round "Levers" from the page (e2e/room-round.ts), the token gone from the address bar. */
async function openRound(teacher: Page): Promise<void> {
  await openLeverRound(teacher, cli.addresses.teacherUrl, 'Levers');
  expect(teacher.url()).not.toContain('teacher=');
  await expect(teacher.getByTestId('round-current')).toContainText('1 practice, 1 hidden task · K 2, S 4, repeats 1');
  await expect(teacher.getByTestId('teacher-done')).toHaveText('Round "Levers" is open: 1 practice and 1 hidden task.');
}

/** A student opens the join link, types a name and joins. */
async function joinAs(page: Page, name: string): Promise<void> {
  await page.goto(cli.addresses.joinUrl);
  await expect(page.getByTestId('room-code')).toHaveValue(cli.addresses.code);
  await page.getByTestId('room-name').fill(name);
  await page.getByTestId('room-join-button').click();
  await expect(page.getByTestId('room')).toHaveAttribute('data-phase', 'joined');
  await expect(page.getByTestId('room-me')).toHaveText(name);
  await expect(page.getByTestId('room-model')).toContainText('mock-model');
  await expect(page.getByTestId('room-round')).toContainText('Levers');
  await expect(page.getByTestId('room-hidden')).toHaveText('Scored on 1 hidden task (shown when the teacher reveals the round).');
}

/** Opens Learn on the round's practice task from the Room view and starts K × S. */
async function practise(page: Page, episodes: number, steps: number): Promise<void> {
  await page.getByTestId('nav-room').click();
  await page.getByTestId('room-practice').first().click();
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('learn-episodes').fill(String(episodes));
  await page.getByTestId('learn-steps').fill(String(steps));
  await page.getByTestId('learn-start').click();
}

async function submit(page: Page, text: string): Promise<void> {
  await page.getByTestId('nav-room').click();
  await page.getByTestId('room-text').fill(text);
  await page.getByTestId('room-submit').click();
}

const scoreOf = (s: RoomSnapshot, name: string) => {
  const id = s.participants.find((p) => p.name === name)!.id;
  return s.submissions.filter((x) => x.participantId === id).map((x) => ({ version: x.version, status: x.score?.status, score: x.score?.score ?? null }));
};

test('a whole workshop round through the metattl room CLI: forwarder, real scorer, caps, kill switch, reconnect, restart', async ({ browser }) => {
  test.setTimeout(180_000);
  cli = await startRoomCli(cliArgs(0));
  const { port, code } = cli.addresses;
  expect(cli.addresses.joinUrl).toBe(`http://${HOST}:${port}/?room=${code}`);

  const t = await openContext(browser, 'the teacher');
  const p = await openContext(browser, 'the projector', 1920, 1080);
  const a = await openContext(browser, 'student A');
  const b = await openContext(browser, 'student B');
  const teacher = t.page;
  const projector = p.page;

  // The teacher opens the round from the page; the projector shows it and the join code.
  await openRound(teacher);
  await projector.goto(cli.addresses.projectorUrl);
  await expect(projector.getByTestId('projector')).toHaveAttribute('data-status', 'connected');
  await expect(projector.getByTestId('projector-round')).toHaveText('Levers');
  await expect(projector.getByTestId('projector-timer')).toHaveText(/^(29|30):\d\d$/);
  await expect(projector.getByTestId('join-code')).toHaveText(code);
  await teacher.screenshot({ path: `${SHOTS}/teacher-1280x800-round-open.png` });

  // Two students join by code with their names and appear on the projector, online.
  await joinAs(a.page, 'Ada');
  await joinAs(b.page, 'Bo');
  await expect(projector.getByTestId('joined-name')).toHaveText(['Ada', 'Bo']);
  await expect(projector.getByTestId('projector-joined')).toContainText('2 online');
  await expect(teacher.getByTestId('participant-row')).toHaveCount(2);

  // A practises in Learn on the practice task through the room's forwarder (the mock, with the teacher's key).
  const beforePractice = mock.requests.length;
  await practise(a.page, 1, 3);
  await expect(a.page.getByTestId('learn-state')).toHaveText('Complete', { timeout: 60_000 });
  const practiceCalls = mock.requests.slice(beforePractice).filter((r) => r.path === '/v1/chat/completions');
  expect(practiceCalls.length).toBeGreaterThanOrEqual(3);
  for (const r of practiceCalls) expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
  const adaCalls = (await teacherGet()).participants.find((x) => x.name === 'Ada')!.usage.calls;
  expect(adaCalls).toBe(practiceCalls.length);
  await a.received.settled();
  expect(a.received.chatBodies).toBe(adaCalls);

  // Both submit; the room's own scorer scores them on the hidden task through the mock.
  await submit(a.page, 'Pull each lever once, note which one raised the score, and pull that one first next episode.');
  await expect(a.page.getByTestId('room-notice')).toHaveText('Submitted (version 1): the room scores it on the hidden tasks.');
  await submit(b.page, 'Look around first, then make a plan: try every lever in order.');
  await expect(b.page.getByTestId('room-notice')).toHaveText('Submitted (version 1): the room scores it on the hidden tasks.');
  await expect(projector.getByTestId('scoring-row').first()).toBeVisible();
  await shot(projector, 'projector-1920x1080-scoring.png');
  // Each row's count ("queued", "0/1") fits its column.
  for (const count of await projector.getByTestId('scoring-count').all()) expect(await count.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
  await expect(projector.getByTestId('new-best')).toBeVisible({ timeout: 60_000 });
  await expect(projector.getByTestId('leaderboard-row')).toHaveCount(2, { timeout: 90_000 });
  await expect(projector.getByTestId('leaderboard-unit')).toContainText('W-AUC on the hidden set');
  const scored = await teacherGet();
  const rows = scored.submissions.map((s) => ({ name: scored.participants.find((x) => x.id === s.participantId)!.name, score: s.score!.score! }));
  for (const row of rows) {
    expect(row.score.n).toBe(1);
    expect(row.score.curve).toHaveLength(2);
    const shown = projector.locator('[data-testid="leaderboard-row"]', { hasText: row.name });
    await expect(shown.getByTestId('leaderboard-wauc')).toHaveText(row.score.wauc.toFixed(2));
    await expect(shown.getByTestId('leaderboard-ci')).toHaveText('n = 1 (no interval)');
  }
  await expect(a.page.getByTestId('room-submission').first()).toHaveAttribute('data-status', 'scored');
  await shot(projector, 'projector-1920x1080-leaderboard.png');

  // The kill switch: B's Learn run (slowed replies) stops in plain words when the teacher stops all calls.
  mock.setOptions({ faults: [{ kind: 'slow', delayMs: 400, role: 'actor' }] });
  const beforeB = mock.requests.length;
  await practise(b.page, 2, 6);
  await mock.waitForRequest((r) => r.index >= beforeB + 1 && r.role === 'actor', 30_000);
  await teacher.getByTestId('kill-all').click();
  await expect(teacher.getByTestId('killed-all')).toBeVisible();
  await expect(b.page.getByTestId('learn-state')).toHaveText('Stopped: the workshop room refused the call: The teacher paused model calls. Wait until the teacher resumes them, then try again.', { timeout: 30_000 });
  await shot(b.page, 'student-1280x800-paused.png');
  await teacher.getByTestId('kill-all').click();
  await expect(teacher.getByTestId('killed-all')).toHaveCount(0);
  mock.setOptions({ faults: [] });

  // The call cap: A's next run stops at the cap, said in plain words.
  await practise(a.page, 3, 5);
  await expect(a.page.getByTestId('learn-state')).toHaveText(`Stopped: the workshop room refused the call: You have used ${MAX_CALLS} of your ${MAX_CALLS} model calls. Ask the teacher if you need more.`, { timeout: 60_000 });
  await shot(a.page, 'student-1280x800-cap.png');
  expect((await teacherGet()).participants.find((x) => x.name === 'Ada')!.usage.calls).toBe(MAX_CALLS);

  // Reconnect: B submits while offline ("waiting to send"); back online it is sent once.
  await b.page.getByTestId('nav-room').click();
  await b.context.setOffline(true);
  await expect(b.page.getByTestId('room-status')).toHaveText('reconnecting…', { timeout: 30_000 });
  await submit(b.page, 'Make a plan: pull the lever that scored last time, then explore north.');
  await expect(b.page.getByTestId('room-waiting')).toContainText('waiting to send');
  await shot(b.page, 'student-1280x800-offline.png');
  await b.context.setOffline(false);
  await expect(b.page.getByTestId('room-waiting')).toHaveCount(0, { timeout: 30_000 });
  await expect(b.page.getByTestId('room-status')).toHaveText('connected');
  await expect(b.page.getByTestId('room-submission')).toHaveCount(2);
  expect(scoreOf(await teacherGet(), 'Bo').map((s) => s.version)).toEqual([1, 2]);
  await expect(teacher.getByTestId('submission-row')).toHaveCount(3);
  await expect.poll(async () => scoreOf(await teacherGet(), 'Bo').map((s) => s.status), { timeout: 90_000 }).toEqual(['scored', 'scored']);

  // Lock, then reveal: the hidden task is shown to the students (and the reveal is no "new best").
  await expect(projector.getByTestId('new-best')).toHaveCount(0, { timeout: 15_000 });
  await a.page.getByTestId('nav-room').click();
  await expect(a.page.getByTestId('room-timer')).toHaveText(/^(29|30):\d\d left$/);
  await teacher.getByTestId('round-lock').click();
  await expect(projector.getByTestId('projector-round')).toHaveAttribute('data-state', 'locked');
  await expect(a.page.getByTestId('room-timer')).toHaveCount(0);
  await teacher.getByTestId('round-reveal').click();
  await expect(projector.getByTestId('projector-round')).toHaveAttribute('data-state', 'revealed');
  await expect(a.page.getByTestId('room-hidden')).toHaveText('Hidden tasks: The Lever Room, seed 2.');
  await expect(b.page.getByTestId('room-leaderboard-row')).toHaveCount(2);
  await expect(projector.getByTestId('new-best')).toHaveCount(0);
  await shot(projector, 'projector-1920x1080-revealed.png');
  await shot(teacher, 'teacher-1280x800-revealed.png');
  await shot(a.page, 'student-1280x800-revealed.png');
  await projector.setViewportSize({ width: 1280, height: 800 });
  await shot(projector, 'projector-1280x800-revealed.png');
  await projector.setViewportSize({ width: 1920, height: 1080 });

  // Restart: SIGTERM exits 0; the same --data and port bring the room back, and every page reconnects.
  const before = await teacherGet();
  const boardBefore = await projector.getByTestId('leaderboard-row').allTextContents();
  const printed = [cli.output()];
  const stopAt = Date.now();
  expect(await cli.stop()).toBe(0);
  // At once, though every page is connected (not after the clients' 30 s ping timeout).
  expect(Date.now() - stopAt).toBeLessThan(5000);
  printed.push(cli.output());
  await expect(projector.getByTestId('projector-connection')).toBeVisible({ timeout: 30_000 });
  await expect(a.page.getByTestId('room-status')).toHaveText('reconnecting…', { timeout: 30_000 });
  cli = await startRoomCli(cliArgs(port));
  expect(cli.addresses.code).toBe(code);
  for (const page of [a.page, b.page]) await expect(page.getByTestId('room-status')).toHaveText('connected', { timeout: 60_000 });
  await expect(projector.getByTestId('projector')).toHaveAttribute('data-status', 'connected', { timeout: 60_000 });
  await expect(teacher.getByTestId('room-teacher')).toHaveAttribute('data-status', 'connected', { timeout: 60_000 });
  await expect(projector.getByTestId('projector-joined')).toContainText('2 online', { timeout: 30_000 });
  await expect(projector.getByTestId('new-best')).toHaveCount(0);
  const after = await teacherGet();
  const keep = (s: RoomSnapshot) => ({
    participants: s.participants.map((x) => ({ id: x.id, name: x.name, calls: x.usage.calls, removed: x.removed })),
    submissions: s.submissions.map((x) => ({ id: x.id, participantId: x.participantId, version: x.version, score: x.score })),
    rounds: s.rounds,
  });
  expect(keep(after)).toEqual(keep(before));
  expect(after.rounds.at(-1)!.state).toBe('revealed');
  await expect(projector.getByTestId('leaderboard-row')).toHaveText(boardBefore);
  await expect(projector.getByTestId('projector-round')).toHaveAttribute('data-state', 'revealed');
  await expect(teacher.getByTestId('round-current')).toHaveAttribute('data-state', 'revealed');
  await expect(teacher.getByTestId('submission-row')).toHaveCount(3);
  await expect(b.page.getByTestId('room-submission')).toHaveCount(2);
  await expect(a.page.getByTestId('room-me')).toHaveText('Ada');
  await expect(a.page.getByTestId('room-score').first()).toContainText('W-AUC');
  await shot(projector, 'projector-1920x1080-after-restart.png');
  await shot(b.page, 'student-1280x800-after-restart.png');

  // The key reached no page, and the CLI printed it nowhere.
  for (const r of [a.received, b.received, p.received, t.received]) await r.expectNo(KEY);
  for (const r of [a.received, b.received]) {
    expect(r.responses).toBeGreaterThan(20);
    expect(r.frames).toBeGreaterThan(5);
  }
  expect(p.received.frames).toBeGreaterThan(5);
  for (const text of [...printed, cli.output()]) for (const form of keyForms(KEY)) expect(text).not.toContain(form);
  // Nor is it kept in the room's --data folder (the room's database, the scorer's runs).
  const kept = readdirSync(data, { recursive: true, withFileTypes: true }).filter((f) => f.isFile()).map((f) => join(f.parentPath, f.name));
  expect(kept.some((f) => f.endsWith('room.sqlite'))).toBe(true);
  expect(kept.length).toBeGreaterThan(2);
  for (const file of kept) for (const form of keyForms(KEY)) expect(readFileSync(file).toString('latin1').includes(form), file).toBe(false);
  for (const c of [t, p, a, b]) await c.context.close();
});
