/**
 * Ctrl-C (SIGINT) and SIGTERM for long commands: the first signal aborts the run cleanly (it stops
 * at the next safe point and everything recorded stays stored); the command then exits with 130 so
 * scripts can tell an interrupted run from a finished one.
 */

export const INTERRUPTED_EXIT_CODE = 130;

export interface Interrupt {
  readonly signal: AbortSignal;
  /** True once a signal arrived. */
  readonly interrupted: boolean;
  /** Stop listening (call in `finally`). */
  release(): void;
}

export function listenForInterrupt(): Interrupt {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    get interrupted() {
      return controller.signal.aborted;
    },
    release() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** The exit code of a long command: 130 when interrupted, 1 on a failure, else 0. */
export function exitCode(interrupted: boolean, failed: boolean): number {
  if (interrupted) return INTERRUPTED_EXIT_CODE;
  return failed ? 1 : 0;
}
