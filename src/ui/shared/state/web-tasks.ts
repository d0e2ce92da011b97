/**
 * Web tasks in the page (src/web): a task id `web:<site>/<template>:<seed>` becomes an episode
 * engine whose site draws into a Document the page gives it — by default the document of a hidden,
 * sandboxed, script-less frame (the background runs of Evolve and Evaluate: nothing visible), or a
 * same-origin iframe's document when someone watches. The document needs a window: the
 * accessibility tree's names (dom-accessibility-api) refuse a window-less one
 * (`createHTMLDocument`). Styles are read inline, as in Node, so the actor sees the same
 * accessibility tree as the CLI.
 */
import { webEpisodeEngine, webRng, type WebEpisodeEngine } from '../../../ttl/web-engine.ts';
import { inlineStyleOf } from '../../../web/dom/axtree.ts';
import { WebEnvironment, type DocumentFactory } from '../../../web/dom/web-environment.ts';

export { isWebTaskId } from './web-task-id.ts';

/** Marks the hidden frames made by `detachedDocument` (removed when their engine is disposed). */
const HIDDEN_FRAME = 'data-web-task-document';

/** A fresh document in a hidden frame (sandboxed without scripts; not shown, not focusable). */
export const detachedDocument: DocumentFactory = () => {
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.tabIndex = -1;
  frame.setAttribute('aria-hidden', 'true');
  frame.setAttribute('sandbox', 'allow-same-origin');
  frame.setAttribute(HIDDEN_FRAME, '');
  document.body.appendChild(frame);
  const doc = frame.contentDocument;
  if (!doc) throw new Error('The page cannot open a document for a web task.');
  return doc;
};

/**
 * An episode engine for a web task, its site drawn into `createDocument()`'s document; disposing
 * the engine removes a hidden frame `detachedDocument` made.
 * @throws Error for an unknown site/template or a malformed id (the catalog's message)
 */
export function createWebTaskEngine(taskId: string, createDocument: DocumentFactory = detachedDocument): WebEpisodeEngine {
  let doc: Document | null = null;
  const env = new WebEnvironment(taskId, { createDocument: () => (doc = createDocument()), styleOf: inlineStyleOf, rng: webRng });
  const engine = webEpisodeEngine(env, env.task.id, env.task.seed);
  return {
    ...engine,
    dispose() {
      engine.dispose();
      const frame = (doc as Document | null)?.defaultView?.frameElement;
      if (frame?.hasAttribute(HIDDEN_FRAME)) frame.remove();
    },
  };
}
