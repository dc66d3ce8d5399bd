# NCCL's network-transport variables (docs/models.md, "The network transport"): NCCL_NET_GDR_LEVEL,
# NCCL_NET, NCCL_PXN_DISABLE, NCCL_CROSS_NIC from --env and the environment, said on a `# nccl:`
# line; values NCCL would not read are refused. Sourced by run_cli_tests.sh.
# GPU 0 of two pcie-8gpu servers (gpu0 and nic0 under one Gen4 switch, path PIX), 1 GiB
# ring/Simple, 2 ranks (busbw = algbw): GPUDirect gives the 200G RoCE port at 0.92, 25 x 0.92 =
# 23.0 GB/s; NCCL_NET_GDR_LEVEL=LOC sends and receives through cpu0, two flows each way on the
# switch's uplink at NCCL's 24 GB/s: 12.0; NCCL_NET=Socket stages too and runs the port at the TCP
# fraction 0.30: 7.5. Busbw is printed with two decimals; 3 % either side.
pair="perf all_reduce --cluster pcie-8gpu --nodes 2 --gpus-per-node 1 -b 1G -e 1G --algo ring --proto simple --model analytical"
expect "GDR: the NIC's rate" 0 "1073741824 .* (22\.[3-9][0-9]|23\.[0-6][0-9]) +0 .* ring +Simple" -- $pair
expect "GDR level LOC: staged through the CPU" 0 "# nccl: NCCL_NET_GDR_LEVEL=LOC.*network transport the NICs' own; 8 of 8 GPUs per server stage through host memory \(GPU to NIC path PIX > NCCL_NET_GDR_LEVEL LOC\).*1073741824 .* (11\.[6-9][0-9]|12\.[0-3][0-9]) +0 .* ring +Simple" -- \
  $pair --env NCCL_NET_GDR_LEVEL=LOC
NCCL_NET=Socket expect "sockets from the environment" 0 "# nccl: NCCL_NET=Socket.*network transport Socket \(TCP over the same NICs, NCCL_NET=Socket\); 8 of 8 GPUs .*1073741824 .* (7\.[2-6][0-9]|7\.7[0-2]) +0 .* ring +Simple" -- \
  $pair
expect "GDR level PXB keeps GPUDirect" 0 "0 of 8 GPUs per server stage through host memory \(GPU to NIC path PIX, GPUDirect RDMA up to PXB\)" -- \
  $pair --env NCCL_NET_GDR_LEVEL=PXB
expect "GDR level: nvidia-smi's NODE is no NCCL level" 2 "'NCCL_NET_GDR_LEVEL': 'NODE' is not a GDR level" -- \
  $pair --env NCCL_NET_GDR_LEVEL=NODE
expect "NCCL_NET: a plugin name is refused" 2 "'NCCL_NET': 'UCX' is not a network transport gpufabric models.*NCCL_NET=Socket" -- \
  $pair --env NCCL_NET=UCX
expect "PXN off is said" 0 "# nccl: NCCL_PXN_DISABLE=1.*PXN off: sends leave through the sender's own NIC" -- \
  perf alltoall --cluster dgx-h100 --nodes 2 -b 1M -e 1M --model analytical --env NCCL_PXN_DISABLE=1
expect "CROSS_NIC takes 0, 1 or 2" 2 "'NCCL_CROSS_NIC': '3' is not a valid value" -- \
  perf all_reduce --cluster dgx-h100 --nodes 2 -b 1M -e 1M --env NCCL_CROSS_NIC=3
# Four DGX H100 on a rail-optimized fabric of 12-port NDR leaves at 2:1 (the 4 NICs of a rail on
# one leaf, 2 uplinks used), 1 GiB ring/Simple, flow model. Channels start at every position in
# turn, so each NIC carries the same share of the server-to-server hops, and busbw is what one
# channel-set pushes through a server's 8 NICs: at most 8 x 50 x 0.92 = 368 GB/s (NVLink, 18 x 25
# x 0.824 = 370.8, is wider). Default: every hop stays on its rail's leaf: 357-368 (3 % below).
# NCCL_CROSS_NIC=1: every hop goes from one rail to the next through the spines; a leaf's 4 NICs
# share 2 uplinks of 46 GB/s, so at most half, 184; at worst ECMP puts all 4 on one uplink,
# 8 x 46 / 4 = 92: 89-184.
write rail.yaml <<'YAML'
servers: 4
server: dgx-h100
fabric: {kind: rail_optimized, switch_radix: 12, oversubscription: 2}
YAML
ring="perf all_reduce --cluster $tmp/rail.yaml -b 1G -e 1G --algo ring --proto simple --model flow"
expect "rings on their rails" 0 "1073741824 .* (35[7-9]|36[0-8])\.[0-9][0-9] +0 .* ring +Simple" -- $ring
expect "CROSS_NIC=1: rings change rails" 0 "rings may change rails between servers \(NCCL_CROSS_NIC=1\).*1073741824 .* (89|9[0-9]|1[0-7][0-9]|18[0-4])\.[0-9][0-9] +0 .* ring +Simple" -- \
  $ring --env NCCL_CROSS_NIC=1
