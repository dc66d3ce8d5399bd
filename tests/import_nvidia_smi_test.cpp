// Importing `nvidia-smi topo -m` text: every real sample in validation/formats/nvidia-smi-topo/
// imports, what each recovers is checked against the file's own text, and the imported server,
// built and printed back with topo_matrix, gives the file's cells for every row the file has (the
// round trip). Mangled copies fail with an InputError naming the line, never anything else.
#include <gtest/gtest.h>

#include "shared_data.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "report/topo_matrix.hpp"
#include "config/imported_cluster.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/import/imported_server.hpp"
#include "topology/pcie_matrix.hpp"

namespace gf {
namespace {

const char* kDir = "/validation/formats/nvidia-smi-topo/";

std::string read(const std::string& file) {
  std::ifstream f(shared_dir() + kDir + file);
  EXPECT_TRUE(f.good()) << file;
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The file's table read independently of the importer: header words up to "CPU" are the device
// columns; each row is its name, one cell per column, then the affinity values.
struct FileTable {
  std::vector<std::string> columns;
  std::map<std::string, std::vector<std::string>> cells;     // row -> cells
  std::map<std::string, std::vector<std::string>> affinity;  // row -> CPU, NUMA, GPU NUMA ID (as present)
};
FileTable file_table(const std::string& text) {
  FileTable t;
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  std::istringstream header(line);
  for (std::string w; header >> w && w != "CPU";) t.columns.push_back(w);
  while (std::getline(in, line) && line.find_first_not_of(" \t") != std::string::npos) {
    std::istringstream row(line);
    std::string name, w;
    row >> name;
    for (size_t i = 0; i < t.columns.size() && row >> w; ++i) t.cells[name].push_back(w);
    while (row >> w) t.affinity[name].push_back(w);
  }
  return t;
}

// The simulated matrix names NICs NIC0.. in column order; old nvidia-smi heads them "mlx5_0".
std::string sim_name(const FileTable& t, const std::string& column) {
  if (column.rfind("GPU", 0) == 0) return column;
  int nic = 0;
  for (const auto& c : t.columns) {
    if (c == column) break;
    nic += c.rfind("GPU", 0) != 0;
  }
  return "NIC" + std::to_string(nic);
}

struct Imported {
  ImportedServer imp;
  TopoMatrix m;
};
Imported import_file(const std::string& file, const ImportOptions& opt = {}) {
  Imported out{import_nvidia_smi(read(file), file, opt), {}};
  ClusterSpec spec;
  spec.server = out.imp.server;
  out.m = topo_matrix(build_cluster(spec), 0);
  return out;
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

// The round trip: every cell of every row in the file comes back. Returns the cells compared.
int expect_round_trip(const std::string& file, const Imported& got) {
  FileTable t = file_table(read(file));
  int compared = 0;
  for (const auto& [row, cells] : t.cells) {
    EXPECT_EQ(cells.size(), t.columns.size()) << file << " row " << row;
    for (size_t i = 0; i < cells.size(); ++i, ++compared)
      EXPECT_EQ(cell(got.m, sim_name(t, row), sim_name(t, t.columns[i])), cells[i]) << file << ": " << row << " x " << t.columns[i];
  }
  return compared;
}

bool mentions(const std::vector<std::string>& lines, const std::string& word) {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(word) != std::string::npos; });
}
bool assumed(const ImportedServer& s, const std::string& what, const std::string& value) {
  return std::any_of(s.assumed.begin(), s.assumed.end(),
                     [&](const ImportAssumption& a) { return a.what == what && a.value.find(value) != std::string::npos; });
}

TEST(ImportNvidiaSmi, DgxA100PartialRecoversItsFourRows) {
  REQUIRE_SHARED_DATA();
  const std::string f = "dgx-a100-40gb-12nic-PARTIAL.txt";
  Imported got = import_file(f);
  // Header: GPU0..GPU7 and NIC0..NIC11; rows GPU0..GPU3 only.
  EXPECT_EQ(got.m.gpus, 8);
  EXPECT_EQ(got.imp.server.count(NodeKind::Nic), 12);
  // 4 rows x 20 columns, each compared.
  EXPECT_EQ(expect_round_trip(f, got), 4 * 20);
  // NV12 on every pair shown, 8 GPUs: 7 x 12 = 84 links per GPU as a direct mesh, more than any GPU
  // has, so NVSwitch: the A100 form, 6 chips x 2 links.
  EXPECT_EQ(got.imp.server.count(NodeKind::NvSwitch), 6);
  EXPECT_EQ(cell(got.m, "GPU5", "GPU6"), "NV12");  // a pair no row shows, taken as the rest
  EXPECT_TRUE(assumed(got.imp, "GPU model", "A100"));
  EXPECT_TRUE(assumed(got.imp, "PCIe links", "pcie-gen4"));
  // GPU0/GPU1 report NUMA 3, GPU2/GPU3 NUMA 1 (the NUMA Affinity column).
  EXPECT_EQ(got.m.devices[0].numa_affinity, "3");
  EXPECT_EQ(got.m.devices[2].numa_affinity, "1");
  EXPECT_EQ(got.m.devices[0].cpu_affinity, "48-63,176-191");
  EXPECT_TRUE(mentions(got.imp.not_recovered, "GPU4, GPU5, GPU6, GPU7, NIC4"));
  EXPECT_EQ(got.imp.format, "nvidia-smi topo -m");
}

TEST(ImportNvidiaSmi, Dgx2PartialNv6ThroughSwitchesAndMlx5Columns) {
  REQUIRE_SHARED_DATA();
  const std::string f = "dgx2-16x-v100-nv6-mlx5-PARTIAL.txt";
  Imported got = import_file(f);
  // 16 GPU columns, 10 NIC columns named mlx5_0..mlx5_9 (older nvidia-smi), rows GPU0..GPU3.
  EXPECT_EQ(got.m.gpus, 16);
  ASSERT_EQ(got.imp.server.count(NodeKind::Nic), 10);
  EXPECT_EQ(got.m.devices[16].label, "mlx5_0");
  EXPECT_EQ(got.m.devices[25].label, "mlx5_9");
  EXPECT_EQ(expect_round_trip(f, got), 4 * 26);
  // NV6 x 15 peers = 90 links: NVSwitch, the DGX-2 (V100) form, 6 chips x 1 link.
  EXPECT_EQ(got.imp.server.count(NodeKind::NvSwitch), 6);
  EXPECT_TRUE(assumed(got.imp, "GPU model", "V100"));
  // GPU0, GPU1 and mlx5_0 PIX; GPU2, GPU3 and mlx5_1 PIX; the two PXB: a top switch with two
  // below it = 3 switches.
  EXPECT_EQ(got.imp.server.count(NodeKind::PcieSwitch), 3);
  // No NUMA column: the CPU Affinity column gives the core list.
  EXPECT_EQ(got.m.devices[0].cpu_affinity, "0-23,48-71");
}

TEST(ImportNvidiaSmi, HgxH100PartialKeepsItsSysCells) {
  REQUIRE_SHARED_DATA();
  const std::string f = "hgx-h100-nv18-6nic-PARTIAL.txt";
  Imported got = import_file(f);
  EXPECT_EQ(got.m.gpus, 8);
  EXPECT_EQ(got.imp.server.count(NodeKind::Nic), 6);
  EXPECT_EQ(expect_round_trip(f, got), 7 * 14);  // rows GPU0..GPU6, 8 + 6 columns
  // NV18 everywhere, 8 GPUs: the HGX H100 form, 4 chips (5+4+4+5).
  EXPECT_EQ(got.imp.server.count(NodeKind::NvSwitch), 4);
  EXPECT_TRUE(assumed(got.imp, "GPU model", "H100"));
  EXPECT_TRUE(assumed(got.imp, "PCIe links", "pcie-gen5-x16"));
  EXPECT_TRUE(assumed(got.imp, "NIC ports", "ib-ndr"));
  // GPU1 reports NUMA 0 like GPU0, yet is SYS to GPU0's NIC: the cells win, and it is said.
  EXPECT_EQ(got.m.devices[0].numa_affinity, "0");
  EXPECT_EQ(got.m.devices[4].numa_affinity, "1");
  EXPECT_TRUE(mentions(got.imp.not_recovered, "GPU1 (0 -> "));
  EXPECT_TRUE(mentions(got.imp.not_recovered, "GPU7"));
}

TEST(ImportNvidiaSmi, Pcie14NicTopoMpPartial) {
  REQUIRE_SHARED_DATA();
  const std::string f = "pcie-8gpu-14nic-topo-mp-PARTIAL.txt";
  Imported got = import_file(f);
  EXPECT_EQ(got.m.gpus, 8);
  EXPECT_EQ(got.imp.server.count(NodeKind::Nic), 14);
  EXPECT_EQ(expect_round_trip(f, got), 4 * 22);
  EXPECT_EQ(got.imp.server.count(NodeKind::NvSwitch), 0);
  EXPECT_TRUE(assumed(got.imp, "PCIe links", "pcie-gen4"));
  EXPECT_NE(got.imp.format.find("-mp"), std::string::npos);
  EXPECT_TRUE(mentions(got.imp.not_recovered, "NVLink"));
  // GPU0..GPU3 are NODE to each other: 4 host bridges of one NUMA node, each GPU with its PIX NIC
  // under one switch (GPU3's is NIC7).
  EXPECT_EQ(cell(got.m, "GPU3", "NIC7"), "PIX");
  EXPECT_EQ(got.m.devices[3].numa_affinity, "0");
}

TEST(ImportNvidiaSmi, PcieEightGpuCompleteRendersByteForByte) {
  REQUIRE_SHARED_DATA();
  const std::string f = "pcie-8gpu-pix-phb-sys-no-nic.txt";
  Imported got = import_file(f);
  EXPECT_EQ(expect_round_trip(f, got), 8 * 8);
  EXPECT_EQ(got.imp.server.count(NodeKind::Nic), 0);
  // Four PIX pairs: one switch each; two NUMA nodes (0 and 1 in the NUMA Affinity column).
  EXPECT_EQ(got.imp.server.count(NodeKind::PcieSwitch), 4);
  EXPECT_EQ(got.imp.server.count(NodeKind::Cpu), 2);
  EXPECT_TRUE(got.imp.not_recovered.size() == 1 && mentions(got.imp.not_recovered, "NVLink"));
  // The file holds the matrix only; ours adds the legend after a blank line.
  std::string ours = expand_tabs(topo_matrix_text(got.m));
  EXPECT_EQ(ours.substr(0, ours.find("\n\n") + 1), read(f));
}

TEST(ImportNvidiaSmi, Rtx4090CompleteWithNicRowsAndLegend) {
  REQUIRE_SHARED_DATA();
  const std::string f = "rtx4090-8gpu-pcie-no-switch-sys.txt";
  Imported got = import_file(f);
  EXPECT_EQ(expect_round_trip(f, got), 12 * 12);  // GPU and NIC rows
  // Every GPU on its own NUMA node (0..7 in the file), the NICs with GPU6 on node 5.
  EXPECT_EQ(got.imp.server.count(NodeKind::Cpu), 8);
  EXPECT_EQ(got.m.devices[6].numa_affinity, "5");
  EXPECT_EQ(got.m.devices[0].numa_affinity, "3");
  // NIC0/NIC1 and NIC2/NIC3 PIX: 2 switches; GPU6 PHB to them: on the root port itself.
  EXPECT_EQ(got.imp.server.count(NodeKind::PcieSwitch), 2);
  EXPECT_EQ(got.m.devices[8].label, "mlx5_0");  // from the NIC Legend
  // Complete, with the standard legend: the whole text comes back.
  EXPECT_EQ(expand_tabs(topo_matrix_text(got.m)), read(f));
}

TEST(ImportNvidiaSmi, RocmSmiShowtopo) {
  REQUIRE_SHARED_DATA();
  // 4 GPUs, every pair PCIE with 3 hops (across sockets): SYS, each GPU on a NUMA node of its own.
  Imported got = import_file("rocm-smi-showtopo-4gpu-pcie.txt");
  EXPECT_EQ(got.imp.format, "rocm-smi --showtopo");
  EXPECT_EQ(got.m.gpus, 4);
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) EXPECT_EQ(cell_text(got.m.cells[a][b]), a == b ? "X" : "SYS");
  EXPECT_EQ(got.imp.server.count(NodeKind::Cpu), 4);
  EXPECT_TRUE(assumed(got.imp, "GPU model", "MI210"));
}

TEST(ImportNvidiaSmi, FilesThatAreNoTopologyMatrixSayWhat) {
  REQUIRE_SHARED_DATA();
  // The legend alone has no matrix; `topo -p2p` prints P2P status words, not connections.
  try {
    import_nvidia_smi(read("legend.txt"), "legend.txt");
    FAIL() << "legend.txt imported";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no header row"), std::string::npos) << e.what();
  }
  try {
    import_nvidia_smi(read("p2p-legend-topo-p2p.txt"), "p2p.txt");
    FAIL() << "p2p imported";
  } catch (const InputError& e) {
    // Line 2 holds GPU0's row, its second cell (GPU0/GPU1) is GNS.
    EXPECT_NE(std::string(e.what()).find("p2p.txt:2:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("topo -p2p"), std::string::npos) << e.what();
  }
}

// The error an import of `text` throws, or "" when it imports.
std::string error_of(const std::string& text) {
  try {
    import_nvidia_smi(text, "t.txt");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
std::string replace(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

TEST(ImportNvidiaSmi, MangledCopiesNameTheLine) {
  REQUIRE_SHARED_DATA();
  const std::string h100 = read("hgx-h100-nv18-6nic-PARTIAL.txt");
  // Cut inside GPU3's row (line 5): the row is short.
  std::string cut = h100.substr(0, h100.find("\nGPU3") + 30);
  EXPECT_NE(error_of(cut).find("t.txt:5:"), std::string::npos) << error_of(cut);
  EXPECT_NE(error_of(cut).find("cut short"), std::string::npos);
  // A garbled cell on GPU0's row (line 2).
  std::string bad = replace(h100, "PIX", "PIQ");
  EXPECT_NE(error_of(bad).find("t.txt:2:"), std::string::npos) << error_of(bad);
  EXPECT_NE(error_of(bad).find("'GPU0/NIC0'"), std::string::npos) << error_of(bad);
  // The header alone.
  EXPECT_NE(error_of(h100.substr(0, h100.find('\n') + 1)).find("not followed by any device row"), std::string::npos);
  // Cut at the top: rows without a header.
  EXPECT_NE(error_of(h100.substr(h100.find('\n') + 1)).find("t.txt:1:"), std::string::npos);
  // Empty.
  EXPECT_NE(error_of("").find("no header row"), std::string::npos);

  const std::string rtx = read("rtx4090-8gpu-pcie-no-switch-sys.txt");
  // NIC0's row (line 10) disagrees with GPU6's (line 8) about their cell.
  std::string asym = replace(rtx, "NIC0    SYS     SYS     SYS     SYS     SYS     SYS     PHB", "NIC0    SYS     SYS     SYS     SYS     SYS     SYS     SYS");
  EXPECT_NE(error_of(asym).find("t.txt:10:"), std::string::npos) << error_of(asym);
  EXPECT_NE(error_of(asym).find("line 8"), std::string::npos) << error_of(asym);
  // A NIC Legend entry for a NIC the header does not have. Lines: header 1, rows 2-13, blank,
  // "Legend:" 15, blank, 7 legend lines 17-23, blank, "NIC Legend:" 25, blank, NIC0..NIC3 27-30.
  std::string legend = replace(rtx, "NIC3: mlx5_3", "NIC9: mlx5_3");
  EXPECT_NE(error_of(legend).find("t.txt:30:"), std::string::npos) << error_of(legend);

  // GPU0/GPU2 made PIX on both rows puts GPU0..GPU3 under one switch tree (PIX 0-1, 0-2, 2-3), yet
  // GPU0/GPU3 stays PHB: the matrix contradicts itself. That is the first such pair in row order,
  // named with the row that gave it first, GPU0's (line 2).
  std::string pix = read("pcie-8gpu-pix-phb-sys-no-nic.txt");
  pix = replace(pix, "GPU0     X      PIX     PHB", "GPU0     X      PIX     PIX");
  pix = replace(pix, "GPU2    PHB", "GPU2    PIX");
  EXPECT_NE(error_of(pix).find("contradicts itself"), std::string::npos) << error_of(pix);
  EXPECT_NE(error_of(pix).find("t.txt:2: 'GPU0/GPU3'"), std::string::npos) << error_of(pix);
}

TEST(ImportNvidiaSmi, NoPrefixOrMutationCrashes) {
  REQUIRE_SHARED_DATA();
  // Every prefix of every sample, and random one-byte changes, either import or throw InputError:
  // a crash or another exception type fails the test. Seeded, so the run is the same every time.
  std::mt19937 rng(6);
  const std::string alphabet = " \t\nXNVPIHBSYODE0123456789-,:/A";
  for (const char* f : {"hgx-h100-nv18-6nic-PARTIAL.txt", "rtx4090-8gpu-pcie-no-switch-sys.txt",
                        "dgx2-16x-v100-nv6-mlx5-PARTIAL.txt", "rocm-smi-showtopo-4gpu-pcie.txt"}) {
    const std::string text = read(f);
    int imported = 0;
    for (size_t n = 0; n <= text.size(); ++n) {
      try {
        import_nvidia_smi(text.substr(0, n), f);
        ++imported;
      } catch (const InputError&) {
      }
    }
    EXPECT_GT(imported, 0) << f;  // the whole file, at least
    for (int k = 0; k < 300; ++k) {
      std::string m = text;
      m[rng() % m.size()] = alphabet[rng() % alphabet.size()];
      try {
        import_nvidia_smi(m, f);
      } catch (const InputError&) {
      }
    }
  }
}

TEST(ImportNvidiaSmi, OptionsReplaceTheDefaults) {
  REQUIRE_SHARED_DATA();
  ImportOptions opt;
  opt.gpu = "dgx-b200";
  opt.nvlink = "nvlink5";
  opt.pcie = "pcie-gen6-x16";
  opt.nic_tech = "roce-400g";
  Imported got = import_file("hgx-h100-nv18-6nic-PARTIAL.txt", opt);
  EXPECT_EQ(got.imp.server.gpu.arch, "blackwell");
  // NV18 over NVLink5: the B200 board, 2 chips of 9 links; the cells are the same.
  EXPECT_EQ(got.imp.server.count(NodeKind::NvSwitch), 2);
  EXPECT_EQ(cell(got.m, "GPU0", "GPU1"), "NV18");
  for (const auto& n : got.imp.server.nodes)
    if (n.kind == NodeKind::Nic) {
      EXPECT_EQ(n.tech, "roce-400g");
    }
  for (const auto& l : got.imp.server.links)
    if (got.imp.server.nodes[l.a].kind == NodeKind::Nic) {
      EXPECT_EQ(l.tech, "pcie-gen6-x16");
    }
  // Given figures are not listed as assumed.
  EXPECT_FALSE(assumed(got.imp, "GPU model", ""));
  EXPECT_FALSE(assumed(got.imp, "PCIe links", ""));

  opt = {};
  opt.pcie = "pcie-gen9-x16";
  EXPECT_THROW(import_nvidia_smi(read("hgx-h100-nv18-6nic-PARTIAL.txt"), "t", opt), InputError);
  opt = {};
  opt.gpu = "H100-SXM5-80GBX";
  try {
    import_nvidia_smi(read("hgx-h100-nv18-6nic-PARTIAL.txt"), "t", opt);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "--gpu");
    EXPECT_NE(std::string(e.what()).find("H100-SXM5-80GB"), std::string::npos) << e.what();
  }
}

TEST(DetectTopologyFormat, ByContent) {
  REQUIRE_SHARED_DATA();
  for (const char* f : {"dgx-a100-40gb-12nic-PARTIAL.txt", "dgx2-16x-v100-nv6-mlx5-PARTIAL.txt",
                        "hgx-h100-nv18-6nic-PARTIAL.txt", "pcie-8gpu-14nic-topo-mp-PARTIAL.txt",
                        "pcie-8gpu-pix-phb-sys-no-nic.txt", "rtx4090-8gpu-pcie-no-switch-sys.txt",
                        "rocm-smi-showtopo-4gpu-pcie.txt"})
    EXPECT_EQ(detect_topology_format(read(f)), TopologyFormat::NvidiaSmi) << f;
  EXPECT_EQ(detect_topology_format("<?xml version=\"1.0\"?>\n<system version=\"1\">"), TopologyFormat::NcclXml);
  EXPECT_EQ(detect_topology_format("  <system version=\"1\">\n</system>"), TopologyFormat::NcclXml);
  EXPECT_EQ(detect_topology_format("name: x\nserver: dgx-h100\n"), TopologyFormat::Yaml);
  // A YAML key named GPU0 is still YAML.
  EXPECT_EQ(detect_topology_format("GPU0: 1\n"), TopologyFormat::Yaml);
  std::ifstream xml(shared_dir() + "/validation/formats/nccl-topo-xml/azure-ndv5-h100-topo.xml");
  std::stringstream ss;
  ss << xml.rdbuf();
  EXPECT_EQ(detect_topology_format(ss.str()), TopologyFormat::NcclXml);
}

}  // namespace
}  // namespace gf

namespace gf {

TEST(ImportedClusterNotes, PathAndCommandAreSaidOnceAndEachAssumptionIsOneShortLine) {
  // A doctor or perf run on an imported file prints these notes above its table. The input path
  // and the command that changes an assumption are said once (the first note); each assumption
  // names only its own option, so no assumption note repeats the path or the command.
  const std::string path = "/some/where/box.txt";
  ImportedServer imp;
  imp.server.name = "box";
  imp.format = "nvidia-smi topo -m";
  imp.assumed.push_back({"GPU model", "H100-SXM5-80GB", "the tool does not print it", "--gpu MODEL|SERVER"});
  imp.assumed.push_back({"PCIe links", "pcie-gen5-x16", "the tool does not print it", "--pcie TECH"});
  const ClusterSpec spec = imported_cluster(imp, path, TopologyFormat::NvidiaSmi);
  ASSERT_EQ(spec.notes.size(), 3u);
  size_t paths = 0, commands = 0;
  for (const std::string& n : spec.notes) {
    for (size_t at = n.find(path); at != std::string::npos; at = n.find(path, at + 1)) ++paths;
    if (n.find("gpufabric import") != std::string::npos) ++commands;
  }
  EXPECT_EQ(paths, 2u);     // "imported from PATH" and the one command line, both in the first note
  EXPECT_EQ(commands, 1u);
  EXPECT_EQ(spec.notes[1], "assumed GPU model = H100-SXM5-80GB [--gpu MODEL|SERVER]: the tool does not print it");
  EXPECT_EQ(spec.notes[2], "assumed PCIe links = pcie-gen5-x16 [--pcie TECH]: the tool does not print it");
}

}  // namespace gf
