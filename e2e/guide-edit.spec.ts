/**
 * Editing the guide mid-episode in Learn against the mock provider on The Lever Room: Pause →
 * "Edit the guide" (a textarea with the guide in force) → Resume; the next actor request carries
 * the new guide; the curve flags the edited episode, the transcript shows the edit inline before
 * its step, the session card and the compared curve say "with a human edit", Replay shows it, and
 * the export carries it. Screenshots of Learn with the flag at 1280×800 and 1920×1080. Also: an
 * imported session shows its own K and S, not the form's.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { importSession } from '../src/ttl/session-io.ts';
import { importTrajectory } from '../src/agents/trajectory-io.ts';
import { goTo } from './llm-helpers.ts';
import { expectNoSeriousViolations } from './axe.ts';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { configureForLearn, downloadText, goToLearn, startSession, waitComplete } from './learn-helpers.ts';

const EXPLORE = ['pull red lever', 'pull green lever', 'pull blue lever', 'pull yellow lever', 'look', 'north'];
const EDITED = 'A person’s edit: pull the red lever, then go north.';
const SHOTS = process.env.SHOTS_DIR ?? '/tmp/guide-edit-shots';

let mock: MockLlm;
test.afterEach(async () => {
  await mock.close();
});

/** The system message of every actor request logged from `from` on. */
const actorSystems = (from: number): string[] =>
  mock.requests.slice(from).filter((r) => r.role === 'actor').map((r) => (r.body as { messages: { content: string }[] }).messages[0]!.content);

/** Run a Lever Room session, edit the guide early in episode 2, and wait for it to complete. */
async function editedSession(page: Page): Promise<{ heldSteps: number; guideBefore: string }> {
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await page.getByTestId('learn-pace-delay').selectOption('500');
  await startSession(page, { story: 'lever-room', seed: 1, policy: 'meta:naive', episodes: 3, maxSteps: 15 });
  const transcript = page.getByTestId('learn-transcript');
  await expect(transcript).toHaveAttribute('data-episode', '2', { timeout: 60_000 });
  await expect(transcript.getByTestId('agent-step')).not.toHaveCount(0, { timeout: 30_000 });
  // No edit offered while running: Pause first.
  await expect(page.getByTestId('learn-edit-guide')).toHaveCount(0);
  await page.getByTestId('learn-pace-pause').click();
  await expect(page.getByTestId('learn-pace')).toHaveAttribute('data-pace', 'held', { timeout: 30_000 });
  const heldSteps = await transcript.getByTestId('agent-step').count();
  await page.getByTestId('learn-edit-guide').click();
  const editor = page.getByTestId('learn-guide-edit');
  await expect(editor).toHaveAttribute('data-episode', '2');
  await expect(editor).toHaveAttribute('data-step', String(heldSteps + 1));
  const text = page.getByTestId('learn-guide-edit-text');
  await expect(text).toBeFocused();
  const guideBefore = await text.inputValue();
  expect(guideBefore.length).toBeGreaterThan(0);
  await text.fill(EDITED);
  if (await page.getByTestId('tour').isVisible()) await page.getByTestId('tour-close').click();
  await editor.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/learn-guide-editor-1280x800.png` });
  await expectNoSeriousViolations(page, 'Learn with the guide editor open');
  const from = mock.requests.length;
  await page.getByTestId('learn-guide-edit-resume').click();
  await expect(editor).toHaveCount(0);
  await expect.poll(() => actorSystems(from).length, { timeout: 30_000 }).toBeGreaterThan(0);
  expect(actorSystems(from)[0]).toContain(`Follow this guide:\n${EDITED}`);
  expect(actorSystems(from)[0]).not.toContain(guideBefore);
  await waitComplete(page, 120_000);
  return { heldSteps, guideBefore };
}

test('Pause → Edit the guide → Resume: the actor plays on with it; flagged on the curve, inline in the transcript, on the card, in Replay and in the export', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  mock = await startMockLlm({ exploreCommands: EXPLORE });
  const { heldSteps, guideBefore } = await editedSession(page);
  const step = heldSteps + 1;

  await expect(page.getByTestId('learn-curve')).toHaveAttribute('data-marks', `2:${step}`);
  await expect(page.getByTestId('learn-curve-table')).toContainText(`edited at step ${step}`);
  await expect(page.getByTestId('learn-human-edited')).toContainText(`with a human edit (episode 2, step ${step})`);
  await expect(page.getByTestId('learn-curve')).toHaveAttribute('data-export-caption', /with a human edit \(episode 2, step \d+\)/);
  await expect(page.getByTestId('learn-shown-human-edit')).toHaveText('with a human edit');

  await page.getByTestId('learn-episode-tab').filter({ hasText: '2' }).click();
  const note = page.getByTestId('learn-transcript').getByTestId('guide-edit-note');
  await expect(note).toHaveCount(1);
  await expect(note).toHaveAttribute('data-step', String(step));
  await expect(note).toContainText(EDITED);
  await expect(note).toContainText(`from step ${step}`);
  // The note sits just before the step it applies to.
  const nextSibling = note.locator('xpath=following-sibling::*[1]');
  await expect(nextSibling).toContainText(`#${step}`);
  await note.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/learn-guide-edit-transcript-1280x800.png` });
  await expectNoSeriousViolations(page, 'Learn with an edited session: flag, note, tag');

  const card = page.getByTestId('learn-run').first();
  await expect(card.getByTestId('learn-run-human-edit')).toHaveText('with a human edit');
  await card.getByTestId('learn-run-compare').check();
  await expect(page.getByTestId('learn-compare-curve-table')).toContainText('with a human edit');

  const exported = await downloadText(page, () => page.getByTestId('learn-export').click());
  const record = importSession(exported);
  expect(record.interventions).toHaveLength(1);
  expect(record.interventions![0]).toMatchObject({ episode: 2, step, oldGuide: guideBefore, newGuide: EDITED });
  expect(record.episodes[1]!.guidingPrompt).toBe(guideBefore);

  // Learn with the flag, at the two screen sizes.
  for (const [width, height] of [[1280, 800], [1920, 1080]] as const) {
    await page.setViewportSize({ width, height });
    if (await page.getByTestId('tour').isVisible()) await page.getByTestId('tour-close').click();
    await page.getByTestId('learn-curve').scrollIntoViewIfNeeded();
    await page.getByTestId('learn-shown-session').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/learn-guide-edit-${width}x${height}.png` });
  }

  // Replay of the exported file: the edit inline before its step, and "with a human edit".
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId('nav-replay').click();
  await page.getByTestId('replay-file').setInputFiles({ name: 'edited.json', mimeType: 'application/json', buffer: Buffer.from(exported) });
  await expect(page.getByTestId('replay-human-edit')).toHaveText('with a human edit');
  await page.getByTestId('replay-end').click();
  await expect(page.getByTestId('replay-curve')).toHaveAttribute('data-marks', `2:${step}`);
});

test('an imported session shows its own K and S beside the form’s', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  mock = await startMockLlm({ exploreCommands: EXPLORE });
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await page.getByTestId('learn-episodes').fill('2');
  await page.getByTestId('learn-steps').fill('3');
  const shipped = readFileSync(new URL('../test/fixtures/recordings/lever-room-scripted.json', import.meta.url));
  await page.getByTestId('learn-import').setInputFiles({ name: 'lever.json', mimeType: 'application/json', buffer: shipped });
  await expect(page.getByTestId('learn-shown-ks')).toHaveText('K = 5, S = 10');
  await expect(page.getByTestId('learn-shown-session')).toContainText('The form and its cost estimate set up the next session.');
  await expect(page.getByTestId('learn-shown-human-edit')).toHaveCount(0);
});

test('Agent: Pause → Edit the guide → Resume; the next request has it; the exported trajectory records it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  mock = await startMockLlm({ exploreCommands: EXPLORE });
  await configureForLearn(page, mock.baseUrl);
  await goTo(page, 'agent');
  await page.getByTestId('story-picker').selectOption('lever-room');
  await page.getByTestId('agent-max-steps').fill('6');
  await page.getByTestId('agent-pace-delay').selectOption('500');
  await page.getByTestId('agent-start').click();
  const transcript = page.getByTestId('agent-transcript');
  await expect(transcript.getByTestId('agent-step')).toHaveCount(1, { timeout: 30_000 });
  await page.getByTestId('agent-pace-pause').click();
  await expect(page.getByTestId('agent-pace')).toHaveAttribute('data-pace', 'held', { timeout: 30_000 });
  const step = (await transcript.getByTestId('agent-step').count()) + 1;
  await page.getByTestId('agent-edit-guide').click();
  const text = page.getByTestId('agent-guide-edit-text');
  const guideBefore = await text.inputValue();
  await text.fill(EDITED);
  const from = mock.requests.length;
  await page.getByTestId('agent-guide-edit-resume').click();
  await expect.poll(() => actorSystems(from).length, { timeout: 30_000 }).toBeGreaterThan(0);
  expect(actorSystems(from)[0]).toContain(`Follow this guide:\n${EDITED}`);
  await expect(page.getByTestId('agent-start')).toBeEnabled({ timeout: 30_000 });
  await expect(transcript.getByTestId('guide-edit-note')).toHaveAttribute('data-step', String(step));
  await expect(page.getByTestId('agent-human-edit')).toHaveText('with a human edit');
  const trajectory = importTrajectory(await downloadText(page, () => page.getByTestId('agent-export').click()));
  expect(trajectory.interventions).toEqual([expect.objectContaining({ step, oldGuide: guideBefore, newGuide: EDITED })]);
  expect(trajectory.guidingPrompt).toBe(guideBefore);
});
