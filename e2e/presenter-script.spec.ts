/**
 * The presenter's script, end to end in workshop mode with the in-page simulated model (no key, no
 * server), at 1280×800 and 1920×1080: the tour → "Try it without a key (simulated model)" → Learn
 * on The Vault (credit-assignment meta-agent, seed 1, K = 4, S = 12), whose map grows from two
 * rooms in episode 1 to three → Pause in episode 2 → "Edit the guide" → Resume: the next step
 * follows the edited plan → episodes side by side, the edited episode labelled → export the map
 * (PNG 1920 × 1080 and SVG) and the side-by-side "Score by step" chart (PNG 1920 × 1080).
 * The learning curve and the map stay in sight at every stage of the run. Screenshots of every
 * stage go to SHOTS_DIR (default test-results/presenter-script).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test, type Download, type Page } from '@playwright/test';
import { importSession } from '../src/ttl/session-io.ts';
import { downloadText } from './learn-helpers.ts';
import { expectBeside, expectInSight } from './in-sight.ts';

const SHOTS = process.env.SHOTS_DIR ?? 'test-results/presenter-script';
/** The presenter's edit: the meta-agent's plan of episode 2 (take card, east, enter 290) and where the gem is. */
const EDITED_PLAN = ['take card', 'east', 'enter 290', 'east', 'take gem'];
const EDITED = `PLAN:\n${EDITED_PLAN.map((c, i) => `${i + 1}. ${c}`).join('\n')}\n\nThe gem lies in the vault: take it.`;

/** Width and height of a PNG file (its IHDR chunk). */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Click `button` and return the download it starts. */
async function download(page: Page, click: () => Promise<void>): Promise<Download> {
  const downloading = page.waitForEvent('download');
  await click();
  return downloading;
}

/** The map's room names as drawn, sorted. */
const roomsOf = async (page: Page): Promise<string[]> => ((await page.getByTestId('learn-map').getAttribute('data-rooms')) ?? '').split('|').filter((r) => r !== '').sort();

/** Each drawn room's box position, by name. */
async function roomPlaces(page: Page): Promise<Record<string, string>> {
  return page.getByTestId('learn-map-room').evaluateAll((gs) =>
    Object.fromEntries(gs.map((g) => [g.getAttribute('data-name'), `${g.querySelector('rect.box')!.getAttribute('x')},${g.querySelector('rect.box')!.getAttribute('y')}`])));
}

/** The learning curve and the map are wholly in the window, side by side. */
async function expectCurveAndMapInSight(page: Page): Promise<void> {
  await expectInSight(page, 'learn-curve');
  await expectInSight(page, 'learn-map');
  await expectBeside(page, 'learn-curve', 'learn-map');
}

for (const { width, height } of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }]) {
  test(`the presenter's script at ${width}×${height}: tour → live Vault with the map growing → edit the guide mid-episode → side by side → exports`, async ({ page }) => {
    test.setTimeout(240_000);
    mkdirSync(SHOTS, { recursive: true });
    const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}-${width}x${height}.png` });
    await page.setViewportSize({ width, height });

    // 1. The tour, on a first visit in workshop mode, to its last step: "Try it without a key".
    await page.goto('./?workshop=1');
    const tour = page.getByTestId('tour');
    await expect(tour).toBeVisible();
    await shot('01-tour');
    while ((await tour.getAttribute('data-step')) !== 'try') await page.getByTestId('tour-next').click();
    await shot('02-tour-last-step');
    await page.getByTestId('tour-simulated').click();
    await expect(tour).toHaveCount(0);
    await expect(page).toHaveURL(/view=learn/);
    const learn = page.getByTestId('learn');
    await expect(learn).toHaveAttribute('data-ready', 'true');
    await expect(page.getByTestId('story-picker')).toHaveValue('lever-room');
    await expect(page.getByTestId('learn-models')).toHaveText('Actor simulated, meta-agent simulated — change them in Settings.');
    await shot('03-learn-ready');

    // 2. A live session on The Vault, paced so the audience can follow.
    await page.getByTestId('story-picker').selectOption('vault');
    await page.getByTestId('learn-seed').fill('1');
    await page.getByTestId('learn-policy').selectOption('meta:credit-assignment');
    await page.getByTestId('learn-episodes').fill('4');
    await page.getByTestId('learn-steps').fill('12');
    await page.getByTestId('learn-pace-delay').selectOption('500');
    await page.getByTestId('learn-start').click();
    const transcript = page.getByTestId('learn-transcript');
    await expect(transcript).toHaveAttribute('data-episode', '2', { timeout: 60_000 });
    await expect(transcript.getByTestId('agent-step')).not.toHaveCount(0, { timeout: 30_000 });
    // Episode 1 found the Lobby and the Vault Door.
    await expect(page.getByTestId('learn-map')).toHaveAttribute('data-placed', 'true');
    expect(await roomsOf(page)).toEqual(['Lobby', 'Vault Door']);

    // 3. Pause mid-episode and edit the guide.
    await page.getByTestId('learn-pace-pause').click();
    await expect(page.getByTestId('learn-pace')).toHaveAttribute('data-pace', 'held', { timeout: 30_000 });
    await expect(page.getByTestId('learn-state')).toHaveText('Paused in episode 2 of 4');
    await shot('04-paused-episode-2');
    await expectCurveAndMapInSight(page);
    const heldSteps = await transcript.getByTestId('agent-step').count();
    const step = heldSteps + 1;
    await page.getByTestId('learn-edit-guide').click();
    const editor = page.getByTestId('learn-guide-edit');
    await expect(editor).toHaveAttribute('data-episode', '2');
    await expect(editor).toHaveAttribute('data-step', String(step));
    const text = page.getByTestId('learn-guide-edit-text');
    await expect(text).toBeFocused();
    const guideBefore = await text.inputValue();
    expect(guideBefore).toMatch(/^PLAN:\n1\. take card\n2\. east\n3\. enter 290\n/);
    await text.fill(EDITED);
    await expect(editor).toBeInViewport();
    await shot('05-guide-editor');
    await page.getByTestId('learn-guide-edit-resume').click();
    await expect(editor).toHaveCount(0);
    await expect(transcript.getByTestId('agent-step')).toHaveCount(step, { timeout: 30_000 });
    await shot('06-resumed-with-the-edit');
    await expectCurveAndMapInSight(page);

    // 4. The session ends; the map has grown to three rooms, the rooms of episode 1 where they were.
    await expect(page.getByTestId('learn-progress')).toHaveAttribute('data-status', 'complete', { timeout: 120_000 });
    await expect(learn).toHaveAttribute('data-phase', 'idle');
    expect(await roomsOf(page)).toEqual(['Lobby', 'Vault', 'Vault Door']);
    const places = await roomPlaces(page);
    await page.getByTestId('learn-map-slider').fill('1');
    await expect(page.getByTestId('learn-map-episode')).toHaveText('1');
    expect(await roomsOf(page)).toEqual(['Lobby', 'Vault Door']);
    const episode1Places = await roomPlaces(page);
    expect(episode1Places).toEqual({ Lobby: places.Lobby, 'Vault Door': places['Vault Door'] });
    await shot('07-map-after-episode-1');
    await page.getByTestId('learn-map-slider').fill('4');
    await expect(page.getByTestId('learn-map-episode')).toHaveText('4');
    await expect(page.getByTestId('learn-curve')).toHaveAttribute('data-marks', `2:${step}`);
    await shot('08-session-done');
    await expectCurveAndMapInSight(page);

    // The record: the edit at its step, and that step played the edited plan's next command.
    const record = importSession(await downloadText(page, () => page.getByTestId('learn-export').click()));
    expect(record.config.models.actor.model).toBe('simulated');
    expect(record.interventions).toEqual([expect.objectContaining({ episode: 2, step, oldGuide: guideBefore, newGuide: EDITED })]);
    const played = record.episodes[1]!.steps[step - 1]!;
    const following = /Following the guide: command (\d+) of (\d+)\./.exec(played.reply);
    expect(following, `step ${step} of episode 2 follows a plan: ${played.reply}`).not.toBeNull();
    expect(Number(following![2])).toBe(EDITED_PLAN.length);
    expect(played.action).toBe(EDITED_PLAN[Number(following![1]) - 1]);
    expect(Math.max(...record.scores)).toBe(5);

    // 5. Episodes side by side: 1 against the edited episode 2, which is labelled.
    await page.getByTestId('learn-side-by-side').click();
    const compare = page.getByTestId('episode-compare');
    await expect(compare).toHaveAttribute('data-a', '1');
    await expect(compare).toHaveAttribute('data-b', '4');
    await expect(page.getByTestId('compare-edited-b')).toHaveCount(0);
    await compare.getByTestId('compare-pick-b').selectOption('2');
    await expect(page.getByTestId('compare-edited-b')).toHaveText(`with a human edit (step ${step})`);
    await expect(page.getByTestId('compare-edited-a')).toHaveCount(0);
    await expect(page.getByTestId('compare-chart')).toHaveAttribute('data-legend', new RegExp(`Episode 2 \\(B\\) · with a human edit \\(step ${step}\\)`));
    await page.getByTestId('compare-chart').evaluate((chart) => chart.scrollIntoView({ block: 'center' }));
    await expectInSight(page, 'compare-chart');
    await shot('09-side-by-side');

    // 6. Exports: the side-by-side chart (PNG), the map (PNG and SVG), each 1920 × 1080.
    const chartPng = await download(page, () => page.getByTestId('compare-chart-export-png').click());
    expect(chartPng.suggestedFilename()).toMatch(new RegExp(`^learn-compare-${record.id}-episodes-1-vs-2-\\d{4}-\\d{2}-\\d{2}-\\d{4}Z\\.png$`));
    expect(pngSize(readFileSync(await chartPng.path()))).toEqual({ width: 1920, height: 1080 });
    await page.getByTestId('learn-map').scrollIntoViewIfNeeded();
    const mapPng = await download(page, () => page.getByTestId('learn-map-export-png').click());
    expect(mapPng.suggestedFilename()).toMatch(new RegExp(`^learn-map-${record.id}-\\d{4}-\\d{2}-\\d{2}-\\d{4}Z\\.png$`));
    expect(pngSize(readFileSync(await mapPng.path()))).toEqual({ width: 1920, height: 1080 });
    const mapSvg = await download(page, () => page.getByTestId('learn-map-export-svg').click());
    expect(mapSvg.suggestedFilename()).toMatch(new RegExp(`^learn-map-${record.id}-\\d{4}-\\d{2}-\\d{2}-\\d{4}Z\\.svg$`));
    const svg = readFileSync(await mapSvg.path(), 'utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="1920" height="1080"/);
    for (const room of ['Lobby', 'Vault Door', 'Vault']) expect(svg).toContain(`>${room}</text>`);
    expect(svg).toContain('The Vault — map after episode 4');
    await shot('10-exported');
  });
}
