// NVIDIA HGX B300 8-GPU: 8 B300 (Blackwell Ultra) on the HGX board (NVLink5, 18 links per GPU,
// 1.8 TB/s bidirectional, through 2 NVSwitch chips as HGX B200) with one ConnectX-8 SuperNIC per
// GPU at 800 Gb/s. The ConnectX-8 carries its own PCIe Gen6 switch, which joins its GPU, its port
// and the host: GPU<->own NIC is PIX. oci-b300 is the same board with each ConnectX-8 split into
// 2 x 400 GbE, as Oracle runs it.
#include "topology/servers/boards.hpp"
#include "topology/servers/more_servers.hpp"

namespace gf {

ServerTemplate make_hgx_b300() {
  ServerTemplate t;
  t.name = "hgx-b300";
  t.description = "NVIDIA HGX B300 8-GPU: 8x B300 288GB, 2x NVSwitch (NVLink5, NV18), 8x ConnectX-8 800G";
  t.source =
      "NVIDIA HGX B300 spec (288 GB HBM3e and 8 TB/s per GPU, 1.8 TB/s NVLink per GPU, 8x ConnectX-8 "
      "SuperNIC 800 Gb/s, 36 PFLOPS BF16 with sparsity per 8 GPUs -> 2.25 PF dense each); ConnectX-8 SuperNIC "
      "datasheet (integrated PCIe Gen6 switch); NVSwitch chip count (2, as HGX B200) and host CPUs: estimate";
  t.gpu = {"B300-SXM6-288GB", "blackwell", Bandwidth::gBps(8000), 2250,
           "NVIDIA HGX B300 spec (8 TB/s HBM3e per GPU; BF16 dense = half the sparse figure)"};
  t.default_fabric = "rail_optimized";
  TemplateBuilder b(t);
  Hgx8Board board = hgx_b200_board();
  board.gpu_pcie = "pcie-gen6-x16";
  board.nic_pcie = "pcie-gen6-x16";
  board.nic_tech = "ib-xdr";
  add_hgx8(b, board);
  return t;
}

}  // namespace gf
