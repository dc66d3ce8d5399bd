#!/usr/bin/env bash
# The DP > 1 rows of dp-rows.md (beside this file) as `gpufabric train` commands: predicted
# against measured, and the error. Nothing is fitted to these rows.
# Usage: validation/training/dp_rows.sh [GPUFABRIC] [FIDELITY] (default build/cli/gpufabric, analytical)
set -euo pipefail
bin=${1:-build/cli/gpufabric}
fid=${2:-analytical}
here=$(cd "$(dirname "$0")" && pwd)
printf '%-34s %10s %10s %8s\n' row predicted measured error
json() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["step_time_s"], d["mfu"])'; }
row() {  # name, measured kind (step|mfu), measured value, train arguments...
  local name=$1 kind=$2 meas=$3; shift 3
  read -r t mfu < <("$bin" train "$@" --model-fidelity "$fid" --format json | json)
  if [ "$kind" = step ]; then p=$t; else p=$(python3 -c "print(100*$mfu)"); fi
  python3 -c "p=$p; m=$meas; print('%-34s %10.2f %10.2f %+7.1f%%' % ('$name ($kind)', p, m, 100*(p-m)/m))"
}
# Megatron-Turing NLG 530B on Selene: TP 8, PP 35, DP 8/10/12, global batch 1920 (iteration seconds).
# Ours: micro-batch 1, full recompute, no interleaving, no sequence parallelism, ZeRO 1, unfused attention.
for r in "280 8 60.1" "350 10 50.2" "420 12 44.4"; do
  read -r nodes dp meas <<<"$r"
  row "mtnlg-530b ${nodes}x DGX A100 DP $dp" step "$meas" --cluster dgx-a100 --nodes "$nodes" \
    --model "$here/mtnlg-530b.yaml" --tp 8 --pp 35 --dp "$dp" --global-batch 1920 --micro-batch 1 --seq 2048 \
    --recompute full --no-sequence-parallel --zero 1 --attention unfused
done
# Llama 3 405B on Meta's RoCE cluster: TP 8, PP 16 with 7 / 8 x 14 / 7 layers per stage, BF16 MFU in
# percent. Ours: interleaved with 2 chunks per stage (the paper interleaves but does not give the
# number; 3 + 4 layers on the first stage, 4 + 3 on the last keep its 7 / 8 / 7), micro-batch 1,
# ZeRO 1, full recompute (without it our memory model needs 112 GiB per GPU).
l3=(--cluster meta-llama3-roce --model llama3-405b --tp 8 --pp 16 --vpp 2 --pp-first-layers 3 --pp-last-layers 3
    --micro-batch 1 --zero 1 --recompute full)
row "llama3-405b 8192 GPUs DP 64" mfu 43 "${l3[@]}" --nodes 1024 --dp 64 --global-batch 2048 --seq 8192
row "llama3-405b 16384 GPUs DP 128" mfu 41 "${l3[@]}" --nodes 2048 --dp 128 --global-batch 2048 --seq 8192
row "llama3-405b 16384 GPUs CP 16 DP 8" mfu 38 "${l3[@]}" --nodes 2048 --cp 16 --dp 8 --global-batch 128 --seq 131072
