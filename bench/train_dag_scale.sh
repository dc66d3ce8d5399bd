#!/usr/bin/env bash
# `train --step dag` at 512, 1,024 and 4,096 GPUs: llama3-8b at TP 8 x PP 4 on DGX H100 servers,
# DP 16 / 32 / 128, 8 micro-batches per pipeline (global batch 8 x DP), 8K sequences, train's
# default overlap (dp,pp: the DP reduction in buckets beside the last backward passes). Prints the
# composed and DAG step times and the command's CPU time and peak RSS (GNU time).
# Usage: bench/train_dag_scale.sh [BIN] [analytical|flow] [TIMEOUT_S] [DP...]. Results: docs/performance.md.
set -u
bin=${1:-build/cli/gpufabric}
model=${2:-analytical}
limit=${3:-1800}
shift 3 2>/dev/null || shift $#
dps=${*:-16 32 128}
for dp in $dps; do
  nodes=$((4 * dp))  # TP 8 x PP 4 x DP on 8-GPU servers
  args=(--cluster dgx-h100 --nodes "$nodes" --model llama3-8b --tp 8 --pp 4 --dp "$dp" --global-batch $((8 * dp))
    --seq 8192 --model-fidelity "$model" --format json)
  for step in composed dag; do
    out=$(timeout "$limit" /usr/bin/time -f "TIME %U %S %M %e" "$bin" train "${args[@]}" --step "$step" 2>&1)
    rc=$?
    t=$(grep '^TIME' <<<"$out" | tail -1)
    read -r _ user sys rss wall <<<"$t"
    json=$(grep -v '^TIME' <<<"$out")
    fig=$(python3 -c 'import json,sys
try:
  d=json.loads(sys.stdin.read()); g=d.get("dag")
  print("%.6f" % d["step_time_s"], ("%.6f %.6f %+.3f%% nodes=%d" % (g["step_time_s"], g["contention_s"], 100*g["vs_composed"], g["nodes"])) if g else "")
except Exception as e: print("no-result")' <<<"$json")
    printf '%5d GPUs %-8s rc=%s cpu=%.1fs wall=%ss rss=%dMiB %s\n' $((32 * dp)) "$step" "$rc" \
      "$(python3 -c "print(${user:-0}+${sys:-0})")" "${wall:-?}" $(( ${rss:-0} / 1024 )) "$fig"
  done
done
