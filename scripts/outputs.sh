#!/usr/bin/env bash
# outputs.sh BIN OUTDIR: writes what a set of commands prints (the README sweep, perf/topo/run/doctor
# cases across algorithms, models and scales, and `validate`) into OUTDIR, one file each. A
# refactor that must not change simulated results runs it with the binary before and after and
# compares: `diff -r before/ after/` (validate alone takes minutes).
set -u
bin=$(realpath "$1"); out=$(realpath -m "$2"); mkdir -p "$out"
cd "$(dirname "$0")/.."
"$bin" perf all_reduce -b 8 -e 8G -f 2 > "$out/perf_main.txt" 2>&1
"$bin" list algorithms > "$out/list_algorithms.txt" 2>&1
i=0
while read -r line; do
  i=$((i+1))
  # shellcheck disable=SC2086
  "$bin" $line > "$out/case_$i.txt" 2>&1; echo "exit $?" >> "$out/case_$i.txt"
done <<'CASES'
perf all_reduce --cluster dgx-h100-superpod-su -b 1M -e 1G -f 8
perf all_reduce --cluster dgx-h100 --nodes 128 -b 64K -e 1G -f 16
perf reduce_scatter --cluster dgx-h100 --nodes 64 -b 1M -e 1G -f 32
perf all_gather --cluster gb200-nvl72-cluster --nodes 16 -b 1M -e 1G -f 32
perf all_reduce --cluster gb200-nvl72-cluster --nodes 36 -b 1G -e 1G
perf alltoall --cluster dgx-h100 --nodes 4 -b 1M -e 64M -f 8
perf broadcast --cluster dgx-h100 --nodes 2 -b 1M -e 64M -f 8
perf all_reduce --cluster pcie-8gpu -b 8 -e 1G -f 8
perf all_reduce --cluster dgx-h100 --nodes 2 --algo tree --proto ll -b 1M -e 16M -f 2
perf all_reduce --cluster dgx-h100 --nodes 4 --algo rhd -b 1M -e 16M -f 4
perf all_reduce --cluster dgx-h100 --nodes 4 --algo hierarchical -b 1M -e 16M -f 4
perf all_gather --cluster dgx-h100 --nodes 8 --gpus-per-node 1 -b 1M -e 16M -f 4
perf all_reduce --cluster dgx-h100 --nodes 2 --model analytical -b 8 -e 1G -f 4
perf sendrecv --cluster dgx-h100 --nodes 2 -b 1M -e 64M -f 8
perf all_reduce -b 1M -e 4M -f 2 --model packet
topo dgx-h100-2node --nccl-graph
topo dgx-h100 --nodes 4 --nccl-graph --format json
run examples/two-jobs-oversubscribed.yaml
run examples/superpod-su.yaml
doctor examples/leafspine-4to1.yaml
CASES
"$bin" validate > "$out/validate.txt" 2>&1; echo "exit $?" >> "$out/validate.txt"
