/**
 * The teacher's control view and the projector against a real room server (`startRoomServer`,
 * serving this checkout's built page from dist/): the teacher opens a round from the page; a
 * student joins and submits over HTTP; the projector shows them joining, the scoring in progress,
 * the leaderboard with W-AUC, its interval and n, a "new best" moment, names hidden by the
 * teacher's toggle; lock and reveal; the kill switch; an export; the room's end. The scorer is a
 * scripted one at the server's scorer seam (src/room-server/seams.ts), so scores and progress are
 * known values: the room's real scoring has its own tests. Screenshots of the projector at
 * 1920×1080 and 1280×800 and of the teacher's view at 1280×800 go to test-results/room-teacher/.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { resolve } from 'node:path';
import type { JoinReply, RoomSnapshot, RoundPublic, ScoreState, SubmissionPublic } from '../src/room/protocol.ts';
import { connectRoom } from '../src/room/room-client.ts';
import { expectNoSeriousViolations } from './axe.ts';
import { startRoomServer } from '../src/room-server/room-server.ts';
import { createScorer } from '../src/room-server/scoring.ts';
import type { RoomScorer, RunningRoom, ScorerDeps } from '../src/room-server/seams.ts';
import { startMockLlm } from '../test/mock-llm/server.ts';
import { LEVER_COMMANDS, roomLlm } from '../test/support/room-scoring.ts';

const SHOTS = 'test-results/room-teacher';

/** Scores a submission in two steps (1 of 2 sessions with a running curve, then done): W-AUC 0.8 for a text with "plan", else 0.5. */
function scriptedScorer(deps: Omit<ScorerDeps, 'llm'>): RoomScorer {
  const timers: ReturnType<typeof setTimeout>[] = [];
  return {
    enqueue(sub) {
      const wauc = sub.text.includes('plan') ? 0.8 : 0.5;
      const running: ScoreState = { status: 'scoring', done: 1, total: 2, score: { wauc: wauc - 0.1, low: wauc - 0.1, high: wauc - 0.1, n: 1, curve: [wauc - 0.3, wauc - 0.1] }, message: null };
      timers.push(setTimeout(() => deps.onScore(sub.id, running), 200));
      timers.push(setTimeout(() => deps.onScore(sub.id, { status: 'scored', done: 2, total: 2, score: { wauc, low: wauc - 0.12, high: wauc + 0.08, n: 2, curve: [wauc - 0.2, wauc, wauc + 0.1] }, message: null }), 2500));
    },
    async evolve(req, seeds) {
      deps.onEvolution({ roundId: req.roundId, state: 'done', budget: req.budget, used: 2, curve: [0.5, 0.8],
        candidates: seeds.map((s, i) => ({ id: `c${i + 1}`, parentIds: [], originParticipantId: s.participantId, creditParticipantIds: [s.participantId], wauc: 0.5, accepted: true })),
        bestCandidateId: 'c1', message: null });
    },
    stopEvolution() {},
    async close() {
      for (const t of timers) clearTimeout(t);
    },
  };
}

let room: RunningRoom;
let origin: string;

test.beforeAll(async () => {
  room = await startRoomServer({ port: 0, listenHost: '127.0.0.1', publicHost: '127.0.0.1', pageDir: resolve('dist'), title: 'Tuesday workshop', makeScorer: scriptedScorer });
  origin = new URL(room.addresses.joinUrl).origin;
});

test.afterAll(async () => {
  await room?.close();
});

async function join(request: APIRequestContext, name: string, code = room.addresses.code, at = origin): Promise<JoinReply> {
  const response = await request.post(`${at}/api/join`, { data: { code, name } });
  expect(response.status()).toBe(200);
  return (await response.json()) as JoinReply;
}

async function submit(request: APIRequestContext, token: string, roundId: string, text: string, at = origin): Promise<SubmissionPublic> {
  const response = await request.post(`${at}/api/submissions`, { data: { roundId, text, clientId: `client-${text.length}-${Date.now()}` }, headers: { Authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  return (await response.json()) as SubmissionPublic;
}

test('the teacher runs a round and the projector shows it', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const teacherContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const projectorContext = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const teacher = await teacherContext.newPage();
  const projector = await projectorContext.newPage();

  await teacher.goto(room.addresses.teacherUrl);
  await expect(teacher.getByTestId('room-teacher')).toHaveAttribute('data-status', 'connected');
  expect(teacher.url()).not.toContain('teacher=');
  await projector.goto(room.addresses.projectorUrl);
  await expect(projector.getByTestId('projector')).toHaveAttribute('data-status', 'connected');
  expect(projector.url()).not.toContain('projector=');
  await expect(projector.getByTestId('join-code')).toHaveText(room.addresses.code);
  await expect(projector.getByTestId('join-qr').locator('svg')).toBeVisible();

  // Open a round from the page: practice on seeds 1–2, scored on 3–4 of the Lever Room.
  await teacher.getByTestId('round-title').fill('Warm-up');
  await teacher.getByTestId('practiceSeeds').fill('1, 2');
  await teacher.getByTestId('hiddenSeeds').fill('3-4');
  await teacher.getByTestId('round-minutes').fill('15');
  await teacher.getByTestId('round-minutes').blur();
  await teacher.screenshot({ path: `${SHOTS}/teacher-1280x800-open-round.png` });
  await teacher.getByTestId('round-open').click();
  await expect(teacher.getByTestId('round-current')).toHaveAttribute('data-state', 'open');
  await expect(teacher.getByTestId('round-current')).toContainText('2 practice, 2 hidden tasks');
  await expect(projector.getByTestId('projector-round')).toContainText('Warm-up');
  await expect(projector.getByTestId('projector-timer')).toHaveText(/^1[45]:\d\d$/);
  const snapshot = (await (await request.get(`${origin}/api/room`, { headers: { Authorization: `Bearer ${room.teacherToken}` } })).json()) as RoomSnapshot;
  const round = snapshot.rounds.at(-1) as RoundPublic;
  expect(round.hiddenTasks).toBeNull();

  // Two students join; the projector shows their names as text (markup in a name stays text).
  const ada = await join(request, 'Ada <b>Lovelace</b>');
  const bo = await join(request, 'Bo');
  await expect(projector.getByTestId('joined-name')).toHaveText(['Ada <b>Lovelace</b>', 'Bo']);
  await expect(projector.locator('[data-testid="joined-name"] b')).toHaveCount(0);
  await expect(teacher.getByTestId('participant-row')).toHaveCount(2);

  // Submissions are scored: progress, then the leaderboard with W-AUC, its interval and n.
  await submit(request, ada.token, round.id, 'Explore every room before pulling a lever.');
  await expect(projector.getByTestId('scoring-row')).toHaveAttribute('data-done', '1');
  await expect(projector.getByTestId('scoring-row')).toContainText('1/2');
  await expect(projector.getByTestId('leaderboard-row')).toHaveCount(1, { timeout: 10_000 });
  await expect(projector.getByTestId('leaderboard-wauc')).toHaveText('0.50');
  await expect(projector.getByTestId('leaderboard-ci')).toHaveText('0.38–0.58 · n = 2');
  await expect(projector.getByTestId('leaderboard-unit')).toContainText('W-AUC on the hidden set');
  const boLive = connectRoom({ url: origin.replace(/^http/, 'ws'), token: bo.token, presence: { role: 'student', participantId: null, name: null } });
  await boLive.synced;
  await expect(projector.getByTestId('projector-joined')).toContainText('1 online');
  await expect(projector.locator(`[data-testid="joined-name"][data-id="${bo.participantId}"]`)).toHaveClass(/\bonline\b/);
  await submit(request, bo.token, round.id, 'Make a plan: pull the lever, then go north.');
  await expect(projector.getByTestId('scoring-row')).toContainText('Bo v1');
  await expect(projector.getByTestId('scoring-chart')).toBeVisible();
  await projector.screenshot({ path: `${SHOTS}/projector-1920x1080-scoring.png` });
  await expect(projector.getByTestId('new-best')).toContainText('Bo 0.80', { timeout: 10_000 });
  await expect(projector.getByTestId('leaderboard-name')).toHaveText(['Bo', 'Ada <b>Lovelace</b>']);
  await expect(projector.locator(`[data-testid="leaderboard-row"][data-id="${bo.participantId}"]`)).toHaveClass(/\bbest\b/);
  await expect(teacher.getByTestId('submission-row')).toHaveCount(2);
  await projector.screenshot({ path: `${SHOTS}/projector-1920x1080.png` });

  // Names hidden: the projector shows "Participant n" in join order.
  await teacher.getByTestId('names-hidden').check();
  await expect(projector.getByTestId('projector')).toHaveAttribute('data-names-hidden', 'true');
  await expect(projector.getByTestId('leaderboard-name')).toHaveText(['Participant 2', 'Participant 1']);
  await expect(projector.getByTestId('joined-name')).toHaveText(['Participant 1', 'Participant 2']);
  await projector.setViewportSize({ width: 1280, height: 800 });
  await projector.screenshot({ path: `${SHOTS}/projector-1280x800.png` });

  // Lock, then reveal: the hidden tasks become public.
  await teacher.getByTestId('round-lock').click();
  await expect(teacher.getByTestId('round-current')).toHaveAttribute('data-state', 'locked');
  await expect(projector.getByTestId('projector-round')).toHaveAttribute('data-state', 'locked');
  const late = await request.post(`${origin}/api/submissions`, { data: { roundId: round.id, text: 'too late', clientId: 'late-1' }, headers: { Authorization: `Bearer ${ada.token}` } });
  expect(late.status()).toBe(409);
  await teacher.getByTestId('round-reveal').click();
  await expect(projector.getByTestId('projector-round')).toHaveAttribute('data-state', 'revealed');
  await projector.setViewportSize({ width: 1920, height: 1080 });
  await projector.screenshot({ path: `${SHOTS}/projector-1920x1080-revealed.png` });

  // Evolve together: the projector shows the evolution's curve and whose idea the best descends from.
  await teacher.getByTestId('evolve-budget').fill('8');
  await teacher.getByTestId('evolve-start').click();
  await expect(teacher.getByTestId('evolution-state')).toHaveAttribute('data-state', 'done');
  await expect(projector.getByTestId('projector-evolution')).toBeVisible();
  await expect(projector.getByTestId('evolution-credit')).toContainText(/descends from the ideas of Participant [12]/);
  await projector.setViewportSize({ width: 1920, height: 1080 });
  await projector.screenshot({ path: `${SHOTS}/projector-1920x1080-evolution.png` });

  // Moderation and the kill switch.
  await teacher.getByTestId('kill-all').click();
  await expect(teacher.getByTestId('killed-all')).toBeVisible();
  await teacher.locator(`[data-testid="participant-row"][data-id="${ada.participantId}"] [data-testid="participant-kill"]`).click();
  await expect(teacher.locator(`[data-testid="participant-row"][data-id="${ada.participantId}"]`)).toHaveAttribute('data-killed', 'true');
  await teacher.screenshot({ path: `${SHOTS}/teacher-1280x800.png`, fullPage: false });
  await expectNoSeriousViolations(teacher, 'the teacher view during a round');
  await expectNoSeriousViolations(projector, 'the projector with a leaderboard and the class evolution');
  await teacher.screenshot({ path: `${SHOTS}/teacher-1280x800-full.png`, fullPage: true });

  // Next round: the current one closes and the new one opens, with an empty leaderboard.
  // The title defaults to the next round's index; a number typed and not yet committed (it
  // commits on blur, at the mousedown on the button) does not fold the form away from the click.
  await teacher.getByText('Next round', { exact: true }).click();
  await expect(teacher.getByTestId('round-title')).toHaveValue('Round 2');
  await teacher.getByTestId('round-repeats').fill('2');
  await teacher.getByTestId('round-next').click();
  await expect(teacher.getByTestId('round-current')).toContainText('Round 2');
  await expect(teacher.getByTestId('round-current')).toHaveAttribute('data-state', 'open');
  await expect(projector.getByTestId('projector-round')).toHaveText('Round 2');
  await expect(projector.getByTestId('leaderboard-empty')).toBeVisible();
  const rounds = ((await (await request.get(`${origin}/api/room`, { headers: { Authorization: `Bearer ${room.teacherToken}` } })).json()) as RoomSnapshot).rounds;
  expect(rounds.map((r) => [r.title, r.state, r.repeats])).toEqual([['Warm-up', 'closed', 1], ['Round 2', 'open', 2]]);
  await expect(teacher.getByTestId('teacher-done')).toHaveText('Round "Round 2" is open: 2 practice and 2 hidden tasks.');
  await teacher.screenshot({ path: `${SHOTS}/teacher-1280x800-next-round.png` });
  // The new round folds the form, which offers the one after it.
  await expect(teacher.getByTestId('round-form')).not.toHaveAttribute('open');
  await teacher.getByText('Next round', { exact: true }).click();
  await expect(teacher.getByTestId('round-title')).toHaveValue('Round 3');
  await expect(teacher.getByTestId('round-repeats')).toHaveValue('2');

  // A participant's token cannot do a teacher's action (checked on the server).
  const forged = await request.post(`${origin}/api/rounds/${round.id}/close`, { headers: { Authorization: `Bearer ${ada.token}` } });
  expect(forged.status()).toBe(403);

  // Export, then end the room (the export is offered first, then confirmed).
  const download = teacher.waitForEvent('download');
  await teacher.getByTestId('export-csv').click();
  expect((await download).suggestedFilename()).toMatch(/\.csv$/);
  await teacher.getByTestId('end-room').click();
  await expect(teacher.getByTestId('end-confirm')).toContainText('Export first');
  const finalExport = teacher.waitForEvent('download');
  await teacher.getByTestId('end-room-confirm').click();
  await expect(teacher.getByTestId('teacher-ended')).toBeVisible();
  await expect(teacher.getByTestId('join-card')).toHaveCount(0); // an ended room is not joinable: no code, no QR
  expect((await finalExport).suggestedFilename()).toBe(`room-${room.addresses.code}-final.json`);
  await expect(projector.getByTestId('projector-ended')).toBeVisible();
  await expect(projector.getByTestId('joined-name')).toHaveCount(0);
  // The projector keeps the final results (the leaderboards with scores, the evolution) without the join code, also after a reload.
  for (const reload of [false, true]) {
    if (reload) await projector.reload();
    await expect(projector.getByTestId('projector-round')).toHaveText('The room has ended — final results');
    await expect(projector.getByTestId('final-round')).toHaveCount(1);
    await expect(projector.getByTestId('final-round')).toContainText('Final: Warm-up');
    await expect(projector.getByTestId('leaderboard-name')).toHaveText(['Participant 2', 'Participant 1']);
    await expect(projector.getByTestId('leaderboard-wauc')).toHaveText(['0.80', '0.50']);
    await expect(projector.getByTestId('projector-evolution')).toBeVisible();
    await expect(projector.getByTestId('join-code')).toHaveCount(0);
  }
  await projector.screenshot({ path: `${SHOTS}/projector-1920x1080-ended.png` });
  const after = await request.post(`${origin}/api/join`, { data: { code: room.addresses.code, name: 'Cy' } });
  expect(after.status()).toBe(410);

  boLive.close();
  await teacherContext.close();
  await projectorContext.close();
});

test('the projector shows the room scorer\'s own W-AUC, interval and n (the deterministic mock through the evaluation service)', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const mock = await startMockLlm({ exploreCommands: LEVER_COMMANDS });
  const scored = await startRoomServer({ port: 0, listenHost: '127.0.0.1', publicHost: '127.0.0.1', pageDir: resolve('dist'), makeScorer: (deps) => createScorer({ ...deps, llm: roomLlm(mock.baseUrl), contextWindow: 8000 }) });
  const at = new URL(scored.addresses.joinUrl).origin;
  const teacherAuth = { Authorization: `Bearer ${scored.teacherToken}` };
  try {
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    const projector = await context.newPage();
    await projector.goto(scored.addresses.projectorUrl);
    await expect(projector.getByTestId('projector')).toHaveAttribute('data-status', 'connected');
    const opened = await request.post(`${at}/api/rounds`, { headers: teacherAuth, data: { title: 'Levers', practiceTasks: ['lever-room:1'], hiddenTasks: ['lever-room:2'], episodes: 2, steps: 6, repeats: 1, minutes: null } });
    expect(opened.status()).toBe(200);
    const round = (await opened.json()) as RoundPublic;
    // A refusal is shown in the server's words: nothing to seed an evolution with yet.
    const teacher = await context.newPage();
    await teacher.goto(scored.addresses.teacherUrl);
    await expect(teacher.getByTestId('round-current')).toHaveAttribute('data-state', 'open');
    await teacher.getByTestId('evolve-start').click();
    await expect(teacher.getByTestId('teacher-problem-text')).toHaveText('The room server refused: No submissions to seed the evolution with.');
    const joined = (await (await request.post(`${at}/api/join`, { data: { code: scored.addresses.code, name: 'Ada' } })).json()) as JoinReply;
    const sub = await (await request.post(`${at}/api/submissions`, { headers: { Authorization: `Bearer ${joined.token}` }, data: { roundId: round.id, text: 'Pull the levers in the order that scored last episode.', clientId: 'real-1' } })).json() as SubmissionPublic;
    await expect(projector.getByTestId('leaderboard-row')).toHaveCount(1, { timeout: 60_000 });
    const snapshot = (await (await request.get(`${at}/api/room`, { headers: teacherAuth })).json()) as RoomSnapshot;
    const score = snapshot.submissions.find((s) => s.id === sub.id)!.score!.score!;
    await expect(projector.getByTestId('leaderboard-wauc')).toHaveText(score.wauc.toFixed(2));
    await expect(projector.getByTestId('leaderboard-ci')).toHaveText('n = 1 (no interval)');
    expect(score.n).toBe(1);
    expect(score.curve).toHaveLength(2);

    // The room ended from elsewhere (another tab): the teacher's view says so from the document.
    expect((await request.post(`${at}/api/end`, { headers: teacherAuth })).status()).toBe(200);
    await expect(teacher.getByTestId('teacher-ended')).toBeVisible();
    await expect(projector.getByTestId('projector-ended')).toBeVisible();
    await context.close();
  } finally {
    await scored.close();
    await mock.close();
  }
});

test('a full room fits the projector at 1920×1080 and at 1280×800: no overflow, the rest of the leaderboard counted', async ({ browser, request }) => {
  const full = await startRoomServer({ port: 0, listenHost: '127.0.0.1', publicHost: '127.0.0.1', pageDir: resolve('dist'), title: 'Thursday evening class, room 4.12 (second floor)', makeScorer: scriptedScorer });
  const at = new URL(full.addresses.joinUrl).origin;
  try {
    const opened = await request.post(`${at}/api/rounds`, { headers: { Authorization: `Bearer ${full.teacherToken}` }, data: { title: 'Round 2: the Vault, with a longer title than most', practiceTasks: ['vault:1'], hiddenTasks: ['vault:2', 'vault:3'], episodes: 3, steps: 12, repeats: 2, minutes: 20 } });
    const round = (await opened.json()) as RoundPublic;
    const names = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Katherine Johnson', 'Edsger Dijkstra', 'Barbara Liskov', 'Donald Knuth', 'Margaret Hamilton', 'Ken Thompson', 'Frances Allen', 'Wolfgang Amadeus Mozart-Beethoven', 'Bo'];
    for (const [i, name] of names.entries()) {
      const joined = await join(request, name, full.addresses.code, at);
      await submit(request, joined.token, round.id, i % 3 === 0 ? `A plan number ${i}` : `Idea ${i}`, at);
    }
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    const projector = await context.newPage();
    await projector.goto(full.addresses.projectorUrl);
    await expect(projector.getByTestId('leaderboard-row')).toHaveCount(7, { timeout: 20_000 });
    await expect(projector.getByTestId('leaderboard-more')).toHaveText('and 5 more', { timeout: 20_000 });
    for (const [width, height] of [[1920, 1080], [1280, 800]] as const) {
      await projector.setViewportSize({ width, height });
      // The chart's type follows a resize of the window as it is, before any reload.
      await expect(projector.getByTestId('scoring-chart')).toHaveAttribute('data-font-px', width === 1920 ? '23.04' : '16');
      await projector.reload();
      await expect(projector.getByTestId('leaderboard-more')).toHaveText('and 5 more');
      const fits = await projector.evaluate(() => {
        const root = document.documentElement;
        const rows = [...document.querySelectorAll('[data-testid="leaderboard-row"], [data-testid="leaderboard-more"], [data-testid="joined-name"]')];
        return { scrollW: root.scrollWidth, scrollH: root.scrollHeight, bottom: Math.max(...rows.map((r) => r.getBoundingClientRect().bottom)) };
      });
      await projector.screenshot({ path: `${SHOTS}/projector-full-room-${width}x${height}.png` });
      // The chart's type follows the screen's: 23 px at 1920 wide, 16 px at 1280.
      await expect(projector.getByTestId('scoring-chart')).toHaveAttribute('data-font-px', width === 1920 ? '23.04' : '16');
      expect(fits.scrollW).toBeLessThanOrEqual(width);
      expect(fits.scrollH).toBeLessThanOrEqual(height);
      expect(fits.bottom).toBeLessThanOrEqual(height);
    }
    await context.close();
  } finally {
    await full.close();
  }
});
