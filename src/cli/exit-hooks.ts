/**
 * Work the CLI does before it returns its exit code, registered by what needs it (a loaded local
 * model frees its native memory and threads). Tiny and dependency-free, so main.ts imports it at
 * once without slowing `--help`.
 */
const hooks = new Set<() => Promise<void>>();

/** Run `hook` once before the CLI exits. */
export function beforeExit(hook: () => Promise<void>): void {
  hooks.add(hook);
}

/** Run and forget every registered hook (errors are ignored: the run's result is already made). */
export async function runExitHooks(): Promise<void> {
  const all = [...hooks];
  hooks.clear();
  await Promise.allSettled(all.map((h) => h()));
}
