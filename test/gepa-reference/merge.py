"""Runs GEPA 0.1.4's own merge code (gepa/proposer/merge.py: the common-ancestor search with the
merged text choice, and the merged candidate's validation subsample) on cases given as JSON on
stdin, with scripted draws, and prints what it chose and how many draws it used (JSON on stdout).
Used by test/gepa-merge-parity.test.ts; GEPA is read from PYTHONPATH (the unpacked wheel).

The scripted generator answers sample/choices over the population sorted, so a draw does not
depend on Python's set iteration order (GEPA draws from sets); ours draws in creation order."""
import json
import math
import sys
from bisect import bisect
from itertools import accumulate

from gepa.proposer.merge import MergeProposer, sample_and_attempt_merge_programs_by_common_predictors


class ScriptedRandom:
    """The random.Random calls merge.py makes, answered from a list of uniforms in [0, 1)."""

    def __init__(self, draws):
        self.draws = list(draws)

    def random(self):
        return self.draws.pop(0)

    def choice(self, seq):
        seq = list(seq)
        return seq[math.floor(self.random() * len(seq))]

    def sample(self, population, k):
        left = sorted(population)
        if k > len(left):
            raise ValueError("Sample larger than population")
        return [left.pop(math.floor(self.random() * len(left))) for _ in range(k)]

    def choices(self, population, weights=None, k=1):
        pairs = sorted(zip(population, weights if weights is not None else [None] * len(population)), key=lambda p: p[0])
        items = [p[0] for p in pairs]
        if weights is None:
            return [items[math.floor(self.random() * len(items))] for _ in range(k)]
        cumulative = list(accumulate(p[1] for p in pairs))
        total = cumulative[-1]
        if total <= 0.0:
            raise ValueError("Total of weights must be greater than zero")
        return [items[bisect(cumulative, self.random() * total, 0, len(items) - 1)] for _ in range(k)]


def merge_case(case):
    rng = ScriptedRandom(case["draws"])
    programs = [{"strategy": s} for s in case["strategies"]]
    performed = ([tuple(t) for t in case["triplets"]], [])
    result = sample_and_attempt_merge_programs_by_common_predictors(
        agg_scores=case["scores"],
        rng=rng,
        merge_candidates=case["candidates"],
        merges_performed=performed,
        program_candidates=programs,
        parent_program_for_candidate=case["parents"],
    )
    out = {"drawsLeft": len(rng.draws), "descriptions": [[a, b, list(d)] for a, b, d in performed[1]]}
    if result is None:
        out["merge"] = None
    else:
        program, id1, id2, ancestor = result
        out["merge"] = {"strategy": program["strategy"], "id1": id1, "id2": id2, "ancestor": ancestor}
    return out


class Holder:
    """The one attribute select_eval_subsample_for_merged_program reads of its proposer."""

    def __init__(self, rng):
        self.rng = rng


def subsample_case(case):
    rng = ScriptedRandom(case["draws"])
    picked = MergeProposer.select_eval_subsample_for_merged_program(Holder(rng), case["scores1"], case["scores2"])
    return {"subsample": picked, "drawsLeft": len(rng.draws)}


def main():
    cases = json.load(sys.stdin)
    json.dump({"merges": [merge_case(c) for c in cases["merges"]], "subsamples": [subsample_case(c) for c in cases["subsamples"]]}, sys.stdout)


main()
