/**
 * The random-mutation proposer, a control (method.md, "Controls"): it inserts, drops or swaps
 * sentences drawn from a fixed corpus — the built-in library strategies — so it works from an
 * empty seed, with the same budget and acceptance as the LLM proposer. Tells search apart from
 * the proposer's own prompt-writing skill.
 */
import { BUILT_IN_META_PROMPTS } from '../../agents/meta-prompt-library.ts';
import type { SeededRng } from '../../ttl/rng.ts';

/** Every sentence of the built-in strategies, in library order. */
export const MUTATION_CORPUS: readonly string[] = BUILT_IN_META_PROMPTS.flatMap((m) => splitSentences(m.strategy));

export function splitSentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+/).map((s) => s.trim()).filter(Boolean);
}

export type MutationKind = 'insert' | 'drop' | 'swap';

/** One random edit of `strategy`; an empty strategy can only grow. */
export function mutateStrategy(strategy: string, rng: SeededRng, corpus: readonly string[] = MUTATION_CORPUS): { strategy: string; kind: MutationKind } {
  const sentences = splitSentences(strategy);
  const kinds: MutationKind[] = sentences.length === 0 ? ['insert'] : sentences.length === 1 ? ['insert', 'swap'] : ['insert', 'drop', 'swap'];
  const kind = rng.pick(kinds);
  if (kind === 'insert') {
    const candidates = corpus.filter((s) => !sentences.includes(s));
    sentences.splice(rng.int(sentences.length + 1), 0, rng.pick(candidates.length ? candidates : corpus));
  } else if (kind === 'drop') {
    sentences.splice(rng.int(sentences.length), 1);
  } else {
    const replacement = corpus.filter((s) => !sentences.includes(s));
    sentences[rng.int(sentences.length)] = rng.pick(replacement.length ? replacement : corpus);
  }
  return { strategy: sentences.join(' '), kind };
}
