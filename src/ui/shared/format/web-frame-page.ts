/**
 * Which recorded page a live web episode's frame draws: the latest step's page (the page *after*
 * its action; its `targetBid` names the acted element only when the page stayed, since element
 * ids are given afresh to every page), or the start page before the first step. Pure.
 */
import type { TrajectoryStep } from '../../../agents/trajectory.ts';
import type { PageSnapshot } from '../../../web/interface.ts';

/** What the frame draws, and which moment it is. */
export interface FramedPage {
  page: PageSnapshot;
  /** The step shown (0 = the start page). */
  step: number;
  /** True when the page outlines the element the step's action acted on. */
  actedOn: boolean;
}

/** The page to draw for the latest recorded step of `steps` (null: no page recorded at all). */
export function framedPage(steps: readonly Pick<TrajectoryStep, 'index' | 'page'>[], startPage: PageSnapshot | null | undefined): FramedPage | null {
  const last = steps.findLast((s) => s.page !== undefined);
  if (last) return { page: last.page!, step: last.index, actedOn: last.page!.targetBid !== null };
  return startPage ? { page: startPage, step: 0, actedOn: false } : null;
}

/** The caption above the frame: which step's page it is. */
export function framedCaption(framed: FramedPage, action: string | null): string {
  if (framed.step === 0) return 'The start page';
  return `After step ${framed.step}${action ? `: ${action}` : ''}${framed.actedOn ? ' (the acted element outlined)' : ''}`;
}
