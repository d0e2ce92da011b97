/**
 * Several proposals per iteration (GEPA ≥ 0.1.4, src/gepa/strategies/proposal_sampling.py,
 * PxNSampling; the engine's AllImprovements selection): P parents are drawn one after another, and
 * for each parent N minibatches, one after another; each (parent, minibatch) gets its own reflective
 * proposal. Every child that passes the acceptance rule joins the pool (a child whose text repeats
 * an earlier accepted child of the same iteration is rejected as a duplicate). 1×1 is GEPA's
 * classic loop. Pure: no I/O.
 */

/** P parents × N mutations each; absent in a run's config = 1 × 1. */
export interface ProposalsConfig {
  parents: number;
  mutations: number;
}

export const MAX_PROPOSALS_PER_ITERATION = 64;

/** Proposals an iteration makes: P · N. */
export function proposalsPerIteration(config: ProposalsConfig | undefined): number {
  return (config?.parents ?? 1) * (config?.mutations ?? 1);
}

/**
 * Parse `--proposals`: "PxN" (P parents × N mutations) or "N" (= 1×N).
 * @throws RangeError naming the expected shape, for anything else or a product above 64
 */
export function parseProposals(text: string): ProposalsConfig {
  const m = /^\s*(?:(\d+)\s*[x×]\s*)?(\d+)\s*$/i.exec(text);
  const parents = m ? Number(m[1] ?? 1) : NaN;
  const mutations = m ? Number(m[2]) : NaN;
  if (!(parents >= 1 && mutations >= 1)) throw new RangeError(`--proposals must be PxN (parents × mutations, e.g. 2x3) or N (= 1xN), each at least 1; got "${text}"`);
  if (parents * mutations > MAX_PROPOSALS_PER_ITERATION) throw new RangeError(`--proposals ${text}: at most ${MAX_PROPOSALS_PER_ITERATION} proposals per iteration`);
  return { parents, mutations };
}

/** "2×3", for people. */
export function proposalsText(config: ProposalsConfig | undefined): string {
  return `${config?.parents ?? 1}×${config?.mutations ?? 1}`;
}

/**
 * The (parent, minibatch) pairs of one iteration, in draw order: P parent draws, each followed by
 * its N minibatch draws (at 1 × 1 one of each, as GEPA 0.1.0).
 * @param drawParent draws the next parent (from the run's RNG)
 * @param drawMinibatch draws the next minibatch (task ids)
 */
export function drawProposalSlots<P>(config: ProposalsConfig | undefined, drawParent: () => P, drawMinibatch: () => string[]): { parent: P; minibatch: string[] }[] {
  const slots: { parent: P; minibatch: string[] }[] = [];
  for (let p = 0; p < (config?.parents ?? 1); p++) {
    const parent = drawParent();
    for (let n = 0; n < (config?.mutations ?? 1); n++) slots.push({ parent, minibatch: drawMinibatch() });
  }
  return slots;
}
