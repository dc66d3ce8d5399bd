// The `nvidia-smi topo -m` view: cells from NVLink and the PCIe tree, checked against what
// nvidia-smi prints on the real machines (validation/formats/nvidia-smi-topo/).
#include <gtest/gtest.h>

#include "shared_data.hpp"

#include <fstream>
#include <map>
#include <sstream>

#include "report/topo_matrix.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/pcie_matrix.hpp"
#include "topology/servers/servers.hpp"

namespace gf {
namespace {

TopoMatrix matrix_of(const ServerTemplate& t) {
  ClusterSpec spec;
  spec.server = t;
  spec.servers = 1;
  Cluster c = build_cluster(spec);
  return topo_matrix(c, 0);
}

int col(const TopoMatrix& m, const std::string& name) {
  for (size_t i = 0; i < m.devices.size(); ++i)
    if (m.devices[i].name == name) return static_cast<int>(i);
  ADD_FAILURE() << "no device " << name;
  return 0;
}
std::string cell(const TopoMatrix& m, const std::string& a, const std::string& b) {
  return cell_text(m.cells[col(m, a)][col(m, b)]);
}

// A `topo -m` table as printed (tabs expanded or not): device columns, then per row its cells and,
// on GPU rows, the three affinity columns. Stops at the first blank line.
struct Parsed {
  std::vector<std::string> columns;
  std::map<std::string, std::vector<std::string>> cells;     // row -> cells
  std::map<std::string, std::vector<std::string>> affinity;  // GPU row -> cpu, numa, gpu numa id
};
Parsed parse(const std::string& text) {
  Parsed p;
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  std::istringstream header(line);
  for (std::string w; header >> w;) {
    // "GPU0", "NIC11"; not the "GPU" of the "GPU NUMA ID" heading.
    if (w.size() > 3 && (w.rfind("GPU", 0) == 0 || w.rfind("NIC", 0) == 0)) p.columns.push_back(w);
  }
  while (std::getline(in, line) && !line.empty()) {
    std::istringstream row(line);
    std::string name, w;
    row >> name;
    std::vector<std::string> rest;
    while (row >> w) rest.push_back(w);
    size_t n = std::min(rest.size(), p.columns.size());
    p.cells[name].assign(rest.begin(), rest.begin() + static_cast<long>(n));
    if (rest.size() > n) p.affinity[name].assign(rest.begin() + static_cast<long>(n), rest.end());
  }
  return p;
}
std::string read(const std::string& file) {
  std::ifstream f(shared_dir() + "/validation/formats/nvidia-smi-topo/" + file);
  EXPECT_TRUE(f.good()) << file;
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(PcieMatrix, DgxH100NvSwitchAndNicPlacement) {
  // 5+4+4+5 NVLinks into the 4 shared NVSwitch chips: every GPU pair NV18. Each GPU shares a
  // PCIe switch with its NIC (PIX); NICs of the other socket are across UPI (SYS); those of its
  // own socket hang off other host bridges of the same NUMA node (NODE).
  TopoMatrix m = matrix_of(make_dgx_h100());
  ASSERT_EQ(m.gpus, 8);
  ASSERT_EQ(m.devices.size(), 16u);
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b)
      EXPECT_EQ(cell_text(m.cells[a][b]), a == b ? "X" : "NV18") << a << "," << b;
  EXPECT_EQ(cell(m, "GPU0", "NIC0"), "PIX");
  EXPECT_EQ(cell(m, "GPU0", "NIC4"), "SYS");
  EXPECT_EQ(cell(m, "GPU0", "NIC1"), "NODE");
  EXPECT_EQ(cell(m, "GPU7", "NIC7"), "PIX");
  EXPECT_EQ(m.devices[0].cpu_affinity, "0-55,112-167");
  EXPECT_EQ(m.devices[4].numa_affinity, "1");
  EXPECT_EQ(m.devices[0].gpu_numa_id, "N/A");
}

TEST(PcieMatrix, DgxA100MatchesRealSample) {
  REQUIRE_SHARED_DATA();
  // 6 chips x 2 NVLinks = NV12. GPU0/1 sit below their own lower switches and NIC0/1 on the upper
  // switch of the same complex: 2 bridges between GPU0 and NIC0, no host bridge: PXB. The sample
  // holds GPU0-GPU3 rows; its NIC4/5 are storage ports not modelled, so NIC0-NIC3 are compared.
  TopoMatrix m = matrix_of(make_dgx_a100());
  Parsed real = parse(read("dgx-a100-40gb-12nic-PARTIAL.txt"));
  Parsed ours = parse(topo_matrix_text(m));
  ASSERT_EQ(real.cells.size(), 4u);
  int compared = 0;
  for (const auto& [row, cells] : real.cells) {
    for (size_t i = 0; i < cells.size(); ++i) {
      const std::string& column = real.columns[i];
      bool modelled = column.rfind("GPU", 0) == 0 || column == "NIC0" || column == "NIC1" || column == "NIC2" ||
                      column == "NIC3";
      if (!modelled) continue;
      EXPECT_EQ(cell(m, row, column), cells[i]) << row << " x " << column;
      ++compared;
    }
    EXPECT_EQ(ours.affinity[row], real.affinity.at(row)) << row;
  }
  EXPECT_EQ(compared, 4 * 12);  // 4 rows x (8 GPU + 4 NIC columns)
  EXPECT_EQ(cell(m, "GPU4", "NIC4"), "PXB");
  EXPECT_EQ(cell(m, "NIC0", "NIC1"), "PIX");  // both on the upper switch
}

TEST(PcieMatrix, Pcie8GpuPixPhbSysPattern) {
  REQUIRE_SHARED_DATA();
  // Pairs on one switch (PIX), two switches on one socket's root complex (PHB), sockets apart
  // (SYS): cell by cell the GPU block of the real sample (NVIDIA/nccl issue #1439).
  TopoMatrix m = matrix_of(make_pcie_8gpu());
  Parsed real = parse(read("pcie-8gpu-pix-phb-sys-no-nic.txt"));
  ASSERT_EQ(real.cells.size(), 8u);
  for (const auto& [row, cells] : real.cells)
    for (size_t i = 0; i < cells.size(); ++i)
      EXPECT_EQ(cell(m, row, real.columns[i]), cells[i]) << row << " x " << real.columns[i];
  EXPECT_EQ(cell(m, "GPU0", "NIC0"), "PIX");  // the pair's NIC on the same switch
  EXPECT_EQ(cell(m, "GPU0", "NIC1"), "PHB");
  EXPECT_EQ(cell(m, "GPU0", "NIC2"), "SYS");
}

TEST(PcieMatrix, RootportServerRendersAsTheRealOne) {
  REQUIRE_SHARED_DATA();
  // Every GPU on its own NUMA node: all GPU pairs SYS. The rendered text, tabs expanded, is parsed
  // and compared cell by cell, affinities included, with the real output; then byte for byte.
  TopoMatrix m = matrix_of(make_pcie_8gpu_rootport());
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b)
      if (a != b) {
        EXPECT_EQ(cell_text(m.cells[a][b]), "SYS");
      }
  std::string real_text = read("rtx4090-8gpu-pcie-no-switch-sys.txt");
  std::string ours_text = topo_matrix_text(m, true);
  Parsed real = parse(real_text), ours = parse(ours_text);
  EXPECT_EQ(ours.columns, real.columns);
  EXPECT_EQ(ours.cells.size(), 12u);  // 8 GPU rows + 4 NIC rows
  EXPECT_EQ(ours.cells, real.cells);
  EXPECT_EQ(ours.affinity, real.affinity);
  EXPECT_EQ(ours_text, real_text);
}

TEST(PcieMatrix, Mi300xXgmiCells) {
  // One xGMI link to each peer: NV1 everywhere, recorded as xGMI; NICs on each GPU's switch.
  TopoMatrix m = matrix_of(make_mi300x());
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b) {
      if (a == b) continue;
      EXPECT_EQ(cell_text(m.cells[a][b]), "NV1");
      EXPECT_EQ(m.cells[a][b].family, LinkFamily::Xgmi);
    }
  EXPECT_EQ(cell(m, "GPU3", "NIC3"), "PIX");
  EXPECT_EQ(cell(m, "GPU3", "NIC4"), "SYS");
  EXPECT_EQ(topo_matrix_json(m)["nv_links"], "xGMI");
}

TEST(PcieMatrix, Gb200TrayThroughDomainSwitches) {
  // The tray has no NVSwitch: GPUs meet in the NVL72 domain's 18 fabric chips, 1 link to each:
  // NV18. GPUs hang off Grace by C2C, not PCIe: SYS to every NIC, as nvidia-smi shows on GB200.
  // GPU memory NUMA ids: after the 2 CPU nodes, 8 per GPU: 2, 10, 18, 26.
  TopoMatrix m = matrix_of(make_gb200_nvl72());
  ASSERT_EQ(m.gpus, 4);
  EXPECT_EQ(cell(m, "GPU0", "GPU3"), "NV18");
  for (int g = 0; g < 4; ++g)
    for (int n = 0; n < 4; ++n) EXPECT_EQ(cell(m, "GPU" + std::to_string(g), "NIC" + std::to_string(n)), "SYS");
  EXPECT_EQ(m.devices[0].gpu_numa_id, "2");
  EXPECT_EQ(m.devices[3].gpu_numa_id, "26");
  EXPECT_EQ(m.devices[0].numa_affinity, "0,3-9,11-17");
  EXPECT_EQ(m.devices[2].numa_affinity, "1,19-25,27-33");
  EXPECT_EQ(m.devices[2].cpu_affinity, "72-143");
  EXPECT_EQ(cell(m, "NIC0", "NIC1"), "PHB");  // both on Grace 0's root complex
}

TEST(PcieMatrix, GaudiPortsOnTheChip) {
  // 3 bonded RoCE ports between every pair of chips: NV3 (Gaudi RoCE). A chip's own scale-out
  // port is on the chip: nothing in between, PIX; the partner chip's ports, below the shared
  // PCIe switch, three bridges away: PXB.
  TopoMatrix m = matrix_of(make_gaudi2());
  EXPECT_EQ(cell(m, "GPU0", "GPU7"), "NV3");
  EXPECT_EQ(m.cells[0][7].family, LinkFamily::GaudiRoce);
  EXPECT_EQ(cell(m, "GPU0", "NIC2"), "PIX");
  EXPECT_EQ(cell(m, "GPU0", "NIC3"), "PXB");
  EXPECT_EQ(cell(m, "NIC0", "NIC1"), "PIX");
  EXPECT_EQ(cell(m, "GPU0", "NIC23"), "SYS");
}

TEST(PcieMatrix, TextLayoutAndJson) {
  TopoMatrix m = matrix_of(make_dgx_h100());
  std::string text = topo_matrix_text(m);
  // Raw output is tab-separated: the header starts with a tab; a GPU row ends with two tabs
  // between NUMA affinity and GPU NUMA ID; the diagonal cell is " X ".
  EXPECT_EQ(text.rfind("\tGPU0\tGPU1", 0), 0u);
  EXPECT_NE(text.find("GPU0\t X \tNV18"), std::string::npos);
  EXPECT_NE(text.find("0-55,112-167\t0\t\tN/A\n"), std::string::npos);
  EXPECT_NE(text.find("\nLegend:\n\n  X    = Self\n"), std::string::npos);
  EXPECT_NE(text.find("\nNIC Legend:\n\n  NIC0: mlx5_0\n"), std::string::npos);
  nlohmann::json j = topo_matrix_json(m);
  EXPECT_EQ(j["gpus"].size(), 8u);
  EXPECT_EQ(j["nics"].size(), 8u);
  EXPECT_EQ(j["nics"][0]["device"], "mlx5_0");
  EXPECT_EQ(j["rows"][0]["cells"][1], "NV18");
  EXPECT_EQ(j["rows"][0]["cells"][8], "PIX");
  EXPECT_EQ(j["rows"][0]["cpu_affinity"], "0-55,112-167");
  EXPECT_FALSE(j["rows"][8].contains("cpu_affinity"));  // NIC rows carry no affinity
}

TEST(PcieMatrix, EveryServerOfAMultiServerClusterAlike) {
  ClusterSpec spec;
  spec.server = make_dgx_h100();
  spec.servers = 2;
  spec.fabric.kind = "single_switch";
  Cluster c = build_cluster(spec);
  TopoMatrix a = topo_matrix(c, 0), b = topo_matrix(c, 1);
  EXPECT_EQ(topo_matrix_text(a), topo_matrix_text(b));
  EXPECT_EQ(b.server, 1);
  EXPECT_THROW(topo_matrix(c, 2), InputError);
  EXPECT_THROW(topo_matrix(c, -1), InputError);
}

}  // namespace
}  // namespace gf
