# Issue 18's catalog gaps and imported storage NICs. Sourced by run_cli_tests.sh: uses its
# expect/write helpers and $tmp.
expect "list new servers" 0 "hgx-h20.*h200-nvl.*hgx-b300.*gb300-nvl72.*a40-8gpu" -- list presets
expect "a40 bridge in topo" 0 "nvlink3-bridge +in-server +4" -- topo a40-8gpu
expect "gb300 rack" 0 "72 ranks = 1 server x 72 GPUs \(GB300\)" -- perf all_reduce --cluster gb300-nvl72 --nodes 18 -b 1M -e 1M
expect "unknown gpu shows a custom entry" 2 "gpu: \{model: MyGPU" -- train --model llama3-8b --gpu H10
smi="$(dirname "${BASH_SOURCE[0]}")/../../../../shared/validation/formats/nvidia-smi-topo"
[ -n "${GPUFABRIC_SHARED_DIR:-}" ] && smi="$GPUFABRIC_SHARED_DIR/validation/formats/nvidia-smi-topo"
if [ -d "$smi" ]; then
  expect "import partial dgx a100 says which NICs are unknown" 0 "NIC4, NIC5, NIC6, NIC7, NIC8, NIC9, NIC10, NIC11: far from every GPU" -- import nvidia-smi "$smi/dgx-a100-40gb-12nic-PARTIAL.txt"
fi
