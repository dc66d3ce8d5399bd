#!/usr/bin/env bash
# The NeMo / Megatron-Bridge DGX H100 pre-training rows of nemo-h100.md (beside this file) as
# `gpufabric train` commands: tokens per second per GPU, predicted against measured. Held out:
# nothing is fitted to them. FP8 rows: they check `--dtype fp8`, which reuses the efficiency table
# fitted on BF16 A100 rows (docs/training.md).
# Usage: validation/training/nemo_rows.sh [GPUFABRIC] [FIDELITY] (default build/cli/gpufabric, analytical)
set -euo pipefail
bin=${1:-build/cli/gpufabric}
fid=${2:-analytical}
here=$(cd "$(dirname "$0")" && pwd)
printf '%-40s %10s %10s %8s\n' row predicted measured error
row() {  # name, measured tokens/s/GPU, train arguments...
  local name=$1 meas=$2; shift 2
  p=$("$bin" train "$@" --model-fidelity "$fid" --format json |
      python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["tokens_per_s"] / d["gpus"])')
  python3 -c "p=$p; m=$meas; print('%-40s %10.1f %10.1f %+7.1f%%' % ('$name', p, m, 100*(p-m)/m))"
}
# Settings every row shares, from the performance recipes (Megatron-Bridge scripts/performance):
# FP8 current scaling, micro-batch 1, 8,192-token sequences, DDP with the distributed optimizer
# (ZeRO 1), sequence parallelism, TP communication overlap (userbuffers) with DP and PP overlap,
# no recompute (none is set). DP = GPUs / (TP x PP x CP).
common=(--cluster dgx-h100 --micro-batch 1 --seq 8192 --dtype fp8 --recompute none --zero 1 --overlap dp,pp,tp)
# Llama 3 70B on 64 H100 (8 DGX H100): TP 4, PP 8, VP 5 (80 layers = 40 virtual stages of 2), DP 2.
# TP overlap as the recipes configure it (Megatron-Bridge training/comm_overlap.py, the H100 FP8
# userbuffers entries, transcribed beside this file): forward reduce-scatters by ring exchange.
l70=(--nodes 8 --model llama3-70b --tp 4 --pp 8 --vpp 5 --dp 2 --tp-comm-overlap-cfg "$here/ub-h100-fp8-h8192-tp4.yaml")
row "llama3-70b 64 GPUs GBS 128 (25.11)" 1602 "${common[@]}" "${l70[@]}" --global-batch 128
row "llama3-70b 64 GPUs GBS 256 (26.02)" 1621 "${common[@]}" "${l70[@]}" --global-batch 256
# Llama 3.1 405B on 1,024 H100 (128 DGX H100): TP 8, PP 8, CP 2, VP 8, DP 8. The recipe accounts
# for the embedding and the loss in the pipeline split: 126 layers + 2 = 128 slots over 64 virtual
# stages, so the first and last virtual stage hold one layer each.
l405=(--nodes 128 --model llama3-405b --tp 8 --pp 8 --vpp 8 --cp 2 --dp 8 --pp-first-layers 1 --pp-last-layers 1
      --tp-comm-overlap-cfg "$here/ub-h100-fp8-h16384-tp8-cp2.yaml")
row "llama3.1-405b 1024 GPUs GBS 512 (25.11)" 292 "${common[@]}" "${l405[@]}" --global-batch 512
row "llama3.1-405b 1024 GPUs GBS 1536 (26.02)" 311 "${common[@]}" "${l405[@]}" --global-batch 1536
