// NVIDIA DGX A100: 8 A100 SXM4 on 6 NVSwitch gen2 (12 NVLink3 per GPU, 2 to each chip: NV12),
// 8 ConnectX-6 HDR 200 Gb/s compute ports, two AMD EPYC 7742 (64 cores, 2 threads each) in NPS4
// (4 NUMA nodes per socket, 16 cores each). GPU pairs sit under PCIe switch complexes on NUMA
// nodes 3, 1, 7, 5 with the core lists the real system prints (validation sample
// dgx-a100-40gb-12nic-PARTIAL.txt: GPU0/1 -> 48-63,176-191 NUMA 3, GPU2/3 -> 16-31,144-159 NUMA 1).
#include "topology/servers/boards.hpp"
#include "topology/servers/servers.hpp"

namespace gf {

ServerTemplate make_dgx_a100() {
  ServerTemplate t;
  t.name = "dgx-a100";
  t.description = "NVIDIA DGX A100: 8x A100 SXM4 80GB, 6x NVSwitch gen2 (NV12), 8x ConnectX-6 HDR 200G";
  t.source = "NVIDIA DGX A100 User Guide (network ports, NUMA layout) and system architecture white paper; "
             "A100 datasheet (80GB SXM: 2,039 GB/s, 312 TFLOPS dense BF16, NVLink 600 GB/s); "
             "nvidia-smi topo -m of a DGX A100 (NVIDIA/nccl issue #1505)";
  t.gpu = a100_sxm4_80gb();
  t.default_fabric = "rail_optimized";
  TemplateBuilder b(t);
  A100Board board = hgx_a100_board();
  // The compute ports are mlx5_0-3 and mlx5_6-9; mlx5_4/5 and mlx5_10/11 are the storage ports,
  // not part of the compute fabric and not modelled.
  board.nic_labels = {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_6", "mlx5_7", "mlx5_8", "mlx5_9"};
  add_a100(b, board);
  return t;
}

}  // namespace gf
