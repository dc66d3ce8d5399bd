# topo --nccl-graph: the rings and trees NCCL would build, in its NCCL_DEBUG=INFO line formats.
# 2 DGX H100 (16 ranks): channel 0's ring walks server 0 forward from GPU 0 and server 1 back from
# GPU 7 (Communicator::ring), so rank 0 sits between 8 and 1; the tuner gives 16 channels.
expect "nccl-graph channel 0" 0 "Channel 00/16 :    0   1   2   3   4   5   6   7  15  14  13  12  11  10   9   8" -- \
  topo dgx-h100-2node --nccl-graph
expect "nccl-graph ring line" 0 "Ring 00 : 8 -> 0 -> 1" -- topo dgx-h100-2node --nccl-graph
# Block B of the excerpts prints "NVLS Head  0:  0  8" on the same 2 x 8 H100 layout.
expect "nccl-graph nvls head" 0 "NVLS Head  0:  0  8" -- topo dgx-h100-2node --nccl-graph
# Rank 3 alone: its own Trees line (channel 0's chain is 0..7, so 2 above it and 4 below).
expect "nccl-graph one rank" 0 "Trees \[0\] 4/-1/-1->3->2 " -- topo dgx-h100-2node --nccl-graph --rank 3
expect "nccl-graph one rank json" 0 '"rank": 3' -- topo dgx-h100-2node --nccl-graph --rank 3 --format json
expect "nccl-graph json" 0 '"channels": 16' -- topo dgx-h100-2node --nccl-graph --format json
# --fabric / --fabric-link reach the cluster: 4 servers on a leaf-spine.
expect "nccl-graph fabric override" 0 "32 ranks, 4 nodes x 8 local ranks" -- \
  topo dgx-h100 --nodes 4 --fabric leaf_spine --fabric-link ib-ndr --nccl-graph
expect "nccl-graph bad fabric" 2 "unknown fabric kind 'bogus'.*did you mean" -- topo dgx-h100 --nodes 2 --fabric bogus --nccl-graph
expect "nccl-graph rank out of range" 2 "'--rank': rank 16 does not exist.*--rank 0..15" -- topo dgx-h100-2node --nccl-graph --rank 16
expect "nccl-graph rank without flag" 2 "'--rank'.*add --nccl-graph" -- topo dgx-h100-2node --rank 3
expect "nccl-graph yaml" 2 "'--format': --nccl-graph prints text or json" -- topo dgx-h100-2node --nccl-graph --format yaml
# An imported server as the cluster: the HGX H100 sample's 8 GPUs on 2 servers are 16 ranks.
nccl_smi="${GPUFABRIC_SHARED_DIR:-$(dirname "${BASH_SOURCE[0]}")/../../../../shared}/validation/formats/nvidia-smi-topo"
if [ -f "$nccl_smi/hgx-h100-nv18-6nic-PARTIAL.txt" ]; then
  expect "nccl-graph imported server" 0 "16 ranks, 2 nodes x 8 local ranks.*Trees \[0\] " -- \
    topo "$nccl_smi/hgx-h100-nv18-6nic-PARTIAL.txt" --nodes 2 --fabric rail_optimized --nccl-graph --rank 0
else
  echo "SKIP nccl-graph imported server: no shared data at $nccl_smi (set GPUFABRIC_SHARED_DIR)"
fi
