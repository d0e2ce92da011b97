/**
 * Web tasks in the page (src/web): a task id `web:<site>/<template>:<seed>` becomes an episode
 * engine whose site draws into a Document the page gives it — by default a hidden, empty,
 * same-origin iframe's document (sandboxed: no script runs in it), removed when the engine is
 * disposed. A detached document (`document.implementation.createHTMLDocument`) would not do:
 * it has no window, and dom-accessibility-api needs the document's window even when it is given
 * a style reader. Styles are read inline, as in Node, so the actor sees the same accessibility
 * tree as the CLI. Drawing what a step showed is WebPageFrame's job (from the recorded snapshot).
 */
import { webEpisodeEngine, webRng, type WebEpisodeEngine } from '../../../ttl/web-engine.ts';
import { inlineStyleOf } from '../../../web/dom/axtree.ts';
import { WebEnvironment, type DocumentFactory } from '../../../web/dom/web-environment.ts';

export { isWebTaskId } from './web-task-id.ts';

/** A hidden, sandboxed (scripts off), same-origin iframe appended to this page's body, and its
 * empty document; `remove()` takes the frame out again. */
export function hiddenFrameDocument(): { doc: Document; remove: () => void } {
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.tabIndex = -1;
  frame.setAttribute('aria-hidden', 'true');
  frame.setAttribute('sandbox', 'allow-same-origin');
  frame.title = 'web task site (hidden)';
  document.body.appendChild(frame);
  const doc = frame.contentDocument;
  if (!doc) {
    frame.remove();
    throw new Error('The page could not open a frame for the web task’s site.');
  }
  doc.open();
  doc.write('<!doctype html><html lang="en"><head><title></title></head><body></body></html>');
  doc.close();
  return { doc, remove: () => frame.remove() };
}

/**
 * An episode engine for a web task, its site drawn into `createDocument()`'s document (default:
 * a hidden frame's, removed by `dispose()`).
 * @throws Error for an unknown site/template or a malformed id (the catalog's message)
 */
export function createWebTaskEngine(taskId: string, createDocument?: DocumentFactory): WebEpisodeEngine {
  const frames: (() => void)[] = [];
  const factory: DocumentFactory = createDocument ?? (() => {
    const { doc, remove } = hiddenFrameDocument();
    frames.push(remove);
    return doc;
  });
  let env: WebEnvironment;
  try {
    env = new WebEnvironment(taskId, { createDocument: factory, styleOf: inlineStyleOf, rng: webRng });
  } catch (error) {
    for (const remove of frames) remove();
    throw error;
  }
  const engine = webEpisodeEngine(env, env.task.id, env.task.seed);
  return {
    ...engine,
    dispose() {
      engine.dispose();
      for (const remove of frames.splice(0)) remove();
    },
  };
}
