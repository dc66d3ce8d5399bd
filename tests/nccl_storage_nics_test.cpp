// Imported servers: NICs beside no GPU are storage ports, not compute rails
// (topology/import/storage_nics.hpp), from nvidia-smi matrices and NCCL topology XML alike.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "shared_data.hpp"
#include "topology/import/imported_server.hpp"
#include "topology/server_template.hpp"

namespace gf {
namespace {

std::string read(const std::string& path) {
  std::ifstream f(shared_dir() + path);
  EXPECT_TRUE(f.good()) << path;
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

int storage_nics(const ServerTemplate& t) {
  int n = 0;
  for (const ServerNode& s : t.nodes) n += s.kind == NodeKind::Nic && s.role == "storage";
  return n;
}

bool mentions(const std::vector<std::string>& notes, const std::string& what) {
  for (const auto& n : notes)
    if (n.find(what) != std::string::npos) return true;
  return false;
}

// The DGX A100 sample's four GPU rows plus the other four, written out as the DGX A100 is built:
// GPU pairs 4/5 and 6/7 on NUMA nodes 7 and 5 (the board of the DGX A100 User Guide, as
// servers/board_a100 has it), each pair PXB to its two compute HCAs. The NVIDIA DGX A100 User
// Guide ("Network Ports") names the compute HCAs mlx5_0-3 and mlx5_6-9 and the storage / in-band
// cards mlx5_4-5 and mlx5_10-11, so NIC6-9 are the pairs' NICs and NIC4, 5, 10, 11 are SYS from
// every GPU, as the sample's rows already show for GPU0-3.
std::string dgx_a100_full(const std::string& partial) {
  std::string out = partial;
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  out += "\n";
  const char* aff[4] = {"112-127,240-255   7", "112-127,240-255   7", "80-95,208-223     5", "80-95,208-223     5"};
  for (int g = 4; g < 8; ++g) {
    std::string row = "GPU" + std::to_string(g);
    for (int c = 0; c < 8; ++c) row += c == g ? "     X " : "    NV12";
    for (int n = 0; n < 12; ++n) {
      const bool mine = (g < 6 && (n == 6 || n == 7)) || (g >= 6 && (n == 8 || n == 9));
      row += mine ? "    PXB " : "    SYS ";
    }
    out += row + "    " + aff[g - 4] + "               N/A\n";
  }
  return out;
}

}  // namespace

TEST(StorageNics, DgxA100MatrixBecomesEightComputeRails) {
  REQUIRE_SHARED_DATA();
  const std::string text = dgx_a100_full(read("/validation/formats/nvidia-smi-topo/dgx-a100-40gb-12nic-PARTIAL.txt"));
  const ImportedServer s = import_nvidia_smi(text, "dgx-a100-full.txt");
  EXPECT_EQ(s.server.count(NodeKind::Nic), 12);  // all twelve stay in the server (they share its PCIe)
  EXPECT_EQ(s.server.compute_nics(), 8);
  EXPECT_EQ(storage_nics(s.server), 4);
  // NIC4 and NIC5 are storage; the compute NICs' rails run 0..7 in column order.
  EXPECT_EQ(s.server.nodes[static_cast<size_t>(s.server.index_of("nic4"))].role, "storage");
  EXPECT_EQ(s.server.nodes[static_cast<size_t>(s.server.index_of("nic6"))].rail, 4);
  EXPECT_EQ(s.server.nodes[static_cast<size_t>(s.server.index_of("nic9"))].rail, 7);
  EXPECT_TRUE(mentions(s.not_recovered, "4 NIC(s) beside no GPU")) << s.not_recovered.size();
}

TEST(StorageNics, PartialRowsLeaveFarNicsAsComputeAndSaySo) {
  REQUIRE_SHARED_DATA();
  // Only GPU0-3 have rows: NIC4-11 are SYS from those, and nothing says where GPU4-7's NICs are.
  const ImportedServer s =
      import_nvidia_smi(read("/validation/formats/nvidia-smi-topo/dgx-a100-40gb-12nic-PARTIAL.txt"), "partial.txt");
  EXPECT_EQ(s.server.compute_nics(), 12);
  EXPECT_EQ(storage_nics(s.server), 0);
  EXPECT_TRUE(mentions(s.not_recovered, "NIC4, NIC5, NIC6, NIC7, NIC8, NIC9, NIC10, NIC11: far from every GPU"));
}

TEST(StorageNics, NoNicBesideAGpuKeepsThemAll) {
  REQUIRE_SHARED_DATA();
  // The RTX 4090 box: every GPU on its own root port, NICs NODE/SYS from all of them. NCCL has no
  // nearer NIC, so these carry its traffic: no storage role.
  const ImportedServer s =
      import_nvidia_smi(read("/validation/formats/nvidia-smi-topo/rtx4090-8gpu-pcie-no-switch-sys.txt"), "rtx.txt");
  EXPECT_EQ(storage_nics(s.server), 0);
  EXPECT_EQ(s.server.compute_nics(), s.server.count(NodeKind::Nic));
}

TEST(StorageNics, NcclXmlNicWithoutAGpuUnderItsSwitchIsStorage) {
  REQUIRE_SHARED_DATA();
  std::string xml = read("/validation/formats/nccl-topo-xml/azure-ndv4-a100-topo.xml");
  const ImportedServer base = import_nccl_xml(xml, "ndv4.xml");
  EXPECT_EQ(storage_nics(base.server), 0);  // every NIC shares a switch with two GPUs
  const int nics = base.server.compute_nics();
  EXPECT_EQ(nics, 8);
  // Add an Ethernet NIC straight on NUMA node 0's root port (no GPU on a root port of that CPU),
  // and one under a PCIe switch of its own: both are beside no GPU.
  const std::string first_cpu_end = "  </cpu>";
  xml.insert(xml.find(first_cpu_end),
             "    <pci busid=\"0200:00:00.0\" class=\"0x020000\" link_speed=\"16 GT/s\" link_width=\"16\"/>\n"
             "    <pci busid=\"ffff:ff:09.0\" class=\"0x060400\" link_speed=\"16 GT/s\" link_width=\"16\">\n"
             "      <pci busid=\"0201:00:00.0\" class=\"0x020000\" link_speed=\"16 GT/s\" link_width=\"16\"/>\n"
             "    </pci>\n");
  const ImportedServer s = import_nccl_xml(xml, "ndv4-storage.xml");
  EXPECT_EQ(s.server.count(NodeKind::Nic), nics + 2);
  EXPECT_EQ(s.server.compute_nics(), nics);
  EXPECT_EQ(storage_nics(s.server), 2);
  EXPECT_TRUE(mentions(s.not_recovered, "2 NIC(s) beside no GPU"));
}

}  // namespace gf
