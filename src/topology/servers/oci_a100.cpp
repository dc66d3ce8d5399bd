// Oracle Cloud BM.GPU4.8: 8 A100 SXM4 40GB on the HGX A100 board (NV12), 16 x 100 Gb/s RoCE
// (two ports per GPU, "1.6 Tb/s" per node), two AMD EPYC 7542 (32 cores, 2 threads each).
#include "topology/servers/boards.hpp"
#include "topology/servers/servers.hpp"

namespace gf {

ServerTemplate make_oci_a100() {
  ServerTemplate t;
  t.name = "oci-a100";
  t.description = "Oracle Cloud BM.GPU4.8: 8x A100 SXM4 40GB, 6x NVSwitch gen2 (NV12), 16x 100G RoCE";
  t.source = "Oracle Cloud GPU shapes documentation (BM.GPU4.8: 8x A100 40GB, 2x EPYC 7542, 16x 100 Gb/s RDMA); "
             "validation/measured/oci-bm-gpu4-8-a100-*.txt header; A100 datasheet (40GB SXM: 1,555 GB/s, 312 TFLOPS "
             "dense BF16); NUMA layout (NPS4, as DGX A100) and NIC placement: estimate";
  t.gpu = {"A100-SXM4-40GB", "ampere", Bandwidth::gBps(1555), 312, "NVIDIA A100 Tensor Core GPU datasheet (40GB SXM)"};
  t.default_fabric = "rail_optimized";
  TemplateBuilder b(t);
  // NUMA layout as DGX A100 (estimate), on 32-core EPYC 7542s: 8 cores per NUMA node.
  A100Board board = hgx_a100_board();
  board.cores_per_numa = 8;
  board.smt_offset = 64;
  board.nics_per_gpu = 2;
  board.nic_tech = "roce-100g";
  add_a100(b, board);
  return t;
}

}  // namespace gf
