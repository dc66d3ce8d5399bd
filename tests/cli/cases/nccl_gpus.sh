# GPUs chosen by index as nccl-tests users choose them: `perf --gpus LIST`, or CUDA_VISIBLE_DEVICES
# from the environment (docs/models.md). Sourced by run_cli_tests.sh.
# pcie-8gpu, 2 GPUs, 1 GiB ring/Simple all-reduce (busbw = algbw for 2 ranks):
#  - gpu0 and gpu1 share pcie0 (PIX, P2P under NCCL's default PXB): each direction one flow on the
#    GPUs' PCIe links, NCCL's Gen4 x16 24 GB/s (src/graph/topo.h PCI_BW);
#  - gpu0 and gpu4 sit on different sockets (SYS: SHM through host memory), so each direction
#    crosses the CPU socket link, NCCL's Skylake-class 10 GB/s (topo.h SKL_QPI_BW; the
#    upi-skylake link), which is the bottleneck: 10 GB/s.
# The first two GPUs (--gpus-per-node 2) are gpu0 and gpu1: 24 GB/s.
expect "--gpus 0,4 crosses the sockets" 0 "# note: GPUs 0,4 of each server \(--gpus\).*1073741824 .* (9\.[7-9][0-9]|10\.[0-2][0-9]) +0 +[0-9.]+ .* ring +Simple" -- \
  perf all_reduce --cluster pcie-8gpu -b 1G -e 1G --model analytical --algo ring --proto simple --gpus 0,4
CUDA_VISIBLE_DEVICES=0,4 expect "CUDA_VISIBLE_DEVICES 0,4" 0 "# note: GPUs 0,4 of each server \(CUDA_VISIBLE_DEVICES\).*1073741824 .* (9\.[7-9][0-9]|10\.[0-2][0-9]) +0 +[0-9.]+ .* ring +Simple" -- \
  perf all_reduce --cluster pcie-8gpu -b 1G -e 1G --model analytical --algo ring --proto simple
CUDA_VISIBLE_DEVICES=0,4 expect "--gpus wins over CUDA_VISIBLE_DEVICES" 0 "# note: GPUs 0,1 of each server \(--gpus\).*1073741824 .* (23\.[3-9][0-9]|24\.[0-7][0-9]) +0 +[0-9.]+ .* ring +Simple" -- \
  perf all_reduce --cluster pcie-8gpu -b 1G -e 1G --model analytical --algo ring --proto simple --gpus 0,1
expect "--gpus-per-node 2 is gpu0 and gpu1" 0 "1073741824 .* (23\.[3-9][0-9]|24\.[0-7][0-9]) +0 +[0-9.]+ .* ring +Simple" -- \
  perf all_reduce --cluster pcie-8gpu -b 1G -e 1G --model analytical --algo ring --proto simple --gpus-per-node 2
expect "--gpus: index the server lacks" 2 "'--gpus': GPU 9 does not exist: a server has 8 GPUs.*hint: use indices 0..7" -- \
  perf all_reduce --cluster pcie-8gpu -b 1M -e 1M --gpus 0,9
expect "--gpus: repeated index" 2 "'--gpus': GPU 0 is listed twice" -- perf all_reduce -b 1M -e 1M --gpus 0,0
expect "--gpus beside --gpus-per-node" 2 "'--gpus-per-node': is given beside --gpus" -- \
  perf all_reduce -b 1M -e 1M --gpus 0,1 --gpus-per-node 2
CUDA_VISIBLE_DEVICES=GPU-5fa0 expect "CUDA_VISIBLE_DEVICES UUID" 2 "'CUDA_VISIBLE_DEVICES': 'GPU-5fa0' in 'GPU-5fa0' is not a GPU index.*UUIDs are not read" -- \
  perf all_reduce -b 1M -e 1M
expect "--gpus with a --set grid" 2 "'--gpus': chooses GPUs for one sweep, not a grid of them" -- \
  perf all_reduce --cluster dgx-h100 --set servers=1,2 -b 1M -e 1M --gpus 0,1
