#!/usr/bin/env bash
# `train --search` on 16,384 GPUs (2,048 DGX H100) on the analytical network model, the issue's
# target being under a minute (issue 20): wall, user CPU and peak memory of each search, and the
# layout it found.
#
#   bench/train_search.sh [build/cli/gpufabric]
set -euo pipefail
bin=${1:-build/cli/gpufabric}
for model in llama3-405b llama3-70b; do
  out=$(mktemp)
  /usr/bin/time -f "%e s wall, %U s user, %M KB peak" -o "$out.time" "$bin" train --cluster dgx-h100 --nodes 2048 \
    --model "$model" --global-batch 2048 --seq 8192 --search --model-fidelity analytical >"$out"
  echo "$model: $(sed -n 2p "$out" | sed 's/^# //')"
  echo "  winner: $(grep '^# layout:' "$out" | sed 's/^# layout: //')"
  echo "  step $(grep '^step time' "$out" | awk '{print $3}') s; $(cat "$out.time")"
  rm -f "$out" "$out.time"
done
