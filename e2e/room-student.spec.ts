/**
 * A student in a workshop room, against a real room server (src/room-server) serving the built
 * page on a plain-http, non-localhost origin (`http://room-class.test:PORT/`, Chromium maps the
 * name to 127.0.0.1: not a secure context), with the forwarder in front of the mock LLM and a
 * scorer that reports at once. The page finds the room by `/api/info` and opens the Room view; a
 * wrong code is refused in plain words, the right one joins; a reload keeps the identity; a
 * submission is sent and scored; one made offline waits ("waiting to send") and is sent once when
 * back online; a locked round says why Submit is disabled; practice opens Learn with the round's
 * K and S (tasks named by story title and seed), Learn warns before Start that the session will
 * not fit the calls left, and runs through the room's model until the participant's call cap,
 * whose message is shown in plain words without a Resume the room would refuse; "Practise my
 * draft" runs the draft as the meta-prompt; a taken name is made unique and said so; the token never appears in the address bar or
 * any URL the page requests. Screenshots at 1280×800.
 */
import { expect, test, type Page } from '@playwright/test';
import { createForwarder } from '../src/room-server/forwarder.ts';
import { startRoomServer } from '../src/room-server/room-server.ts';
import type { RoomScorer, RunningRoom, ScorerDeps } from '../src/room-server/seams.ts';
import type { RoomSnapshot, RoundPublic } from '../src/room/protocol.ts';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { expectNoSeriousViolations } from './axe.ts';

const HOST = 'room-class.test';
const TEACHER_KEY = 'fake-test-key-teacher-0123456789';
const MAX_CALLS = 4;

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--host-resolver-rules=MAP ${HOST} 127.0.0.1`],
  },
});

let mock: MockLlm;
let room: RunningRoom;
let origin = '';

/** A scorer that reports one session done, then a score, for every submission (the real one is src/room-server/scoring.ts). */
function quickScorer(deps: Omit<ScorerDeps, 'llm'>): RoomScorer {
  return {
    enqueue(sub) {
      deps.onScore(sub.id, { status: 'scoring', done: 1, total: 2, score: null, message: null });
      setTimeout(() => deps.onScore(sub.id, { status: 'scored', done: 2, total: 2, score: { wauc: 0.5 + sub.version / 10, low: 0.4, high: 0.8, n: 2, curve: [0.3, 0.7] }, message: null }), 300);
    },
    evolve: async () => undefined,
    stopEvolution: () => undefined,
    close: async () => undefined,
  };
}

async function teacher<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${room.addresses.port}${path}`, { method, headers: { authorization: `Bearer ${room.teacherToken}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  expect(response.status, `${method} ${path}`).toBe(200);
  return (await response.json()) as T;
}

test.beforeAll(async () => {
  mock = await startMockLlm({ apiKey: TEACHER_KEY, exploreCommands: ['pull lever', 'look', 'east'], metaAgentReply: 'build', log: () => {} });
  room = await startRoomServer({
    port: 0,
    listenHost: '127.0.0.1',
    publicHost: HOST,
    title: 'Friday class',
    caps: { maxCalls: MAX_CALLS },
    makeForwarder: (deps) => createForwarder({ ...deps, upstream: { kind: 'http', baseUrl: mock.baseUrl, apiKey: TEACHER_KEY, models: ['mock-model'] }, prices: {} }),
    makeScorer: quickScorer,
  });
  origin = `http://${HOST}:${room.addresses.port}`;
});
test.afterAll(async () => {
  await room?.close();
  await mock?.close();
});

/** Every URL the page asks for (documents, fetches, the WebSocket), and its address bar, to check no token is in one. */
function watchUrls(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  page.on('websocket', (socket) => urls.push(socket.url()));
  page.on('framenavigated', (frame) => urls.push(frame.url()));
  return urls;
}

const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(name) });

test('a student joins by code, keeps their identity, submits (also offline) and sees the room’s cap in plain words', async ({ page, context }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const urls = watchUrls(page);
  const round = await teacher<RoundPublic>('POST', '/api/rounds', { title: 'Levers', practiceTasks: ['lever-room:1'], hiddenTasks: ['lever-room:2', 'lever-room:3'], episodes: 2, steps: 10, repeats: 1, minutes: 20 });

  // The page finds the room by /api/info and opens the Room view.
  await page.goto(`${origin}/`);
  await expect(page.getByTestId('room')).toHaveAttribute('data-phase', 'join');
  expect(await page.evaluate(() => ({ secure: isSecureContext, uuid: typeof crypto.randomUUID, locks: typeof navigator.locks }))).toEqual({ secure: false, uuid: 'undefined', locks: 'undefined' });
  // In a room the first-visit tour stays closed: the Room view is the student's start.
  await expect(page.locator('.app')).toHaveAttribute('data-tour-ready', 'true');
  await expect(page.locator('.app')).toHaveAttribute('data-tour-open', 'false');
  await page.getByTestId('room-code').fill('WRONG1');
  await page.getByTestId('room-name').fill('Ada');
  await page.getByTestId('room-join-button').click();
  await expect(page.getByTestId('room-join-error')).toHaveText('That room code is not this room’s. Check the code on the projector (or ask the teacher) and try again.');
  await shot(page, 'room-student-wrong-code.png');
  await expectNoSeriousViolations(page, 'the Room view’s join form');
  await page.getByTestId('room-code').fill(room.addresses.code);
  await page.getByTestId('room-join-button').click();
  await expect(page.getByTestId('room')).toHaveAttribute('data-phase', 'joined');
  await expect(page.getByTestId('room-status')).toHaveText('connected');
  await expect(page.getByTestId('room-me')).toHaveText('Ada');
  await expect(page.getByTestId('room-model')).toContainText('mock-model');
  const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('metattl.room.identity') ?? '{}') as { token?: string }).token ?? '');
  expect(token.length).toBeGreaterThan(8);
  await expect(page.getByTestId('room-round')).toContainText('Round 1: Levers');
  await expect(page.getByTestId('room-hidden')).toHaveText('Scored on 2 hidden tasks (shown when the teacher reveals the round).');
  await expect(page.getByTestId('room-timer')).toHaveText(/^(19|20):\d\d left$/);

  // A reload rejoins as the same participant, without the form.
  await page.reload();
  await expect(page.getByTestId('room')).toHaveAttribute('data-phase', 'joined');
  await expect(page.getByTestId('room-me')).toHaveText('Ada');
  expect((await teacher<RoomSnapshot>('GET', '/api/room')).participants.map((p) => p.name)).toEqual(['Ada']);

  // Submit a meta-prompt picked from the Library, edited: scored by the room.
  await page.getByTestId('room-pick').selectOption({ label: 'Credit assignment' });
  await page.getByTestId('room-text').fill('Write down which lever changed the score, and pull it first next time.');
  await page.getByTestId('room-submit').click();
  await expect(page.getByTestId('room-notice')).toHaveText('Submitted (version 1): the room scores it on the hidden tasks.');
  await expect(page.getByTestId('room-submission').first()).toHaveAttribute('data-status', 'scored');
  await expect(page.getByTestId('room-score').first()).toHaveText('W-AUC 0.60 of the max score (95 % interval 0.40–0.80, n = 2 sessions)');

  // Offline: the submission is kept ("waiting to send") and sent once when back online.
  await context.setOffline(true);
  await page.getByTestId('room-text').fill('Pull the red lever first; note every new room.');
  await page.getByTestId('room-submit').click();
  await expect(page.getByTestId('room-waiting')).toContainText('waiting to send');
  await expect(page.getByTestId('room-notice')).toContainText('kept and will be sent when the connection is back');
  await expect(page.getByTestId('room-status')).toHaveText('reconnecting…');
  await shot(page, 'room-student-offline.png');
  await context.setOffline(false);
  await expect(page.getByTestId('room-waiting')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('room-submission')).toHaveCount(2);
  await expect(page.getByTestId('room-status')).toHaveText('connected');
  await expect(page.getByTestId('room-submission').first()).toContainText('Version 2');
  const after = await teacher<RoomSnapshot>('GET', '/api/room');
  expect(after.submissions.map((s) => s.version)).toEqual([1, 2]);

  // Locked: Submit is disabled, and the page says why next to it.
  await teacher('POST', `/api/rounds/${round.id}/lock`);
  await expect(page.getByTestId('room-submit')).toBeDisabled();
  await expect(page.getByTestId('room-submit-why')).toHaveText('The round is locked: submissions are closed.');
  await shot(page, 'room-student-locked.png');

  // The reveal: the leaderboard with my best.
  await teacher('POST', `/api/rounds/${round.id}/reveal`);
  await expect(page.getByTestId('room-leaderboard-row')).toHaveCount(1);
  await expect(page.getByTestId('room-leaderboard-row')).toContainText('Ada (you)');
  await expect(page.getByTestId('room-hidden')).toHaveText('Hidden tasks: The Lever Room, seed 2; The Lever Room, seed 3.');
  await expect(page.getByTestId('room-submit-why')).toHaveText('The round is revealed: submissions are closed.');
  await shot(page, 'room-student-joined.png');
  await expectNoSeriousViolations(page, 'the Room view, joined, after the reveal');
  await page.setViewportSize({ width: 1920, height: 1080 });
  await shot(page, 'room-student-joined-1920.png');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Practice opens Learn with the round's K and S; before Start, Learn says the session will not fit
  // what the room still allows (a warning: Start stays); the run stops at the call cap, in the
  // room's words, and offers no Resume that the room would refuse again.
  await teacher('POST', '/api/rounds', { title: 'Practice', practiceTasks: ['lever-room:1'], hiddenTasks: ['lever-room:2'], episodes: 2, steps: 10, repeats: 1, minutes: null });
  await expect(page.getByTestId('room-practice')).toHaveText('Practise on The Lever Room, seed 1 in Learn');
  await page.getByTestId('room-practice').first().click();
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('learn-episodes')).toHaveValue('2');
  await expect(page.getByTestId('learn-steps')).toHaveValue('10');
  await expect(page.getByTestId('learn-room-fit')).toHaveText(`This session makes up to 21 model calls; you have ${MAX_CALLS} left. Fewer episodes or steps, or ask the teacher.`); // 2 × 10 actor calls, 1 update
  await shot(page, 'room-student-learn-warning.png');
  await page.getByTestId('learn-episodes').fill('3');
  await page.getByTestId('learn-steps').fill('5');
  await expect(page.getByTestId('learn-start')).toBeEnabled();
  await page.getByTestId('learn-start').click();
  await expect(page.getByTestId('learn-state')).toHaveText(`Stopped: the workshop room refused the call: You have used ${MAX_CALLS} of your ${MAX_CALLS} model calls. Ask the teacher if you need more.`, { timeout: 60_000 });
  await expect(page.getByTestId('learn-resume')).toHaveCount(0);
  // What the room allows is read again after the run: nothing left.
  await expect(page.getByTestId('learn-room-fit')).toContainText('you have 0 left.');
  await expect(page.getByTestId('learn-stop-instead')).toHaveText('Resuming would be refused the same way: ask the teacher for more, or start a shorter session (fewer episodes or steps).');
  await shot(page, 'room-student-cap.png');

  // "Practise my draft": Learn runs the student's draft as the meta-prompt.
  await page.getByTestId('nav-room').click();
  await page.getByTestId('room-text').fill('Pull each lever once and keep the one that scored.');
  await page.getByTestId('room-practise-draft').click();
  await expect(page.getByTestId('learn-policy')).toHaveValue('room-draft');
  await expect(page.getByTestId('learn-policy').locator('option:checked')).toHaveText('Your room draft');

  // Settings say the room is the provider and show no key.
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('settings-room')).toContainText('In the room “Friday class”: every role uses the room’s model mock-model');
  await expect(page.getByTestId('api-key')).toHaveCount(0);
  await expect(page.getByTestId('make-setup-link')).toHaveCount(0);
  await shot(page, 'room-student-settings.png');

  // Leaving the room gives the user's own settings back.
  await page.getByTestId('nav-room').click();
  await page.getByTestId('room-leave').click();
  await expect(page.getByTestId('room-out')).toHaveText('You left the room. Join again with the code to take part.');
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('settings-room')).toHaveCount(0);
  await expect(page.getByTestId('base-url')).not.toHaveValue(`${origin}/v1`);

  // The token was in no URL (address bar, request, WebSocket), and leaving forgot it.
  expect(await page.evaluate(() => localStorage.getItem('metattl.room.identity'))).toBeNull();
  expect(urls.length).toBeGreaterThan(10);
  for (const url of urls) expect(url).not.toContain(token);
  expect(urls.some((u) => u.startsWith(`ws://${HOST}`))).toBe(true);
});

test('a join link fills the code; a taken name is made unique and said so; a participant the teacher removes is told so in plain words', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  // Another participant is already called Bo.
  const other = await fetch(`http://127.0.0.1:${room.addresses.port}/api/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: room.addresses.code, name: 'Bo' }) });
  expect(other.status).toBe(200);
  const typed = room.addresses.code.toLowerCase();
  await page.goto(`${origin}/?room=${typed}`);
  await expect(page.getByTestId('room-code')).toHaveValue(typed);
  await page.getByTestId('room-name').fill('Bo');
  await page.getByTestId('room-join-button').click();
  await expect(page.getByTestId('room-me')).toHaveText('Bo (2)');
  await expect(page.getByTestId('room-name-note')).toContainText('You are Bo (2): another participant has that name.');
  await expect(page.getByTestId('room-code-shown')).toHaveText(room.addresses.code.toUpperCase());
  await shot(page, 'room-student-renamed.png');
  const bo = (await teacher<RoomSnapshot>('GET', '/api/room')).participants.find((p) => p.name === 'Bo (2)')!;
  await teacher('POST', `/api/participants/${bo.id}/remove`);
  await expect(page.getByTestId('room-out')).toHaveText('The teacher removed you from this room.');
  await shot(page, 'room-student-removed.png');
  await page.reload();
  await expect(page.getByTestId('room')).toHaveAttribute('data-phase', 'join');
});
