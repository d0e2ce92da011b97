/**
 * Browser entry point. The page starts in stages, each evaluated in a main-thread task of its own
 * so that none is a long task (> 50 ms; bench/page-bench.ts): the page's components (App.svelte
 * and the Play view), then the composition root (compose.ts: the core and the Play view's state),
 * which yields once more before it mounts the page. The modules that build zod schemas load with
 * the first other view (shell/schema-stages.ts), in stages of their own.
 */
import './app.css';
import { yieldToMain } from './shell/main-thread.ts';

const STAGES: ReadonlyArray<() => Promise<unknown>> = [
  () => import('./App.svelte'),
  () => import('./compose.ts'),
];
const query = new URLSearchParams(location.search);
if (query.get('kiosk') === '1') await import('./kiosk/kiosk-main.ts');
else if (query.get('view') === 'room-teacher') await import('./room-teacher/teacher-main.ts');
else if (query.get('view') === 'projector') await import('./projector/projector-main.ts');
else {
  for (const stage of STAGES) {
    await stage();
    await yieldToMain();
  }
}
