#!/usr/bin/env bash
# Records the replay files shipped in public/replays/ with the project's own tooling: the
# deterministic mock provider (test/mock-llm, model id "scripted-test-model") and `metattl
# session --out`. The page's replay view labels them with that model name. Re-run after changing
# the games, the prompts or the session format:  bash scripts/record-replays.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mock_log=$(mktemp)
node --import tsx test/mock-llm/cli.ts --models scripted-test-model \
  --explore "pull red lever,pull green lever,pull blue lever,pull yellow lever,look,north" >"$mock_log" 2>/dev/null &
mock_pid=$!
trap 'kill $mock_pid 2>/dev/null || true; rm -f "$mock_log"' EXIT
for _ in $(seq 1 100); do [ -s "$mock_log" ] && break; sleep 0.1; done
base_url=$(head -n 1 "$mock_log")
OPENAI_API_KEY=unused npx metattl session lever-room --seed 1 --policy naive --episodes 5 --steps 10 \
  --guide 'Explore.' --base-url "$base_url" --actor-model scripted-test-model --meta-model scripted-test-model \
  --out public/replays/lever-room-naive.json --json >/dev/null
echo "wrote public/replays/lever-room-naive.json"
# A real small model, run in this process by node-llama-cpp (docs/local-models.md, "A local model in the CLI"):
# SmolLM2-135M-Instruct from $METATTL_MODELS_DIR (default ~/.cache/metattl-models; .ci/run puts it there).
model="${METATTL_MODELS_DIR:-$HOME/.cache/metattl-models}/SmolLM2-135M-Instruct.Q4_1.gguf"
npx metattl session lever-room --seed 1 --policy naive --episodes 3 --steps 10 --provider local --model-file "$model" \
  --out public/replays/lever-room-smollm2.json --json >/dev/null
echo "wrote public/replays/lever-room-smollm2.json"
