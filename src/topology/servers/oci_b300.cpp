// Oracle Cloud BM.GPU.B300.8: 8 B300 (Blackwell Ultra) on the HGX B300 board (2 NVSwitch chips,
// NVLink5: 18 links per GPU, 1.8 TB/s bidirectional), 16 x 400 Gb/s RoCE (each GPU's ConnectX-8
// SuperNIC split into 2 x 400G: "8 x 2 x 400 Gb/s = 6.4 Tb/s"), two Xeon Platinum 8592+ (64
// cores, 2 threads each). The ConnectX-8 carries its own PCIe Gen6 switch, which joins its GPU,
// its two ports and the host: so GPU<->own NIC is PIX.
#include "topology/servers/boards.hpp"
#include "topology/servers/servers.hpp"

namespace gf {

ServerTemplate make_oci_b300() {
  ServerTemplate t;
  t.name = "oci-b300";
  t.description = "Oracle Cloud BM.GPU.B300.8: 8x B300, 2x NVSwitch (NVLink5, NV18), 16x 400G RoCE (ConnectX-8)";
  t.source = "validation/measured/oci-b300-*.txt header (OCI shape table: RoCE 8 x 2 x 400 Gb/s, 2x Xeon 8592+); "
             "NVIDIA HGX B300 spec (288 GB HBM3e, 8 TB/s, 1.8 TB/s NVLink, 36 PFLOPS BF16 with sparsity per 8 GPUs "
             "-> 2.25 PF dense each); ConnectX-8 SuperNIC datasheet (integrated PCIe Gen6 switch); "
             "NVSwitch chip count (2, as HGX B200): estimate";
  t.gpu = {"B300-SXM6-288GB", "blackwell", Bandwidth::gBps(8000), 2250,
           "NVIDIA HGX B300 spec (8 TB/s HBM3e per GPU; BF16 dense = half the sparse figure)"};
  t.default_fabric = "rail_optimized";
  TemplateBuilder b(t);
  Hgx8Board board = hgx_b200_board();
  // The ConnectX-8's own Gen6 switch joins GPU and NIC; its uplink stays Gen5, as Emerald Rapids
  // hosts are PCIe Gen5.
  board.gpu_pcie = "pcie-gen6-x16";
  board.nic_pcie = "pcie-gen6-x16";
  board.nics_per_gpu = 2;
  board.nic_tech = "roce-400g";
  board.affinity = {cores(0, 64, 128), cores(64, 64, 128)};
  add_hgx8(b, board);
  return t;
}

}  // namespace gf
