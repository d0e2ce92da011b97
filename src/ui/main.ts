/**
 * Browser entry point. The page starts in stages, each evaluated in a main-thread task of its own
 * so that none is a long task (> 50 ms; bench/page-bench.ts): first the import/export schemas
 * (zod: the costliest modules to evaluate), then the page's components (App.svelte and the Play
 * view), then the composition root (compose.ts: the core and the views' states), which yields
 * once more before it mounts the page.
 */
import './app.css';
import { yieldToMain } from './shell/main-thread.ts';

await import('./shell/schemas.ts');
await yieldToMain();
await import('./App.svelte');
await yieldToMain();
await import('./compose.ts');
