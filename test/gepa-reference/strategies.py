"""Runs GEPA 0.1.4's own candidate selectors, acceptance criteria and stop conditions on cases
given as JSON on stdin, with scripted draws, and prints what each chose (JSON on stdout).
Used by test/gepa-strategies-parity.test.ts; GEPA is read from PYTHONPATH (the unpacked wheel)."""
import json
import math
import sys

from gepa.strategies.acceptance import ImprovementOrEqualAcceptance, StrictImprovementAcceptance
from gepa.strategies.candidate_selector import (
    CurrentBestCandidateSelector,
    EpsilonGreedyCandidateSelector,
    ParetoCandidateSelector,
    TopKParetoCandidateSelector,
)
from gepa.utils.stop_condition import NoImprovementStopper, ScoreThresholdStopper


class ScriptedRandom:
    """random.Random's three calls the selectors make, answered from a list of uniforms in [0, 1)."""

    def __init__(self, draws):
        self.draws = list(draws)

    def _u(self):
        return self.draws.pop(0)

    def random(self):
        return self._u()

    def randint(self, a, b):
        return a + math.floor(self._u() * (b - a + 1))

    def choice(self, seq):
        seq = list(seq)
        return seq[math.floor(self._u() * len(seq))]


class State:
    """The parts of GEPAState the selectors and stoppers read."""

    def __init__(self, scores, tasks):
        self.program_candidates = [{} for _ in scores]
        self.program_full_scores_val_set = [sum(row[t] for t in tasks) / len(tasks) for row in scores]
        self.per_program_tracked_scores = list(self.program_full_scores_val_set)
        self._fronts = {}
        for t in tasks:
            best = max(row[t] for row in scores)
            self._fronts[t] = {i for i, row in enumerate(scores) if row[t] == best}

    def get_pareto_front_mapping(self):
        return self._fronts


class Proposal:
    def __init__(self, before, after):
        self.subsample_scores_before = before
        self.subsample_scores_after = after


def selector(case, rng):
    kind = case["selection"]
    if kind == "pareto":
        return ParetoCandidateSelector(rng)
    if kind == "current_best":
        return CurrentBestCandidateSelector()
    if kind == "epsilon_greedy":
        return EpsilonGreedyCandidateSelector(case["epsilon"], rng)
    return TopKParetoCandidateSelector(case["k"], rng)


def main():
    cases = json.load(sys.stdin)
    out = {"selections": [], "acceptance": [], "stops": []}
    for case in cases["selections"]:
        rng = ScriptedRandom(case["draws"])
        state = State(case["scores"], case["tasks"])
        out["selections"].append(selector(case, rng).select_candidate_idx(state))
    for case in cases["acceptance"]:
        proposal = Proposal(case["before"], case["after"])
        out["acceptance"].append([StrictImprovementAcceptance().should_accept(proposal, None), ImprovementOrEqualAcceptance().should_accept(proposal, None)])
    for case in cases["stops"]:
        no_improvement = NoImprovementStopper(case["n"])
        threshold = ScoreThresholdStopper(case["threshold"])
        stopped = []
        for best in case["bests"]:
            state = type("S", (), {"program_full_scores_val_set": [best]})()
            stopped.append([no_improvement(state), threshold(state)])
        out["stops"].append(stopped)
    json.dump(out, sys.stdout)


main()
