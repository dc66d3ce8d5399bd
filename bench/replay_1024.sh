#!/usr/bin/env bash
# Replay speed at 1,024 ranks (issue 24: "replaying a 1,024-rank trace in under a minute"): train
# writes one step of llama3-8b at TP 8 x PP 4 x DP 32 on 128 DGX H100 as a Chakra trace (1,024
# .et files, 817,152 nodes), then replay runs it on the same cluster, timed.
# Usage: bench/replay_1024.sh [BIN] [analytical|flow]. Results: docs/performance.md.
set -eu
bin=${1:-build/cli/gpufabric}
model=${2:-analytical}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
args=(--cluster dgx-h100 --nodes 128 --model llama3-8b --tp 8 --pp 4 --dp 32 --global-batch 256 --seq 8192
  --overlap pp --model-fidelity "$model")
/usr/bin/time -f "train + emit: %e s wall, %U s user, %M KB" "$bin" train "${args[@]}" --emit-chakra "$dir/t" | grep "step time"
du -sh "$dir/t" | sed 's/^/trace size: /'
/usr/bin/time -f "replay: %e s wall, %U s user, %M KB" "$bin" replay "$dir/t" --cluster dgx-h100 --nodes 128 --model "$model" |
  grep -E "^# replay|iteration|collective \("
