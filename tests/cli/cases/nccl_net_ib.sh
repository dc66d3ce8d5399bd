# NCCL_NET=IB on NICs NCCL's IB transport cannot drive (docs/models.md, "The network transport";
# src/topology/net_ib_check.hpp): NCCL would stop with "Failed to initialize any NET plugin", so
# gpufabric refuses with exit 2 wherever the variable comes from. Sourced by run_cli_tests.sh.
ib_perf="perf all_reduce -b 1M -e 1M --model analytical"
# aws-p5: EFA, driven by aws-ofi-nccl ("Libfabric"), skipped by NCCL's IB plugin.
expect "NCCL_NET=IB on EFA (--env)" 2 "^gpufabric: error: --env: 'NCCL_NET': NCCL_NET=IB names NCCL's InfiniBand verbs transport, but NIC .*EFA.*Libfabric.*Failed to initialize any NET plugin.*hint: drop NCCL_NET" -- \
  $ib_perf --cluster aws-p5 --nodes 2 --env NCCL_NET=IB
NCCL_NET=ib expect "NCCL_NET=ib on EFA (environment)" 2 "^gpufabric: error: environment: 'NCCL_NET': .*EFA" -- \
  $ib_perf --cluster aws-p5 --nodes 2
# gcp-a3-mega: GPUDirect-TCPXO, Google's plugin.
expect "NCCL_NET=IB on TCPXO" 2 "'NCCL_NET': .*TCPX" -- $ib_perf --cluster gcp-a3-mega --nodes 2 --env NCCL_NET=IB
# Plain TCP Ethernet: the hint is NCCL's Socket transport.
write tcp.yaml <<'YAML'
servers: 2
server: {base: dgx-h100, nic_tech: eth-400g-tcp}
YAML
expect "NCCL_NET=IB on plain TCP" 2 "'NCCL_NET': .*plain TCP Ethernet without RDMA.*hint: use NCCL_NET=Socket" -- \
  $ib_perf --cluster "$tmp/tcp.yaml" --env NCCL_NET=IB
# InfiniBand runs, and says so on the # nccl: line.
expect "NCCL_NET=IB on InfiniBand runs" 0 "# nccl: NCCL_NET=IB" -- $ib_perf --cluster dgx-h100 --nodes 2 --env NCCL_NET=IB
# A scenario job's env: is refused at its line (file:line:key).
write efa-ib-job.yaml <<'YAML'
cluster: aws-p5
nodes: 2
model: analytical
jobs:
  - servers: 0-1
    env: {NCCL_NET: IB}
    calls: [{collective: all_reduce, size: 1M}]
YAML
expect "NCCL_NET=IB in a job's env: on EFA" 2 "efa-ib-job.yaml:6:[0-9]+: 'jobs\[0\].env': NCCL_NET=IB names .*EFA.*hint: drop NCCL_NET" -- \
  run "$tmp/efa-ib-job.yaml"
