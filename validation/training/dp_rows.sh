#!/usr/bin/env bash
# The DP > 1 rows of dp-rows.md (beside this file) as `gpufabric train` commands: predicted
# against measured, and the error. Nothing is fitted to these rows.
# Usage: validation/training/dp_rows.sh [GPUFABRIC] [FIDELITY] (default build/cli/gpufabric, analytical)
# STEP=dag also runs each step as one DAG (`train --step dag`, dag_row.sh), TIMEOUT seconds each.
set -euo pipefail
bin=${1:-build/cli/gpufabric}
fid=${2:-analytical}
step=${STEP:-composed}
here=$(cd "$(dirname "$0")" && pwd)
printf '%-34s %10s %10s %8s\n' row predicted measured error
json() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["step_time_s"], d["mfu"])'; }
row() {  # name, measured kind (step|mfu), measured value, train arguments...
  local name=$1 kind=$2 meas=$3; shift 3
  read -r t mfu < <("$bin" train "$@" --model-fidelity "$fid" --format json | json)
  if [ "$kind" = step ]; then p=$t; else p=$(python3 -c "print(100*$mfu)"); fi
  python3 -c "p=$p; m=$meas; print('%-34s %10.2f %10.2f %+7.1f%%' % ('$name ($kind)', p, m, 100*(p-m)/m))"
  if [ "$step" = dag ]; then
    "$here/dag_row.sh" "$meas" "${TIMEOUT:-1800}" "$bin" train "$@" --model-fidelity "$fid" --kind "$kind" || true
  fi
}
# Megatron-Turing NLG 530B on Selene: TP 8, PP 35, DP 8/10/12, global batch 1920 (iteration seconds).
# From the paper (Smith et al. 2022, arXiv 2201.11990): micro-batch 1 and every transformer block's
# activations checkpointed (section 2.1: the layer-boundary activations of the batch are "16.9
# terabytes", = 2 B x s h x 1920 x 105 layers, and "8.8 gigabytes" for one micro-batch of 1 sequence:
# full recompute at micro-batch 1); DeepSpeed's pipeline engine, 1F1B without interleaving; ZeRO 1,
# the most DeepSpeed's pipeline engine allows (deepspeed/runtime/pipe/engine.py asserts "ZeRO-2 and
# ZeRO-3 are incompatible with pipeline parallelism"). Ours, not in the paper: no sequence
# parallelism (it postdates the run), unfused softmax attention (no flash attention in 2021).
# Nothing overlapped (--overlap none): DeepSpeed's pipeline sends and receives are blocking and
# paired (deepspeed/runtime/pipe/schedule.py: "The communication is blocking and must be paired";
# p2p.py's send asserts async_op == False), each on the stage's own stream between its passes; and
# its TrainSchedule reduces the gradients only after the batch's last step (ReduceTiedGrads,
# ReduceGrads, OptimizerStep appended at step_id == total_steps - 1), not during the backward. bf16 on 80 GB A100s, 8 HDR 200 Gb/s NICs per server (the paper, section 2.3).
for r in "280 8 60.1" "350 10 50.2" "420 12 44.4"; do
  read -r nodes dp meas <<<"$r"
  row "mtnlg-530b ${nodes}x DGX A100 DP $dp" step "$meas" --cluster dgx-a100 --nodes "$nodes" \
    --model "$here/mtnlg-530b.yaml" --tp 8 --pp 35 --dp "$dp" --global-batch 1920 --micro-batch 1 --seq 2048 \
    --recompute full --no-sequence-parallel --zero 1 --attention unfused --overlap none
done
# Llama 3 405B on Meta's RoCE cluster (Llama 3 paper, arXiv 2407.21783, section 3.3.2 and Table 4),
# BF16 MFU in percent. From the paper: TP 8, PP 16, interleaved; one layer fewer on the first and
# last stage so that "the first model chunk on the first stage has only the embedding, and the last
# model chunk on the last stage has only output projection and loss": 126 layers + 2 such chunks =
# 128 = 16 stages x 8 chunks of one layer, hence VPP 8 with empty end chunks (--pp-first-layers 0
# --pp-last-layers 0); FSDP sharding "optimizer states and gradients" but not resharding the weights
# after the forward = ZeRO 2; 8K sequences "without activation checkpointing" = --recompute none.
# Ours: micro-batch 1 (batch per DP 32 and 16 sequences are then the micro-batches per pipeline).
l3=(--cluster meta-llama3-roce --model llama3-405b --tp 8 --pp 16 --vpp 8 --pp-first-layers 0 --pp-last-layers 0
    --micro-batch 1 --zero 2)
row "llama3-405b 8192 GPUs DP 64" mfu 43 "${l3[@]}" --recompute none --nodes 1024 --dp 64 --global-batch 2048 --seq 8192
row "llama3-405b 16384 GPUs DP 128" mfu 41 "${l3[@]}" --recompute none --nodes 2048 --dp 128 --global-batch 2048 --seq 8192
# 131K with CP 16: each rank holds 131,072 / 16 = 8,192 tokens, as in the 8K rows; recompute is not
# stated for this stage, and none fits our memory model (77 GiB). Table 4 prints DP 4 here, which
# gives 8,192 GPUs and 8M tokens per batch; DP 8 gives the row's 16,384 GPUs and 16M tokens.
# CP by all-gather (section 3.3.2: "we adopt an all-gather based method where we first all-gather
# the key (K) and value (V) tensors, and then compute attention output"), not Megatron's ring.
row "llama3-405b 16384 GPUs CP 16 DP 8" mfu 38 "${l3[@]}" --recompute none --nodes 2048 --cp 16 --dp 8 \
  --global-batch 128 --seq 131072 --cp-comm all-gather
