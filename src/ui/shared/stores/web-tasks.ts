/**
 * Web tasks in the page (src/web): a task id `web:<site>/<template>:<seed>` becomes an episode
 * engine whose site draws into a Document the page gives it — a detached document by default (the
 * background runs of Evolve and Evaluate), or a same-origin iframe's document when someone watches.
 * Styles are read inline, as in Node, so the actor sees the same accessibility tree as the CLI.
 */
import { webEpisodeEngine, webRng, type WebEpisodeEngine } from '../../../ttl/web-engine.ts';
import { inlineStyleOf } from '../../../web/dom/axtree.ts';
import { WebEnvironment, type DocumentFactory } from '../../../web/dom/web-environment.ts';

export { isWebTaskId } from './web-task-id.ts';

/** A fresh detached HTML document (no window, nothing shown). */
export const detachedDocument: DocumentFactory = () => document.implementation.createHTMLDocument('');

/**
 * An episode engine for a web task, its site drawn into `createDocument()`'s document.
 * @throws Error for an unknown site/template or a malformed id (the catalog's message)
 */
export function createWebTaskEngine(taskId: string, createDocument: DocumentFactory = detachedDocument): WebEpisodeEngine {
  const env = new WebEnvironment(taskId, { createDocument, styleOf: inlineStyleOf, rng: webRng });
  return webEpisodeEngine(env, env.task.id, env.task.seed);
}
