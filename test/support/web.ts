/** A web environment for tests: jsdom, the fast inline style reader, the loops' seeded RNG. */
import { SeededRng } from '../../src/ttl/rng.ts';
import { inlineStyleOf } from '../../src/web/dom/axtree.ts';
import { WebEnvironment } from '../../src/web/dom/web-environment.ts';
import { createJsdomDocument } from '../../src/web/node/jsdom-document.ts';

export const rng = (seed: number): SeededRng => new SeededRng(seed);

export function webEnv(taskId: string): WebEnvironment {
  return new WebEnvironment(taskId, { createDocument: createJsdomDocument, styleOf: inlineStyleOf, rng });
}

/** The id of the first printed node with this role and name on the current page. @throws Error when absent */
export function bidOf(env: WebEnvironment, role: string, name: string): string {
  const node = env.axNodes.find((n) => n.role === role && n.name === name && n.bid);
  if (!node) throw new Error(`no ${role} '${name}' on the page`);
  return node.bid!;
}
