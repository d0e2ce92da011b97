/**
 * Browser entry point. The page starts in stages, each evaluated in a main-thread task of its own
 * so that none is a long task (> 50 ms; bench/page-bench.ts): first the modules that build zod
 * schemas when evaluated (import/export of trajectories, share links, meta-prompt entries, then
 * sessions, then evolution runs: the costliest modules to evaluate), then the page's components
 * (App.svelte and the Play view), then the composition root (compose.ts: the core and the views'
 * states), which yields once more before it mounts the page.
 */
import './app.css';
import { yieldToMain } from './shell/main-thread.ts';

const STAGES: ReadonlyArray<() => Promise<unknown>> = [
  () => Promise.all([import('../agents/trajectory-io.ts'), import('../share/share-link.ts'), import('./shared/stores/entry-io.ts')]),
  () => import('../ttl/session-io.ts'),
  () => import('../evolve/evolution-io.ts'),
  () => import('./App.svelte'),
  () => import('./compose.ts'),
];
if (new URLSearchParams(location.search).get('kiosk') === '1') await import('./kiosk/kiosk-main.ts');
else {
  for (const stage of STAGES) {
    await stage();
    await yieldToMain();
  }
}
