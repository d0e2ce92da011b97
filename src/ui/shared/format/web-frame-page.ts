/**
 * Which recorded page a live web episode's frame draws. A step's `page` is the page *after* its
 * action, while its `targetBid` names the element the action acted on — on the page *before* it
 * (element ids are given afresh to every page, so after a navigation the same id may name another
 * element). So when the latest action acted on an element, the frame shows the page it acted on
 * (the previous step's page, or the start page) with that element highlighted; otherwise (an
 * answer, goto, scroll, noop) the latest page with nothing highlighted. Pure.
 */
import type { TrajectoryStep } from '../../../agents/trajectory.ts';
import type { PageSnapshot } from '../../../web/interface.ts';

/** What the frame draws, and a caption saying which moment it is. */
export interface FramedPage {
  page: PageSnapshot;
  /** The step shown (0 = the start page). */
  step: number;
  /** True when `page` is the page the step's action acted on (its element highlighted). */
  actedOn: boolean;
}

/** The page to draw for the latest recorded step of `steps` (null: no page recorded at all). */
export function framedPage(steps: readonly Pick<TrajectoryStep, 'index' | 'page'>[], startPage: PageSnapshot | null | undefined): FramedPage | null {
  const withPages = steps.filter((s) => s.page !== undefined);
  const last = withPages.at(-1);
  if (!last) return startPage ? { page: { ...startPage, targetBid: null }, step: 0, actedOn: false } : null;
  const before = withPages.at(-2)?.page ?? startPage ?? null;
  const target = last.page!.targetBid;
  if (target !== null && before) return { page: { ...before, targetBid: target }, step: last.index, actedOn: true };
  return { page: { ...last.page!, targetBid: null }, step: last.index, actedOn: false };
}

/** The caption above the frame: which step's page it is. */
export function framedCaption(framed: FramedPage, action: string | null): string {
  if (framed.step === 0) return 'The start page';
  return framed.actedOn ? `Step ${framed.step}: ${action ?? 'the action'} acts on the highlighted element` : `After step ${framed.step}${action ? `: ${action}` : ''}`;
}
