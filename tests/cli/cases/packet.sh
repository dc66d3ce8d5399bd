# The packet model from the command line: `perf --model packet` prints the nccl-tests table, and a
# scenario with `model: packet` runs to completion and names the model in its preamble.

expect "perf packet model table" 0 "[[:space:]] +1048576 +262144 +float +sum +-1 .*# Out of bounds values : 0 OK[[:space:]]# Avg bus bandwidth +: [0-9.]+" -- perf all_reduce --cluster dgx-h100-2node -b 64K -e 1M -f 4 --model packet

write sc_packet_run.yaml <<'Y'
cluster: dgx-h100-2node
model: packet
jobs:
  - {name: a, servers: 0-1, calls: [{collective: all_reduce, size: 1M}]}
Y
expect "run packet model" 0 "# cluster dgx-h100-2node: 2 servers, 16 GPUs; model packet.*# makespan [0-9.]+ us.*a +0 +all_reduce +1.00 MiB" -- run "$tmp/sc_packet_run.yaml"

# The registries behind `packet: congestion_control` and `--model` list themselves, each entry
# with its citation; every command checks a model name the same way (validate included).
expect "list congestion-control" 0 "none .*dcqcn +DCQCN.*SIGCOMM 2015.*tcp +TCP NewReno.*RFC 5681.*ibcc +InfiniBand congestion control.*annex A10" -- list congestion-control
expect "list fidelity" 0 "analytical .*flow .*\(the default\).*packet +packets through egress queues" -- list fidelity
expect "validate unknown model" 2 "'--model': unknown model 'fluid'.*valid: analytical, flow, packet" -- validate --model fluid
