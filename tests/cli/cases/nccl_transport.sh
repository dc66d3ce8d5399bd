# Transports inside a server (docs/models.md, "Transports inside a server"): NCCL_P2P_DISABLE /
# NCCL_P2P_LEVEL / NCCL_SHM_DISABLE from --env, the environment and a scenario job's env:, and a
# server's `p2p: false`; values NCCL would not read are refused. Sourced by run_cli_tests.sh.
# pcie-8gpu has 8 GPUs, so 8 x 7 / 2 = 28 pairs: 4 under one PCIe switch (PIX: gpu0-1, 2-3, 4-5,
# 6-7), 8 across the two switches of a socket (PHB), 16 across the sockets (SYS).
expect "P2P off by --env: every pair through host memory" 0 "# nccl: transport in a server: GPU pairs 28 SHM through host memory; P2P off" -- \
  perf all_reduce --cluster pcie-8gpu -b 1M -e 1M --model analytical --env NCCL_P2P_DISABLE=1
NCCL_P2P_DISABLE=1 expect "P2P off from the environment" 0 "# nccl: NCCL_P2P_DISABLE=1.*transport in a server: GPU pairs 28 SHM" -- \
  perf all_reduce --cluster pcie-8gpu -b 1M -e 1M --model analytical
expect "NCCL's default level PXB: P2P under a switch only" 0 "# nccl: transport in a server: GPU pairs 4 P2P, 24 SHM through host memory; P2P up to PXB \(NCCL's default\)" -- \
  perf all_reduce --cluster pcie-8gpu -b 1M -e 1M --model analytical
expect "P2P level PHB adds the pairs of a socket" 0 "GPU pairs 12 P2P, 16 SHM through host memory; P2P up to PHB \(NCCL_P2P_LEVEL\)" -- \
  perf all_reduce --cluster pcie-8gpu -b 1M -e 1M --model analytical --env NCCL_P2P_LEVEL=PHB
expect "P2P and SHM off: through the NICs" 0 "GPU pairs 28 NET through the NICs; P2P off .*; SHM off" -- \
  perf all_reduce --cluster pcie-8gpu --nodes 2 -b 1M -e 1M --model analytical --env NCCL_P2P_DISABLE=1 --env NCCL_SHM_DISABLE=1
# One server has no network between its 4 NICs: of the 56 ordered pairs, the 8 that share a NIC
# (gpu0-1, 2-3, 4-5, 6-7, both ways) loop back inside it; the other 48 cannot be NET.
expect "NET across NICs needs a network" 2 "48 GPU pairs of this server would use NCCL's NET transport.*--nodes 2 or more" -- \
  perf all_reduce --cluster pcie-8gpu -b 1M -e 1M --model analytical --env NCCL_P2P_DISABLE=1 --env NCCL_SHM_DISABLE=1
expect "P2P level: nvidia-smi's NODE is no NCCL level" 2 "'NCCL_P2P_LEVEL': 'NODE' is not a P2P level.*LOC, NVL, PIX, PXB, PHB or SYS" -- \
  perf all_reduce --cluster pcie-8gpu -b 1M -e 1M --env NCCL_P2P_LEVEL=NODE
expect "P2P disable takes 0 or 1" 2 "'NCCL_P2P_DISABLE': 'yes' is not a valid value" -- \
  perf all_reduce --cluster pcie-8gpu -b 1M -e 1M --env NCCL_P2P_DISABLE=yes
expect "SHM disable takes 0 or 1" 2 "'NCCL_SHM_DISABLE': '2' is not a valid value" -- \
  perf all_reduce --cluster pcie-8gpu -b 1M -e 1M --env NCCL_SHM_DISABLE=2
# A server without peer access.
write nop2p.yaml <<'YAML'
servers: 1
server: {base: pcie-8gpu, p2p: false}
YAML
expect "p2p: false in a cluster file" 0 "GPU pairs 28 SHM through host memory; the server's GPUs have no P2P \(.p2p: false.\)" -- \
  perf all_reduce --cluster "$tmp/nop2p.yaml" -b 1M -e 1M --model analytical
write badp2p.yaml <<'YAML'
servers: 1
server: {base: pcie-8gpu, p2p: maybe}
YAML
expect "p2p: not a boolean" 2 "badp2p.yaml:2.*'server.p2p'.*expected true or false" -- topo "$tmp/badp2p.yaml"
# A scenario job's env: takes the same variables, job by job (tests/nccl_scenario_env_test.cpp
# derives the same figures). Ring all-reduce on GPUs 0-3 of socket 0 (gpu0, gpu1 under pcie0;
# gpu2, gpu3 under pcie1), 1 GiB, ring/Simple: P2P up to SYS keeps one flow a direction on every
# PCIe link, so busbw is NCCL's Gen4 x16 24 GB/s (src/graph/topo.h PCI_BW); P2P off sends every
# step up to cpu0, two flows a direction on pcie0's uplink: 12 GB/s. Busbw is printed with two
# decimals; 3 % either side.
write env-shm.yaml <<'YAML'
cluster: pcie-8gpu
model: analytical
jobs:
  - {name: shm, servers: 0, gpus_per_server: 4, env: {NCCL_P2P_DISABLE: 1}, calls: [{collective: all_reduce, size: 1G, algo: ring, proto: simple}]}
YAML
expect "scenario env: P2P off halves the ring" 0 "shm +0 +all_reduce +1.00 GiB .* (11\.[7-9][0-9]|12\.[0-3][0-9]) +ring/Simple" -- \
  run "$tmp/env-shm.yaml"
write env-p2p.yaml <<'YAML'
cluster: pcie-8gpu
model: analytical
jobs:
  - {name: p2p, servers: 0, gpus_per_server: 4, env: {NCCL_P2P_LEVEL: SYS}, calls: [{collective: all_reduce, size: 1G, algo: ring, proto: simple}]}
YAML
expect "scenario env: P2P up to SYS" 0 "p2p +0 +all_reduce +1.00 GiB .* (23\.[3-9][0-9]|24\.[0-7][0-9]) +ring/Simple" -- \
  run "$tmp/env-p2p.yaml"
# P2P and SHM off on one server: refused at the job's env:, as perf refuses it (the run went round
# through the CPUs before).
write env-net.yaml <<'YAML'
cluster: pcie-8gpu
model: analytical
jobs:
  - servers: 0
    env: {NCCL_P2P_DISABLE: 1, NCCL_SHM_DISABLE: 1}
    calls: [{collective: all_reduce, size: 1M}]
YAML
expect "scenario env: NET needs a network" 2 "env-net.yaml:5:.*'jobs\[0\].env'.*NCCL's NET transport.*nodes: 2" -- \
  run "$tmp/env-net.yaml"
