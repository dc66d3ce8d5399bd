#!/usr/bin/env bash
# The Selene rows of ../shared/validation/training/selene-iteration-times.md (Korthikanti et al.
# 2022, Table 5) as `gpufabric train` commands: model, GPUs (DGX A100 servers), TP, PP, interleave,
# global batch, measured seconds for full recompute and for sequence parallel + selective recompute.
# Prints predicted vs measured and the error, beside Calculon's prediction and error on the same row
# (its own validation, `PYTHONPATH=. ./bin/calculon llm-validation` at calculon-ai/calculon caa4b11,
# table "End-to-end"). Usage: validation/training/selene.sh [GPUFABRIC] [FIDELITY]
# STEP=dag also runs each step as one DAG (`train --step dag`) and prints its step and error after
# the row, with the command's CPU seconds; TIMEOUT (seconds, default 1800) bounds each such run.
set -euo pipefail
bin=${1:-build/cli/gpufabric}
fid=${2:-flow}
step=${STEP:-composed}
printf '%-14s %-9s %10s %10s %8s %10s %8s\n' model mode predicted measured error calculon error
# Each row: ... measured full, seqsel; Calculon's predictions (s) full, seqsel, as it prints them
# (2 decimals), and its errors (%), as it prints them (from its unrounded predictions; its sign,
# 1 - calc / measured, turned to ours, calc / measured - 1).
rows=(
  "megatron-22b 1 8 1 1 4 4 1.42 1.10 1.40 1.14 -1.72 3.33"
  "gpt3-175b 8 8 8 3 64 1 18.13 13.75 18.03 13.64 -0.56 -0.81"
  "megatron-530b 35 8 35 3 280 1 49.05 37.83 49.89 34.47 1.72 -8.87"
  "megatron-1t 64 8 64 1 512 1 94.42 71.49 90.08 66.04 -4.60 -7.62"
)
for r in "${rows[@]}"; do
  read -r model nodes tp pp vpp gb mb full seqsel cfull cseqsel efull eseqsel <<<"$r"
  for mode in full seqsel; do
    if [ "$mode" = full ]; then extra=(--recompute full --no-sequence-parallel); meas=$full; calc=$cfull; cerr=$efull
    else extra=(--recompute selective --sequence-parallel); meas=$seqsel; calc=$cseqsel; cerr=$eseqsel; fi
    t=$("$bin" train --cluster dgx-a100 --nodes "$nodes" --model "$model" --tp "$tp" --pp "$pp" --vpp "$vpp" \
        --global-batch "$gb" --micro-batch "$mb" --seq 2048 --attention unfused --model-fidelity "$fid" "${extra[@]}" --format json |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["step_time_s"])')
    python3 -c "p=$t; m=$meas; c=$calc; print('%-14s %-9s %10.2f %10.2f %+7.1f%% %10.2f %+7.1f%%' % ('$model', '$mode', p, m, 100*(p-m)/m, c, $cerr))"
    if [ "$step" = dag ]; then
      "$(dirname "$0")/dag_row.sh" "$meas" "${TIMEOUT:-1800}" "$bin" train --cluster dgx-a100 --nodes "$nodes" \
        --model "$model" --tp "$tp" --pp "$pp" --vpp "$vpp" --global-batch "$gb" --micro-batch "$mb" --seq 2048 \
        --attention unfused --model-fidelity "$fid" "${extra[@]}" || true
    fi
  done
done
