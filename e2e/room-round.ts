/**
 * The teacher's round form as the room's specs fill it: practice lever-room:1, hidden lever-room:2,
 * K 2, S 4, repeats 1, a 30-minute timer.
 */
import { expect, type Page } from '@playwright/test';

/** Opens the teacher page at `teacherUrl`, fills the round form with `title` and opens the round. */
export async function openLeverRound(teacher: Page, teacherUrl: string, title: string): Promise<void> {
  await teacher.goto(teacherUrl);
  await expect(teacher.getByTestId('room-teacher')).toHaveAttribute('data-status', 'connected');
  await teacher.getByTestId('round-title').fill(title);
  await teacher.getByTestId('practiceStories-lever-room').check();
  await teacher.getByTestId('hiddenStories-lever-room').check();
  await teacher.getByTestId('practiceSeeds').fill('1');
  await teacher.getByTestId('hiddenSeeds').fill('2');
  for (const [id, value] of [['round-k', '2'], ['round-s', '4'], ['round-repeats', '1'], ['round-minutes', '30']] as const) {
    await teacher.getByTestId(id).fill(value);
    await teacher.getByTestId(id).press('Tab');
  }
  await teacher.getByTestId('round-open').click();
  await expect(teacher.getByTestId('round-current')).toHaveAttribute('data-state', 'open');
}
