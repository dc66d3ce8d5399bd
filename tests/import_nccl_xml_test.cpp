// NCCL topology XML import: the XML reader on its own, the two real Azure skeletons in
// ../shared/validation/formats/nccl-topo-xml/ (counts and pairings read off the files' own lines),
// hand-written NCCL_TOPO_DUMP_FILE-style snippets with <gpu>/<nvlink>/<net>, and mangled copies
// that must fail with the line of the damage.
#include <gtest/gtest.h>

#include "shared_data.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include "routing/router.hpp"
#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/import/imported_server.hpp"
#include "topology/import/xml_reader.hpp"
#include "topology/pcie_matrix.hpp"

namespace gf {
namespace {

std::string sample(const std::string& name) {
  std::ifstream f(shared_dir() + "/validation/formats/nccl-topo-xml/" + name);
  EXPECT_TRUE(f.good()) << name;
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// `text` with its 1-based line `n` replaced by `with`.
std::string replace_line(const std::string& text, int n, const std::string& with) {
  std::istringstream in(text);
  std::string out, line;
  for (int i = 1; std::getline(in, line); ++i) out += (i == n ? with : line) + "\n";
  return out;
}
// The first `n` lines of `text` and then `partial` (an unfinished line n+1).
std::string cut_after(const std::string& text, int n, const std::string& partial) {
  std::istringstream in(text);
  std::string out, line;
  for (int i = 1; i <= n && std::getline(in, line); ++i) out += line + "\n";
  return out + partial;
}

// The line an InputError names, or -1 when `f` does not throw one.
template <class F>
int error_line(F f, std::string* message = nullptr) {
  try {
    f();
  } catch (const InputError& e) {
    if (message) *message = e.what();
    return e.where().line;
  }
  return -1;
}

std::vector<const ServerNode*> nodes_of(const ServerTemplate& t, NodeKind k) {
  std::vector<const ServerNode*> out;
  for (const auto& n : t.nodes)
    if (n.kind == k) out.push_back(&n);
  return out;
}
// Technologies of the links between nodes of kinds a and b (either way round).
std::set<std::string> techs_between(const ServerTemplate& t, NodeKind a, NodeKind b) {
  std::set<std::string> out;
  for (const auto& l : t.links) {
    NodeKind x = t.nodes[l.a].kind, y = t.nodes[l.b].kind;
    if ((x == a && y == b) || (x == b && y == a)) out.insert(l.tech);
  }
  return out;
}
bool assumed(const ImportedServer& s, const std::string& what_prefix, const std::string& value) {
  for (const auto& a : s.assumed)
    if (a.what.rfind(what_prefix, 0) == 0 && a.value.find(value) != std::string::npos && !a.override_with.empty())
      return true;
  return false;
}

TopoMatrix matrix_of(const ServerTemplate& t) {
  Cluster c = build_cluster(gftest::spec_of(t, 1, "single_switch"));
  return topo_matrix(c, 0);
}
std::string cell(const TopoMatrix& m, const std::string& a, const std::string& b) {
  auto col = [&](const std::string& name) {
    for (size_t i = 0; i < m.devices.size(); ++i)
      if (m.devices[i].name == name) return i;
    ADD_FAILURE() << "no device " << name;
    return size_t{0};
  };
  return cell_text(m.cells[col(a)][col(b)]);
}

// ---- the XML reader --------------------------------------------------------------------------

TEST(ImportNcclXmlReader, ElementsAttributesLinesAndTheOptionalExtras) {
  const std::string text =
      "<?xml version=\"1.0\"?>\n"            // line 1: prolog
      "<!-- a comment NCCL would not write -->\n"
      "<system version='1'>\n"               // line 3: single quotes
      "  <cpu numaid=\"0\" note=\"a &amp; b\">\n"
      "    <pci busid=\"0000:01:00.0\"/>\n"  // line 5: self-closing
      "  </cpu>\n"
      "</system>\n";
  XmlElement root = read_xml(text, "t.xml");
  EXPECT_EQ(root.name, "system");
  EXPECT_EQ(root.line, 3);
  ASSERT_NE(root.attr("version"), nullptr);
  EXPECT_EQ(root.attr("version")->value, "1");
  ASSERT_EQ(root.children.size(), 1u);
  const XmlElement& cpu = root.children[0];
  EXPECT_EQ(cpu.line, 4);
  EXPECT_EQ(cpu.attr("note")->value, "a & b");  // &amp; decoded
  ASSERT_EQ(cpu.children.size(), 1u);
  EXPECT_EQ(cpu.children[0].line, 5);
  EXPECT_TRUE(cpu.children[0].children.empty());
  EXPECT_EQ(cpu.attr("absent"), nullptr);
}

TEST(ImportNcclXmlReader, MalformedInputNamesTheLine) {
  auto at = [](const std::string& text) { return error_line([&] { read_xml(text, "bad.xml"); }); };
  // Line 3 closes <cpu> (opened on line 2) with </pci>.
  EXPECT_EQ(at("<system>\n<cpu>\n</pci>\n</system>\n"), 3);
  // Unquoted value on line 2.
  EXPECT_EQ(at("<system>\n<cpu numaid=0>\n</cpu>\n</system>\n"), 2);
  // The file ends on line 3 inside <system>.
  EXPECT_EQ(at("<system>\n<cpu/>\n  "), 3);
  // Attribute given twice on line 1.
  EXPECT_EQ(at("<system a=\"1\" a=\"2\"/>"), 1);
  // Text content on line 2; a second root on line 2; an unclosed comment from line 2.
  EXPECT_EQ(at("<system>\nhello</system>"), 2);
  EXPECT_EQ(at("<system/>\n<system/>"), 2);
  EXPECT_EQ(at("<system>\n<!-- never closed\n\n"), 4);
  // Nothing at all.
  EXPECT_NE(at(""), -1);
}

// ---- the real samples ------------------------------------------------------------------------

TEST(ImportNcclXml, AzureNdv5H100Skeleton) {
  REQUIRE_SHARED_DATA();
  ImportedServer s = import_nccl_xml(sample("azure-ndv5-h100-topo.xml"), "azure-ndv5-h100-topo.xml");
  const ServerTemplate& t = s.server;
  EXPECT_EQ(s.format, "NCCL topology XML");
  // Two <cpu> elements (lines 2 and 20); eight class-0x060400 bridges (lines 3, 7, ..., 33), each
  // holding one class-0x030200 GPU and one class-0x020700 (InfiniBand) NIC.
  EXPECT_EQ(t.count(NodeKind::Cpu), 2);
  EXPECT_EQ(t.count(NodeKind::PcieSwitch), 8);
  EXPECT_EQ(t.count(NodeKind::Gpu), 8);
  EXPECT_EQ(t.count(NodeKind::Nic), 8);
  // A skeleton: no <nvlink>. Eight H100 SXM5 sit on the HGX H100 board, so its 4 NVSwitch chips
  // with 5/4/4/5 NVLink4 per GPU (boards.hpp) stand in, listed as an assumption.
  EXPECT_EQ(t.count(NodeKind::NvSwitch), 4);
  EXPECT_EQ(techs_between(t, NodeKind::Gpu, NodeKind::NvSwitch), std::set<std::string>{"nvlink4"});
  EXPECT_TRUE(assumed(s, "NVLink", "4 NVSwitch chips"));
  // Every link_speed is "32.0 GT/s PCIe" (Gen5) and every link_width 16.
  EXPECT_EQ(techs_between(t, NodeKind::Gpu, NodeKind::PcieSwitch), std::set<std::string>{"pcie-gen5-x16"});
  EXPECT_EQ(techs_between(t, NodeKind::Nic, NodeKind::PcieSwitch), std::set<std::string>{"pcie-gen5-x16"});
  EXPECT_EQ(techs_between(t, NodeKind::PcieSwitch, NodeKind::Cpu), std::set<std::string>{"pcie-gen5-x16"});
  // GenuineIntel family 6 model 143 is Sapphire Rapids: NCCL's SRP UPI figure.
  EXPECT_EQ(techs_between(t, NodeKind::Cpu, NodeKind::Cpu), std::set<std::string>{"upi-sapphire-rapids"});
  // numaid 0 affinity ffffffff,ffff0000,00000000: bits 48..95; numaid 1 0000ffff,ffffffff: 0..47.
  auto cpus = nodes_of(t, NodeKind::Cpu);
  EXPECT_EQ(cpus[0]->cpu_affinity, "48-95");
  EXPECT_EQ(cpus[1]->cpu_affinity, "0-47");
  // No <net> speed: a Gen5 InfiniBand function is taken as NDR; no device id or sm: a Gen5 GPU
  // link says Hopper. Both are listed with how to override them.
  for (const auto* nic : nodes_of(t, NodeKind::Nic)) EXPECT_EQ(nic->tech, "ib-ndr");
  EXPECT_EQ(t.gpu.model, "H100-SXM5-80GB");
  EXPECT_TRUE(assumed(s, "GPU model", "H100-SXM5-80GB"));
  EXPECT_TRUE(assumed(s, "NIC port technology", "ib-ndr"));
  EXPECT_FALSE(s.not_recovered.empty());  // NIC names are not in the file

  // GPUs and NICs in bus-id order: GPU busids 0001, 0002, 0003, 0008 under numaid 0 and 0009..000c
  // under numaid 1; NICs 0101..0108 in the same bridges; so GPU k shares bridge k with NIC k.
  TopoMatrix m = matrix_of(t);
  for (int k = 0; k < 8; ++k) EXPECT_EQ(cell(m, "GPU" + std::to_string(k), "NIC" + std::to_string(k)), "PIX") << k;
  EXPECT_EQ(cell(m, "GPU0", "NIC1"), "PHB");  // another bridge of the same CPU
  EXPECT_EQ(cell(m, "GPU0", "NIC4"), "SYS");  // the other <cpu>
  EXPECT_EQ(cell(m, "GPU0", "GPU4"), "NV18");  // 5+4+4+5 into the shared chips
}

TEST(ImportNcclXml, AzureNdv4A100Skeleton) {
  REQUIRE_SHARED_DATA();
  ImportedServer s = import_nccl_xml(sample("azure-ndv4-a100-topo.xml"), "azure-ndv4-a100-topo.xml");
  const ServerTemplate& t = s.server;
  // Four <cpu> elements (lines 2, 10, 18, 26), one bridge each, each bridge with 2 GPUs and 2 NICs.
  EXPECT_EQ(t.count(NodeKind::Cpu), 4);
  EXPECT_EQ(t.count(NodeKind::PcieSwitch), 4);
  EXPECT_EQ(t.count(NodeKind::Gpu), 8);
  EXPECT_EQ(t.count(NodeKind::Nic), 8);
  // "16 GT/s" x16 everywhere: Gen4; AMD CPUs; NCCL joins every pair of the 4 <cpu>s: 4*3/2 = 6.
  EXPECT_EQ(techs_between(t, NodeKind::Gpu, NodeKind::PcieSwitch), std::set<std::string>{"pcie-gen4-x16"});
  EXPECT_EQ(techs_between(t, NodeKind::Cpu, NodeKind::Cpu), std::set<std::string>{"amd-infinity-fabric-socket"});
  int cpu_links = 0;
  for (const auto& l : t.links) cpu_links += t.nodes[l.a].kind == NodeKind::Cpu && t.nodes[l.b].kind == NodeKind::Cpu;
  EXPECT_EQ(cpu_links, 6);
  // Gen4 GPU link: Ampere; Gen4 InfiniBand function: HDR (ConnectX-6).
  EXPECT_EQ(t.gpu.arch, "ampere");
  // No <nvlink>: the HGX A100 board's 6 NVSwitch gen2 chips, 2 NVLink3 from every GPU to each.
  EXPECT_EQ(t.count(NodeKind::NvSwitch), 6);
  EXPECT_EQ(techs_between(t, NodeKind::Gpu, NodeKind::NvSwitch), std::set<std::string>{"nvlink3"});
  for (const auto* nic : nodes_of(t, NodeKind::Nic)) EXPECT_EQ(nic->tech, "ib-hdr");
  // Affinities 00ffffff -> 0-23, ff000000|0000ffff -> 24-47, ffff0000|000000ff -> 48-71, ffffff00 -> 72-95.
  auto cpus = nodes_of(t, NodeKind::Cpu);
  EXPECT_EQ(cpus[0]->cpu_affinity, "0-23");
  EXPECT_EQ(cpus[1]->cpu_affinity, "24-47");
  EXPECT_EQ(cpus[2]->cpu_affinity, "48-71");
  EXPECT_EQ(cpus[3]->cpu_affinity, "72-95");
  // Bus order: GPUs 0001,0002 (numaid 1), 0003,0004 (0), 000b,000c (3), 000d,000e (2); NICs
  // 0101,0102 (1), 0103,0104 (0), 0105,0106 (3), 0107,0108 (2). So GPUs 2j and 2j+1 share a bridge
  // with NICs 2j and 2j+1: each GPU is PIX to two NICs, and GPU0 sits on NUMA node 1.
  auto gpus = nodes_of(t, NodeKind::Gpu);
  EXPECT_EQ(gpus[0]->numa, 1);
  EXPECT_EQ(gpus[2]->numa, 0);
  TopoMatrix m = matrix_of(t);
  for (int g = 0; g < 8; ++g)
    for (int n = 0; n < 8; ++n)
      EXPECT_EQ(cell(m, "GPU" + std::to_string(g), "NIC" + std::to_string(n)) == "PIX", g / 2 == n / 2) << g << " " << n;
}

TEST(ImportNcclXml, ImportedServerBuildsAndRoutes) {
  REQUIRE_SHARED_DATA();
  const std::string text = sample("azure-ndv5-h100-topo.xml");
  {
    // With the board's NVSwitch chips: gpu0 -> chip -> gpu1, 2 hops, over any of the 4 chips.
    ImportedServer s = import_nccl_xml(text, "ndv5.xml");
    Cluster c = build_cluster(gftest::spec_of(s.server, 1, "single_switch"));
    Router r(c);
    EXPECT_EQ(r.hashed_path(c.gpu(0), c.gpu(1), 1).links.size(), 2u);
    EXPECT_EQ(r.count_paths(c.gpu(0), c.gpu(1)), 4.0);
  }
  {
    // --nvlink none: PCIe only, as the file alone says. gpu0 -> pcie0 -> cpu0 -> pcie1 -> gpu1.
    ImportOptions o;
    o.nvlink = "none";
    ImportedServer s = import_nccl_xml(text, "ndv5.xml", o);
    EXPECT_EQ(s.server.count(NodeKind::NvSwitch), 0);
    Cluster c = build_cluster(gftest::spec_of(s.server, 1, "single_switch"));
    Router r(c);
    EXPECT_EQ(r.hashed_path(c.gpu(0), c.gpu(1), 1).links.size(), 4u);
    // Across the sockets: gpu0 -> pcie0 -> cpu0 -> cpu1 -> pcie4 -> gpu4, 5 links, held to the
    // Sapphire Rapids UPI figure of 22 GB/s (PCIe Gen5 x16 is 63 GB/s).
    Path q = r.hashed_path(c.gpu(0), c.gpu(4), 1);
    EXPECT_EQ(q.links.size(), 5u);
    EXPECT_DOUBLE_EQ(bottleneck(c, q).to_gBps(), 22.0);
  }
  ImportedServer s = import_nccl_xml(text, "ndv5.xml");
  Cluster c = build_cluster(gftest::spec_of(s.server, 2, "rail_optimized"));
  Router r(c);
  // Server 0's GPU0 to server 1's GPU0 leaves through its PIX NIC (nic0): the bottleneck is the
  // assumed NDR port, 400 Gb/s = 50 GB/s.
  Path p = r.hashed_path(c.gpu(0), c.gpu(8), 1);
  ASSERT_GE(p.links.size(), 4u);
  EXPECT_EQ(c.node_name(c.link(p.links[1]).dst), "server0/nic0");
  EXPECT_DOUBLE_EQ(bottleneck(c, p).to_gBps(), 50.0);
}

// ---- hand-written dumps with GPU and NIC detail ------------------------------------------------

// Two H100s (sm 90) as NCCL_TOPO_DUMP_FILE writes them, listed dev 1 first, joined by 4 direct
// NVLinks (tclass 0x030200: a GPU peer), and one dual-port ConnectX-7 (2 <net>s of 400,000 Mb/s).
const char* kPeerDump = R"(<?xml version="1.0"?>
<system version="1">
  <cpu numaid="0" affinity="0000ffff" arch="x86_64" vendor="GenuineIntel" familyid="6" modelid="85">
    <pci busid="0000:10:00.0" class="0x060400" link_speed="16.0 GT/s PCIe" link_width="16">
      <pci busid="0000:12:00.0" class="0x030200" vendor="0x10de" link_speed="16.0 GT/s PCIe" link_width="16">
        <gpu dev="1" sm="90" rank="1" gdr="1">
          <nvlink target="0000:11:00.0" count="4" tclass="0x030200"/>
        </gpu>
      </pci>
      <pci busid="0000:11:00.0" class="0x030200" vendor="0x10de" link_speed="16.0 GT/s PCIe" link_width="16">
        <gpu dev="0" sm="90" rank="0" gdr="1">
          <nvlink target="0000:12:00.0" count="4" tclass="0x030200"/>
        </gpu>
      </pci>
      <pci busid="0000:13:00.0" class="0x020700" vendor="0x15b3" link_speed="16.0 GT/s PCIe" link_width="16">
        <nic>
          <net name="mlx5_0" dev="0" speed="400000" port="1" latency="0.000000" guid="0x1" maxconn="131072" gdr="1"/>
          <net name="mlx5_1" dev="1" speed="400000" port="2" latency="0.000000" guid="0x2" maxconn="131072" gdr="1"/>
        </nic>
      </pci>
    </pci>
  </cpu>
</system>
)";

TEST(ImportNcclXml, DumpWithDirectNvLinksAndNetPorts) {
  ImportedServer s = import_nccl_xml(kPeerDump, "peer.xml");
  const ServerTemplate& t = s.server;
  EXPECT_EQ(t.count(NodeKind::Gpu), 2);
  EXPECT_EQ(t.count(NodeKind::Nic), 2);  // one node per <net> port
  EXPECT_EQ(t.count(NodeKind::NvSwitch), 0);
  // sm 90: Hopper, so its NVLinks are NVLink4; the pair is mentioned by both GPUs but is one link.
  EXPECT_EQ(t.gpu.arch, "hopper");
  EXPECT_TRUE(assumed(s, "NVLink generation", "nvlink4"));
  int nvlinks = 0;
  for (const auto& l : t.links)
    if (l.tech == "nvlink4") {
      ++nvlinks;
      EXPECT_EQ(l.lanes, 4);
    }
  EXPECT_EQ(nvlinks, 1);
  // <net speed="400000"> on an InfiniBand function (0x0207): NDR; the names become labels.
  auto nics = nodes_of(t, NodeKind::Nic);
  EXPECT_EQ(nics[0]->tech, "ib-ndr");
  EXPECT_EQ(nics[0]->label, "mlx5_0");
  EXPECT_EQ(nics[1]->label, "mlx5_1");
  EXPECT_FALSE(assumed(s, "NIC port technology", ""));  // the file gave the speed
  // Intel family 6 model 85 (Skylake/Cascade Lake) with one socket: no inter-socket link at all.
  EXPECT_TRUE(techs_between(t, NodeKind::Cpu, NodeKind::Cpu).empty());

  Cluster c = build_cluster(gftest::spec_of(t, 1, "single_switch"));
  Router r(c);
  // gpu0 is the dev="0" GPU (bus 11); gpu0 -> gpu1 over the direct link: 4 lanes x 25 GB/s.
  Path p = r.hashed_path(c.gpu(0), c.gpu(1), 1);
  ASSERT_EQ(p.links.size(), 1u);
  EXPECT_DOUBLE_EQ(bottleneck(c, p).to_gBps(), 100.0);
}

// Two A100-class GPUs (sm 80), each with 2 NVLinks to each of two NVSwitch chips (tclass
// 0x068000), as NCCL 2.2x dumps of HGX A100 boards list them (one <nvlink> per chip).
const char* kSwitchDump = R"(<system version="1">
  <cpu numaid="0" affinity="ff" arch="x86_64" vendor="AuthenticAMD" familyid="23" modelid="49">
    <pci busid="0000:47:00.0" class="0x030200" link_speed="16.0 GT/s PCIe" link_width="16">
      <gpu dev="0" sm="80" rank="0" gdr="1">
        <nvlink target="0000:c7:00.0" count="2" tclass="0x068000"/>
        <nvlink target="0000:c8:00.0" count="2" tclass="0x068000"/>
      </gpu>
    </pci>
  </cpu>
  <cpu numaid="1" affinity="ff00" arch="x86_64" vendor="AuthenticAMD" familyid="23" modelid="49">
    <pci busid="0000:87:00.0" class="0x030200" link_speed="16.0 GT/s PCIe" link_width="16">
      <gpu dev="1" sm="80" rank="1" gdr="1">
        <nvlink target="0000:C7:00.0" count="2" tclass="0x068000"/>
        <nvlink target="0000:c8:00.0" count="2" tclass="0x068000"/>
      </gpu>
    </pci>
    <pci busid="0000:88:00.0" class="0x020000" link_speed="16.0 GT/s PCIe" link_width="16">
      <nic>
        <net name="eth0" dev="0" speed="200000" port="0" guid="0x0" maxconn="65536" gdr="0"/>
      </nic>
    </pci>
  </cpu>
</system>
)";

TEST(ImportNcclXml, DumpWithNvSwitchChips) {
  ImportedServer s = import_nccl_xml(kSwitchDump, "switch.xml");
  const ServerTemplate& t = s.server;
  // Two distinct NVSwitch targets (c7 and c8; "C7" is the same bus id) -> two chips.
  EXPECT_EQ(t.count(NodeKind::NvSwitch), 2);
  EXPECT_EQ(techs_between(t, NodeKind::Gpu, NodeKind::NvSwitch), std::set<std::string>{"nvlink3"});  // sm 80: Ampere
  // Ethernet class 0x0200 with guid 0x0: NCCL's socket transport, plain TCP at 200 Gb/s.
  EXPECT_EQ(nodes_of(t, NodeKind::Nic)[0]->tech, "eth-200g-tcp");
  // GPUs on different <cpu>s, but NVLink through either chip: 2 equal routes of 2 hops.
  Cluster c = build_cluster(gftest::spec_of(t, 1, "single_switch"));
  Router r(c);
  EXPECT_EQ(r.hashed_path(c.gpu(0), c.gpu(1), 1).links.size(), 2u);
  EXPECT_EQ(r.count_paths(c.gpu(0), c.gpu(1)), 2.0);
  TopoMatrix m = matrix_of(t);
  EXPECT_EQ(cell(m, "GPU0", "GPU1"), "NV4");  // 2 + 2 NVLinks into the shared chips
}

TEST(ImportNcclXml, OptionsOverrideTheDefaults) {
  REQUIRE_SHARED_DATA();
  ImportOptions o;
  o.gpu = "hgx-h200";     // a server name: its GPU
  o.nic_tech = "ib-xdr";  // for NICs the file gives no speed for
  ImportedServer s = import_nccl_xml(sample("azure-ndv5-h100-topo.xml"), "ndv5.xml", o);
  EXPECT_EQ(s.server.gpu.model, "H200-SXM-141GB");
  for (const auto* nic : nodes_of(s.server, NodeKind::Nic)) EXPECT_EQ(nic->tech, "ib-xdr");
  EXPECT_FALSE(assumed(s, "GPU model", ""));
  EXPECT_FALSE(assumed(s, "NIC port technology", ""));
  ImportOptions bad;
  bad.gpu = "h100-typo";
  EXPECT_THROW(import_nccl_xml(kPeerDump, "peer.xml", bad), InputError);
  ImportOptions bad_nic;
  bad_nic.nic_tech = "ib-ndrr";
  EXPECT_THROW(import_nccl_xml(kPeerDump, "peer.xml", bad_nic), InputError);
}

// ---- damaged files ----------------------------------------------------------------------------

TEST(ImportNcclXml, DamagedCopiesOfTheSampleNameTheLine) {
  REQUIRE_SHARED_DATA();
  const std::string good = sample("azure-ndv5-h100-topo.xml");
  auto line_of = [](const std::string& text, std::string* msg = nullptr) {
    return error_line([&] { import_nccl_xml(text, "ndv5.xml"); }, msg);
  };
  std::string msg;
  // Truncated in the middle of line 8's attributes: the tag opened on line 8 never ends.
  EXPECT_EQ(line_of(cut_after(good, 7, "      <pci busid=\"0002:00:00.0\" class=\"0x030200\" link_sp"), &msg), 8);
  EXPECT_NE(msg.find("ndv5.xml:8"), std::string::npos) << msg;
  // Truncated after line 18: <cpu> (line 2) and <system> (line 1) are left open.
  EXPECT_EQ(line_of(cut_after(good, 18, "")), 19);
  // Line 19 "</cpu>" turned into "</pci>": mismatched, naming <cpu> from line 2.
  EXPECT_EQ(line_of(replace_line(good, 19, "  </pci>"), &msg), 19);
  EXPECT_NE(msg.find("line 2"), std::string::npos) << msg;
  // Line 5's class without quotes.
  EXPECT_EQ(line_of(replace_line(good, 5, "      <pci busid=\"0101:00:00.0\" class=0x020700 link_speed=\"32.0 GT/s PCIe\" link_width=\"16\"/>")), 5);
  // Line 26's link_speed an unknown rate.
  EXPECT_EQ(line_of(replace_line(good, 26, "      <pci busid=\"000a:00:00.0\" class=\"0x030200\" link_speed=\"7.0 GT/s PCIe\" link_width=\"16\"/>"), &msg), 26);
  EXPECT_NE(msg.find("link_speed"), std::string::npos) << msg;
  // Line 4's busid not a PCI address; line 2's numaid not a number.
  EXPECT_EQ(line_of(replace_line(good, 4, "      <pci busid=\"gpu-one\" class=\"0x030200\" link_speed=\"32.0 GT/s PCIe\" link_width=\"16\"/>")), 4);
  EXPECT_EQ(line_of(replace_line(good, 2, "  <cpu numaid=\"zero\" affinity=\"ff\">")), 2);
  // Not an NCCL file, and one without GPUs.
  EXPECT_EQ(line_of("<html>\n</html>\n"), 1);
  EXPECT_EQ(line_of("<system version=\"1\">\n  <cpu numaid=\"0\"/>\n</system>\n"), 1);
}

TEST(ImportNcclXml, EveryTruncationIsAnInputErrorNeverACrash) {
  REQUIRE_SHARED_DATA();
  // Every proper prefix of the sample ends before its closing </system> is complete, so each one
  // must be refused with an InputError (and never read past the end, crash or hang).
  const std::string good = sample("azure-ndv4-a100-topo.xml");
  const size_t complete = good.rfind('>') + 1;
  for (size_t len = 0; len < complete; ++len)
    EXPECT_THROW(import_nccl_xml(good.substr(0, len), "cut.xml"), InputError) << "prefix of " << len << " bytes";
  EXPECT_NO_THROW(import_nccl_xml(good.substr(0, complete), "whole.xml"));
}

TEST(ImportNcclXml, GuidsUseAllSixtyFourBits) {
  // A real dump's NIC GUID, 0x9a70500003ae6d94, is above 2^63: read as unsigned it is a nonzero
  // GUID (an RDMA port), not an error.
  std::string dump = kPeerDump;
  const std::string from = "guid=\"0x1\"";
  dump.replace(dump.find(from), from.size(), "guid=\"0x9a70500003ae6d94\"");
  ImportedServer s = import_nccl_xml(dump, "guid.xml");
  EXPECT_EQ(s.server.count(NodeKind::Nic), 2);
}

}  // namespace
}  // namespace gf
