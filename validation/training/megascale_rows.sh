#!/usr/bin/env bash
# The Megatron-LM rows of MegaScale (Jiang et al., NSDI'24, arXiv 2402.15627), megascale.md beside
# this file, as `gpufabric train` commands: predicted against measured, and the error. Held out:
# nothing is fitted to them (the efficiency table stays fitted to the two Selene 22B rows).
# Usage: validation/training/megascale_rows.sh [GPUFABRIC] [FIDELITY] (default build/cli/gpufabric, analytical)
set -euo pipefail
bin=${1:-build/cli/gpufabric}
fid=${2:-analytical}
here=$(cd "$(dirname "$0")" && pwd)
printf '%-40s %10s %10s %8s\n' row predicted measured error
json() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["step_time_s"], d["mfu"])'; }
row() {  # name, measured kind (step|mfu), measured value, train arguments...
  local name=$1 kind=$2 meas=$3; shift 3
  read -r t mfu < <("$bin" train "$@" --model-fidelity "$fid" --format json | json)
  if [ "$kind" = step ]; then p=$t; else p=$(python3 -c "print(100*$mfu)"); fi
  python3 -c "p=$p; m=$meas; print('%-40s %10.2f %10.2f %+7.1f%%' % ('$name ($kind)', p, m, 100*(p-m)/m))"
}
# Stated in the paper: Megatron-LM (commit 285068c8) as the baseline, on 8-GPU Ampere servers with
# eight 200 Gb/s NICs each, rail-connected to a three-tier 1:1 Clos (section 3.6); TP 8 and PP 8
# (175B) or PP 35 (530B) (Table 1); the interleaved schedule with 6 (175B) and 3 (530B) chunks per
# stage, sequences of 2,048, vocabulary 64,000 (section 6.1); ZeRO 2 style sharding of gradients and
# optimizer states (section 2, Figure 1; Megatron's distributed optimizer, our --zero 1/2 timing);
# MegaScale's own DP, PP and TP overlap are what it adds over this baseline (Table 3), so the
# baseline runs with none (--overlap none: PP sends and receives paired and blocking, which section
# 3.2 says MegaScale decouples). Set by us, not stated: A100 80 GB (dgx-a100; the MFU figures
# match the A100's 312 TFLOP/s with Megatron's FLOP formula), micro-batch 1, sequence parallelism
# with selective recompute, flash attention (MegaScale moves to FlashAttention-2 as an "efficient
# operator", section 3.3), Megatron's rank order (TP, DP, PP: "we choose to prioritize building the
# data parallelism groups over pipeline parallelism", section 2).
common=(--cluster dgx-a100 --tp 8 --micro-batch 1 --seq 2048 --recompute selective --sequence-parallel
        --zero 1 --overlap none)
# Table 2: 175B, strong scaling; iteration seconds. Batch 768 on 256-1024 GPUs, 6144 on 3072-12288.
for r in "256 768 40.0" "512 768 21.2" "768 768 15.2" "1024 768 11.9" \
         "3072 6144 29.02" "6144 6144 14.78" "8192 6144 12.24" "12288 6144 8.57"; do
  read -r gpus gb meas <<<"$r"
  row "megascale-175b Megatron-LM ${gpus} GPUs" step "$meas" "${common[@]}" --model "$here/megascale-175b.yaml" \
    --nodes $((gpus / 8)) --pp 8 --vpp 6 --dp $((gpus / 64)) --global-batch "$gb"
done
# Figure 9: 530B, weak scaling (batch = GPUs); MFU in percent, read from the bar labels.
for r in "2240 49.2" "4480 48.8" "11200 48.2"; do
  read -r gpus meas <<<"$r"
  row "megascale-530b Megatron-LM ${gpus} GPUs" mfu "$meas" "${common[@]}" --model "$here/megascale-530b.yaml" \
    --nodes $((gpus / 8)) --pp 35 --vpp 3 --dp $((gpus / 280)) --global-batch "$gpus"
done
