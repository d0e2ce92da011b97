#!/usr/bin/env bash
# Records the Learn sessions shipped in public/replays/ with the project's own CLI (`metattl
# session --out`) and `--provider simulated`: the in-process simulated model (src/llm/simulated-model.ts;
# deterministic, no server, no key; its model is named "simulated" in every file, and the page's
# Replay view labels it "simulated model — not a language model; …"). Both carry the location of
# every step, so Replay draws their map. Re-run after changing the games, the prompts, the
# simulated rules or the session format, then update `recordedOn` in src/ui/shared/replay/shipped-replays.ts:
#   bash scripts/record-replays.sh            # the simulated sessions (about two seconds)
#   bash scripts/record-replays.sh --smollm2  # also the real small model's session (about 6 minutes on 2 busy cores)
# The Lever Room file keeps its name (links to `?view=replay&replay=lever-room-naive` stay valid).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${METATTL_REPLAYS_DIR:-public/replays}"
# The Lever Room (one room; the order of four levers): credit assignment keeps the moves that
# scored, in order, so the actor wins from episode 4.
npx metattl session lever-room --seed 1 --policy credit-assignment --episodes 6 --steps 12 \
  --guide 'Explore.' --provider simulated --out "$out/lever-room-naive.json" --json >/dev/null
echo "wrote $out/lever-room-naive.json"
# The Vault (three rooms: Lobby, Vault Door, Vault): the map grows from two rooms to three as the
# actor learns the route in episode 2.
npx metattl session vault --seed 1 --policy credit-assignment --episodes 4 --steps 12 \
  --guide 'Explore.' --provider simulated --out "$out/vault-credit-assignment.json" --json >/dev/null
echo "wrote $out/vault-credit-assignment.json"
[ "${1:-}" = "--smollm2" ] || exit 0
# A real small model, run in this process by node-llama-cpp (docs/local-models.md, "A local model in the CLI"):
# SmolLM2-135M-Instruct from $METATTL_MODELS_DIR (default ~/.cache/metattl-models; .ci/run puts it there).
model="${METATTL_MODELS_DIR:-$HOME/.cache/metattl-models}/SmolLM2-135M-Instruct.Q4_1.gguf"
npx metattl session lever-room --seed 1 --policy naive --episodes 3 --steps 10 --provider local --model-file "$model" \
  --out "$out/lever-room-smollm2.json" --json >/dev/null
echo "wrote $out/lever-room-smollm2.json"
