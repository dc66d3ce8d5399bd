// NCCL topology XML -> ServerTemplate. The schema is NCCL's own (NVIDIA/nccl src/graph/xml.cc
// writes it, src/graph/topo.cc reads it): <system> holds one <cpu numaid affinity vendor familyid
// modelid> per NUMA node; under it nested <pci busid class link_speed link_width> elements form the
// PCIe tree (class 0x0604 bridges are switches; 0x03xx GPUs with a <gpu sm dev> child and its
// <nvlink target count tclass> links; 0x02xx NICs with <nic><net name speed .../></nic>). A file
// written by hand as NCCL_TOPO_FILE (the Azure samples) may stop at the PCI level; what it leaves
// out takes a default from nccl_xml_import_defaults.cpp, listed in ImportedServer::assumed.
#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <set>

#include "core/utf8.hpp"
#include "topology/import/imported_server.hpp"
#include "topology/import/nccl_xml_import_defaults.hpp"
#include "topology/import/storage_nics.hpp"
#include "topology/import/xml_reader.hpp"
#include "topology/link_tech.hpp"

namespace gf {
namespace {

using nccl_xml::NicFamily;

std::string hex6(long v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%06lx", v);
  return b;
}

// Where a PCIe device hangs: a CPU (root complex) or a PCIe switch, by index into their lists.
struct Up {
  bool is_cpu = true;
  int index = 0;
  std::string tech;  // the PCIe technology of the link above the parent ("" for a CPU)
};

struct CpuRec {
  int numa = 0;
  std::string cores;
  std::string vendor;
  int family = -1, model = -1;
};
struct SwitchRec {
  int numa = 0;
  Up up;
  std::string tech;  // link to `up`
};
struct NvLinkRec {
  uint64_t target = 0;
  std::string target_text;
  int count = 0;
  long tclass = 0;
  int line = 0;
};
struct GpuRec {
  int numa = 0;
  Up up;
  std::string tech;
  uint64_t bus = 0;
  int dev = -1, sm = -1, gen = 0, line = 0;
  long device = -1;
  bool c2c = false;
  std::vector<NvLinkRec> nvlinks;
};
struct NicRec {
  int numa = 0;
  Up up;
  std::string tech;  // PCIe link to `up`
  uint64_t bus = 0;
  int sub = 0;       // port index within one PCI function
  int dev = -1, gen = 0, line = 0;
  std::string name;
  double mbps = -1;  // -1: the file gives no speed
  NicFamily family = NicFamily::Ethernet;
  bool rdma = true;
};

class Importer {
 public:
  Importer(const std::string& file, const ImportOptions& opt) : file_(file), opt_(opt) {}

  ImportedServer run(const std::string& text) {
    XmlElement root = read_xml(text, file_);
    if (root.name != "system")
      throw InputError(at(root.line), root.name, "the root element is <" + root.name + ">, not <system>",
                       "an NCCL topology file (NCCL_TOPO_FILE / NCCL_TOPO_DUMP_FILE) starts with <system version=\"1\">");
    check_options();
    for (const auto& e : root.children) {
      if (e.name == "cpu") cpu(e);
      else ignored(e);
    }
    if (gpus_.empty())
      throw InputError(at(root.line), "system", "the file lists no GPU",
                       "GPUs are <pci> elements of class 0x0302 (or 0x0300) under a <cpu>");
    return build();
  }

 private:
  SourceLocation at(int line) const { return {file_, line, 0}; }

  // Flags are checked before the file is read, as the nvidia-smi importer does (import_profile.cpp):
  // the name must exist and be of the right family.
  void check_options() const {
    LinkCatalog cat = LinkCatalog::builtin();
    auto check = [&](const std::string& v, const char* flag, std::initializer_list<LinkFamily> families, const char* what) {
      if (v.empty()) return;
      auto id = cat.find(v);
      bool ok = id && std::find(families.begin(), families.end(), cat.tech(*id).family) != families.end();
      if (!ok) {
        std::vector<std::string> valid;
        for (const auto& name : cat.tech_names()) {
          LinkFamily f = cat.tech(*cat.find(name)).family;
          if (std::find(families.begin(), families.end(), f) != families.end()) valid.push_back(name);
        }
        throw InputError({}, flag, "'" + v + "' is not " + what, suggest(v, valid));
      }
    };
    check(opt_.pcie, "--pcie", {LinkFamily::Pcie}, "a PCIe technology");
    check(opt_.nic_tech, "--nic-tech",
          {LinkFamily::InfiniBand, LinkFamily::RoCE, LinkFamily::EthernetTcp, LinkFamily::Efa}, "a network port technology");
    if (opt_.nvlink != "none") check(opt_.nvlink, "--nvlink", {LinkFamily::NvLink}, "an NVLink technology (or none)");
  }

  void ignored(const XmlElement& e) {
    std::string what = "<" + e.name + "> elements (first at line " + std::to_string(e.line) + "): not part of the model";
    if (ignored_names_.insert(e.name).second) out_.not_recovered.push_back(what);
  }

  const XmlAttr& need(const XmlElement& e, const char* name, const char* hint) const {
    const XmlAttr* a = e.attr(name);
    if (!a) throw InputError(at(e.line), name, "<" + e.name + "> has no " + name + " attribute", hint);
    return *a;
  }
  int as_int(const XmlAttr& a) const {
    size_t used = 0;
    int v = 0;
    try {
      v = std::stoi(a.value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != a.value.size())
      throw InputError(at(a.line), a.name, "expected a whole number, got '" + a.value + "'", "NCCL writes this attribute itself: check the file was not edited or cut short");
    return v;
  }
  // NCCL writes ids, classes and GUIDs as 0x-prefixed hex; a GUID fills all 64 bits
  // (0x9a70500003ae6d94 in a real dump), so they are read as unsigned 64-bit.
  uint64_t as_hex(const XmlAttr& a) const {
    size_t used = 0;
    uint64_t v = 0;
    if (a.value.rfind("0x", 0) == 0 || a.value.rfind("0X", 0) == 0) {
      try {
        v = std::stoull(a.value.substr(2), &used, 16);
      } catch (const std::exception&) {
        used = 0;
      }
    }
    if (used == 0 || used + 2 != a.value.size())
      throw InputError(at(a.line), a.name, "expected a hexadecimal number such as 0x060400, got '" + a.value + "'", "NCCL writes this attribute itself: check the file was not edited or cut short");
    return v;
  }
  // "0000:17:00.0" (domain:bus:device.function, hex) as one ordered key.
  uint64_t busid(const XmlAttr& a) const {
    unsigned long long dom = 0, bus = 0, dev = 0, fn = 0;
    int consumed = 0;
    if (std::sscanf(a.value.c_str(), "%llx:%llx:%llx.%llx%n", &dom, &bus, &dev, &fn, &consumed) != 4 ||
        consumed != static_cast<int>(a.value.size()) || bus > 0xff || dev > 0xff || fn > 0xf || dom > 0xffffffffULL)
      throw InputError(at(a.line), a.name, "expected a PCI bus id such as 0000:17:00.0, got '" + a.value + "'", "NCCL writes this attribute itself: check the file was not edited or cut short");
    return dom << 24 | bus << 16 | dev << 8 | fn;
  }

  void cpu(const XmlElement& e) {
    CpuRec c;
    const XmlAttr& numa = need(e, "numaid", "NCCL writes <cpu numaid=\"0\" affinity=\"...\">");
    c.numa = as_int(numa);
    for (const auto& other : cpus_)
      if (other.numa == c.numa)
        throw InputError(at(numa.line), "numaid", "NUMA node " + numa.value + " is listed twice", "give every <cpu> its own numaid");
    if (const XmlAttr* aff = e.attr("affinity")) {
      auto cores = nccl_xml::cores_of_mask(aff->value);
      if (!cores)
        throw InputError(at(aff->line), "affinity", "expected a cpumask of hex words such as ffffffff,00000000, got '" + aff->value + "'", "NCCL writes this attribute itself: check the file was not edited or cut short");
      c.cores = *cores;
    }
    if (const XmlAttr* v = e.attr("vendor")) c.vendor = v->value;
    if (const XmlAttr* f = e.attr("familyid")) c.family = as_int(*f);
    if (const XmlAttr* m = e.attr("modelid")) c.model = as_int(*m);
    cpus_.push_back(c);
    int index = static_cast<int>(cpus_.size()) - 1;
    for (const auto& child : e.children) below(child, Up{true, index, ""}, c.numa);
  }

  // A child of a <cpu> or of a bridge <pci>.
  void below(const XmlElement& e, const Up& up, int numa) {
    if (e.name == "pci") {
      pci(e, up, numa);
    } else if (e.name == "nic") {
      // A NIC with no PCI function of its own (NCCL lists the socket transport's interface this
      // way, directly under <cpu>): joined to its parent by the parent's PCIe technology.
      NicRec base;
      base.numa = numa;
      base.up = up;
      base.tech = fallback_pcie(up);
      ++unstated_pcie_;
      base.line = e.line;
      base.bus = ~0ULL;
      nics_of(e, base);
    } else {
      ignored(e);
    }
  }

  // The link above a <pci> element, from its own link_speed and link_width.
  std::string link_tech(const XmlElement& e, const Up& up, int& gen) {
    const XmlAttr* speed = e.attr("link_speed");
    const XmlAttr* width = e.attr("link_width");
    gen = 0;
    if (speed) {
      gen = nccl_xml::pcie_gen_of_speed(speed->value);
      if (gen == 0)
        throw InputError(at(speed->line), "link_speed", "unknown PCIe link speed '" + speed->value + "'",
                         "NCCL writes the sysfs rate: 2.5, 5, 8, 16, 32 or 64 GT/s (e.g. \"32.0 GT/s PCIe\")");
    }
    int w = 0;
    if (width) {
      w = as_int(*width);
      static const std::set<int> kWidths = {0, 1, 2, 4, 8, 12, 16, 32};
      if (!kWidths.count(w))
        throw InputError(at(width->line), "link_width", "PCIe links are x1, x2, x4, x8, x12, x16 or x32, got " + width->value,
                         "0 means unknown; NCCL writes the sysfs max_link_width");
    }
    if (gen == 0 || w == 0) {  // not stated (or width 0: sysfs did not say)
      ++unstated_pcie_;
      return fallback_pcie(up);
    }
    bool adjusted = false;
    std::string tech = nccl_xml::pcie_tech(gen, w, adjusted);
    if (adjusted) {
      std::string what = "PCIe Gen" + std::to_string(gen) + " x" + std::to_string(w) + " links";
      if (adjusted_pcie_.insert(what).second)
        out_.assumed.push_back({what + " (first at line " + std::to_string(e.line) + ")", tech,
                                "the catalog models PCIe Gen3..Gen6 at x4, x8 and x16; this is its nearest link",
                                "edit the link in the printed cluster YAML"});
    }
    return tech;
  }
  std::string fallback_pcie(const Up& up) const {
    if (!opt_.pcie.empty()) return opt_.pcie;
    if (!up.tech.empty()) return up.tech;
    return kDefaultPcie;
  }

  void pci(const XmlElement& e, const Up& up, int numa) {
    const char* hint = "NCCL writes <pci busid=\"0000:17:00.0\" class=\"0x030200\" link_speed=... link_width=...>";
    const uint64_t cls = as_hex(need(e, "class", hint));
    uint64_t bus = busid(need(e, "busid", hint));
    if ((cls >> 8) == 0x0680) return;  // an NVSwitch's PCI function: the chip is made from the GPUs' <nvlink>s
    int gen = 0;
    std::string tech = link_tech(e, up, gen);
    if ((cls >> 8) == 0x0604) {
      switches_.push_back({numa, up, tech});
      Up here{false, static_cast<int>(switches_.size()) - 1, tech};
      for (const auto& child : e.children) below(child, here, numa);
    } else if ((cls >> 16) == 0x03) {
      GpuRec g;
      g.numa = numa;
      g.up = up;
      g.tech = tech;
      g.bus = bus;
      g.gen = gen;
      g.line = e.line;
      if (const XmlAttr* d = e.attr("device")) g.device = as_hex(*d);
      for (const auto& child : e.children) {
        if (child.name == "gpu") gpu_details(child, g);
        else ignored(child);
      }
      gpus_.push_back(std::move(g));
    } else if ((cls >> 16) == 0x02) {
      NicRec base;
      base.numa = numa;
      base.up = up;
      base.tech = tech;
      base.bus = bus;
      base.gen = gen;
      base.line = e.line;
      long vendor = -1;
      if (const XmlAttr* v = e.attr("vendor")) vendor = as_hex(*v);
      base.family = nccl_xml::nic_family(cls, vendor);
      size_t before = nics_.size();
      for (const auto& child : e.children) {
        if (child.name == "nic") nics_of(child, base);
        else ignored(child);
      }
      if (nics_.size() == before) {  // a bare PCI function: one port, details unknown
        base.rdma = true;
        nics_.push_back(base);
      }
    } else {
      std::string what = "PCI devices of class " + need(e, "class", hint).value + " (first at line " +
                         std::to_string(e.line) + "): neither GPU, NIC nor bridge";
      if (ignored_names_.insert("class " + need(e, "class", hint).value).second) out_.not_recovered.push_back(what);
    }
  }

  void gpu_details(const XmlElement& e, GpuRec& g) {
    if (const XmlAttr* d = e.attr("dev")) g.dev = as_int(*d);
    if (const XmlAttr* s = e.attr("sm")) g.sm = as_int(*s);
    const char* hint = "NCCL writes <nvlink target=\"0000:c7:00.0\" count=\"2\" tclass=\"0x068000\"/>";
    for (const auto& child : e.children) {
      if (child.name == "nvlink") {
        NvLinkRec l;
        const XmlAttr& target = need(child, "target", hint);
        l.target = busid(target);
        l.target_text = target.value;
        const XmlAttr& count = need(child, "count", hint);
        l.count = as_int(count);
        if (l.count <= 0 || l.count > kMaxNvLinksPerGpu)
          throw InputError(at(count.line), "count",
                           "an NVLink count must be 1.." + std::to_string(kMaxNvLinksPerGpu) + " (no GPU has more " +
                               "NVLinks: H100, H200 and B200 have 18), got " + count.value,
                           "NCCL writes the links between two devices, e.g. count=\"18\" from a GPU to an NVSwitch");
        l.tclass = as_hex(need(child, "tclass", hint));
        l.line = child.line;
        g.nvlinks.push_back(l);
      } else if (child.name == "c2c") {
        g.c2c = true;
      } else {
        ignored(child);
      }
    }
  }

  // One NIC node per <net> (a port); a <nic> without <net> is one port of unknown speed.
  void nics_of(const XmlElement& nic, const NicRec& base) {
    int sub = 0;
    for (const auto& net : nic.children) {
      if (net.name != "net") {
        ignored(net);
        continue;
      }
      NicRec n = base;
      n.sub = sub++;
      n.line = net.line;
      if (const XmlAttr* a = net.attr("name")) n.name = a->value;
      if (const XmlAttr* a = net.attr("dev")) n.dev = as_int(*a);
      if (const XmlAttr* a = net.attr("speed")) {
        n.mbps = as_int(*a);
        if (n.mbps <= 0) throw InputError(at(a->line), "speed", "a port speed (Mb/s) must be positive, got " + a->value, "NCCL writes speed=\"400000\" for a 400 Gb/s port");
      }
      // Verbs devices (InfiniBand, RoCE, EFA) carry a port GUID; NCCL's socket transport writes
      // guid="0x0" for a plain TCP interface.
      if (n.family == NicFamily::Ethernet) {
        const XmlAttr* guid = net.attr("guid");
        n.rdma = guid ? as_hex(*guid) != 0 : n.name.rfind("mlx5", 0) == 0;
      }
      nics_.push_back(n);
    }
    if (sub == 0) {
      NicRec n = base;
      nics_.push_back(n);
    }
  }

  ImportedServer build();
  std::string nic_tech(const NicRec& n);

  static constexpr const char* kDefaultPcie = "pcie-gen4-x16";

  const std::string& file_;
  const ImportOptions& opt_;
  ImportedServer out_;
  std::vector<CpuRec> cpus_;
  std::vector<SwitchRec> switches_;
  std::vector<GpuRec> gpus_;
  std::vector<NicRec> nics_;
  std::set<std::string> ignored_names_, adjusted_pcie_;
  std::map<std::string, std::pair<std::string, int>> nic_defaults_;  // why -> (tech, NICs)
  int unstated_pcie_ = 0;
};

std::string Importer::nic_tech(const NicRec& n) {
  if (n.mbps > 0) {
    bool nearest = false;
    std::string tech = nccl_xml::nic_tech_for_speed(n.family, n.rdma, n.mbps, nearest);
    if (nearest)
      out_.assumed.push_back({"port speed of NIC " + (n.name.empty() ? "at line " + std::to_string(n.line) : n.name), tech,
                              std::to_string(static_cast<long>(n.mbps)) + " Mb/s is no rate of the catalog; this is the nearest",
                              "edit the NIC's tech in the printed cluster YAML"});
    return tech;
  }
  if (!opt_.nic_tech.empty()) return opt_.nic_tech;
  std::string why;
  std::string tech = nccl_xml::nic_tech_default(n.family, n.gen, why);
  auto& entry = nic_defaults_[why];
  entry.first = tech;
  ++entry.second;
  return tech;
}

ImportedServer Importer::build() {
  ImportedServer& out = out_;
  out.format = "NCCL topology XML";
  ServerTemplate& t = out.server;
  // Name the server after the file ("azure-ndv5-h100-topo.xml" -> "azure-ndv5-h100-topo").
  std::string base = file_.substr(file_.find_last_of('/') == std::string::npos ? 0 : file_.find_last_of('/') + 1);
  if (base.size() > 4 && base.substr(base.size() - 4) == ".xml") base.resize(base.size() - 4);
  t.name = base.empty() ? "nccl-xml-import" : base;
  t.source = "NCCL topology XML " + file_ + " (schema: NVIDIA/nccl src/graph/xml.cc, topo.cc)";

  // GPUs in CUDA order where the file numbers them all (<gpu dev>), else in PCI bus order, the
  // order nvidia-smi and CUDA_DEVICE_ORDER=PCI_BUS_ID number them in.
  auto all_numbered = [](const auto& v) {
    std::set<int> devs;
    for (const auto& x : v)
      if (x.dev < 0 || !devs.insert(x.dev).second) return false;
    return true;
  };
  bool gpu_dev = all_numbered(gpus_);
  std::stable_sort(gpus_.begin(), gpus_.end(), [&](const GpuRec& a, const GpuRec& b) {
    return gpu_dev ? a.dev < b.dev : a.bus < b.bus;
  });
  for (size_t i = 1; i < gpus_.size(); ++i)
    if (gpus_[i].bus == gpus_[i - 1].bus)
      throw InputError(at(gpus_[i].line), "busid", "two GPUs share one PCI bus id (lines " + std::to_string(gpus_[i - 1].line) +
                       " and " + std::to_string(gpus_[i].line) + ")", "give every GPU's <pci> its own busid");
  bool nic_dev = all_numbered(nics_);
  std::stable_sort(nics_.begin(), nics_.end(), [&](const NicRec& a, const NicRec& b) {
    if (nic_dev) return a.dev < b.dev;
    return a.bus != b.bus ? a.bus < b.bus : a.sub < b.sub;
  });

  // The GPU model: the user's, or the best clue in the file (the first GPU's).
  nccl_xml::GpuChoice gpu;
  if (!opt_.gpu.empty()) {
    gpu = nccl_xml::gpu_from_option(opt_.gpu);
  } else {
    const GpuRec& g = gpus_.front();
    gpu = nccl_xml::gpu_from_evidence({g.device, g.sm, g.gen});
    out.assumed.push_back({"GPU model", gpu.value, gpu.why, "--gpu MODEL|SERVER"});
  }
  t.gpu = gpu.spec;
  for (const auto& g : gpus_)
    if (g.device != gpus_.front().device || g.sm != gpus_.front().sm) {
      out.not_recovered.push_back("GPUs of different models (lines " + std::to_string(gpus_.front().line) + " and " +
                                  std::to_string(g.line) + "): all are modelled as " + t.gpu.model);
      break;
    }

  // NVSwitch chips: one per distinct NVSwitch-class target of the GPUs' <nvlink>s (NCCL 2.2x dumps
  // name each chip's bus id; newer ones, and systems where the chips are hidden, one virtual id).
  std::map<uint64_t, int> nvswitch;
  bool any_nvlink = false;
  for (const auto& g : gpus_)
    for (const auto& l : g.nvlinks) {
      any_nvlink = true;
      if ((l.tclass >> 8) == 0x0680) nvswitch.emplace(l.target, 0);
    }
  const bool no_nvlink = opt_.nvlink == "none";
  std::string nvlink = no_nvlink ? "" : opt_.nvlink;
  if (any_nvlink && nvlink.empty()) {
    nvlink = nccl_xml::nvlink_tech_for_arch(t.gpu.arch);
    std::string why = "NCCL's <nvlink> gives the number of links, not their generation; taken from the GPU (" +
                      t.gpu.model + ", " + t.gpu.arch + ")";
    if (nvlink.empty()) {
      nvlink = "nvlink4";
      why = "NCCL's <nvlink> gives the number of links, not their generation, and the GPU's architecture (" +
            t.gpu.arch + ") has none we know";
    }
    out.assumed.push_back({"NVLink generation", nvlink, why, "--nvlink TECH"});
  }
  // A skeleton without <nvlink> (NCCL reads NVLink from NVML at run time): an SXM GPU sits on its
  // baseboard with that board's NVSwitch chips, so take the board of the server the GPU came from.
  nccl_xml::BoardNvLink board;
  if (!any_nvlink && !no_nvlink) {
    board = nccl_xml::board_nvlink(gpu.server, static_cast<int>(gpus_.size()));
    if (board.chips > 0) {
      if (!opt_.nvlink.empty()) board.tech = opt_.nvlink;
      std::string split;
      for (int l : board.lanes) split += (split.empty() ? "" : "/") + std::to_string(l);
      out.assumed.push_back({"NVLink", std::to_string(board.chips) + " NVSwitch chips, " + board.tech + " x" + split +
                                           " from every GPU (as " + gpu.server + ")",
                             "the file has no <gpu><nvlink> elements (NCCL fills them in from NVML at run time); " +
                                 std::to_string(gpus_.size()) + " " + t.gpu.model + " sit on the NVSwitch baseboard of " +
                                 gpu.server,
                             "--nvlink TECH|none"});
    } else {
      out.not_recovered.push_back("NVLink: the file has no <gpu><nvlink> elements (NCCL adds them at run time) and no "
                                  "built-in board matches; the GPUs are joined over PCIe only");
    }
  }

  // Nodes: CPUs, PCIe switches, NVSwitch chips, GPUs, NICs.
  const int cpu0 = 0;
  for (const auto& c : cpus_) t.nodes.push_back({"cpu" + std::to_string(c.numa), NodeKind::Cpu, c.numa, -1, "", c.cores, ""});
  const int sw0 = static_cast<int>(t.nodes.size());
  for (size_t i = 0; i < switches_.size(); ++i)
    t.nodes.push_back({"pcie" + std::to_string(i), NodeKind::PcieSwitch, switches_[i].numa, -1, "", "", ""});
  int nvs_index = 0;
  for (auto& [key, node] : nvswitch) {
    node = static_cast<int>(t.nodes.size());
    t.nodes.push_back({"nvswitch" + std::to_string(nvs_index++), NodeKind::NvSwitch, -1, -1, "", "", ""});
  }
  const int board0 = static_cast<int>(t.nodes.size());
  for (int k = 0; k < board.chips; ++k)
    t.nodes.push_back({"nvswitch" + std::to_string(nvs_index++), NodeKind::NvSwitch, -1, -1, "", "", ""});
  const int gpu0 = static_cast<int>(t.nodes.size());
  for (size_t i = 0; i < gpus_.size(); ++i)
    t.nodes.push_back({"gpu" + std::to_string(i), NodeKind::Gpu, gpus_[i].numa, -1, "", "", ""});
  const int nic0 = static_cast<int>(t.nodes.size());
  bool unnamed_nic = false;
  for (size_t i = 0; i < nics_.size(); ++i) {
    unnamed_nic |= nics_[i].name.empty();
    t.nodes.push_back({"nic" + std::to_string(i), NodeKind::Nic, nics_[i].numa, static_cast<int>(i), nic_tech(nics_[i]), "",
                       nics_[i].name});
  }
  auto up_node = [&](const Up& u) { return u.is_cpu ? cpu0 + u.index : sw0 + u.index; };

  // Links: PCIe tree, sockets, NVLink, then NIC attachments.
  for (size_t i = 0; i < switches_.size(); ++i)
    t.links.push_back({sw0 + static_cast<int>(i), up_node(switches_[i].up), switches_[i].tech, 1});
  if (cpus_.size() > 1) {
    std::string why;
    bool assumed = false;
    std::string sock = nccl_xml::socket_link_tech(cpus_[0].vendor, cpus_[0].family, cpus_[0].model, why, assumed);
    if (assumed) out.assumed.push_back({"link between CPUs", sock, why, "edit the cpu-cpu links in the printed cluster YAML"});
    // NCCL joins every pair of <cpu> elements by one SYS link (topo.cc ncclTopoConnectCpus), NUMA
    // nodes of one socket included; so do we, and nvidia-smi's view of them is SYS.
    for (size_t a = 0; a < cpus_.size(); ++a)
      for (size_t b = a + 1; b < cpus_.size(); ++b)
        t.links.push_back({cpu0 + static_cast<int>(a), cpu0 + static_cast<int>(b), sock, 1});
  }
  std::map<uint64_t, int> gpu_by_bus;
  for (size_t i = 0; i < gpus_.size(); ++i) gpu_by_bus[gpus_[i].bus] = gpu0 + static_cast<int>(i);
  std::map<std::pair<int, int>, int> peer_lanes;  // GPU pair -> lanes, to add each direct link once
  for (size_t i = 0; i < gpus_.size(); ++i) {
    const GpuRec& g = gpus_[i];
    int node = gpu0 + static_cast<int>(i);
    // Grace Hopper / Grace Blackwell: a GPU hung straight off its CPU with a <c2c> child talks to
    // it over NVLink-C2C, not PCIe.
    bool c2c = g.c2c && g.up.is_cpu;
    if (g.c2c && !c2c) out.not_recovered.push_back("the NVLink-C2C of the GPU at line " + std::to_string(g.line) +
                                                   ": its <pci> is not directly under its <cpu>");
    t.links.push_back({node, up_node(g.up), c2c ? "nvlink-c2c" : g.tech, 1});
    for (int k = 0; k < board.chips; ++k) t.links.push_back({node, board0 + k, board.tech, board.lanes[k]});
    if (no_nvlink) continue;
    for (const auto& l : g.nvlinks) {
      if ((l.tclass >> 8) == 0x0680) {
        t.links.push_back({node, nvswitch.at(l.target), nvlink, l.count});
      } else if ((l.tclass >> 16) == 0x03) {
        auto peer = gpu_by_bus.find(l.target);
        if (peer == gpu_by_bus.end()) {
          out.not_recovered.push_back("NVLink at line " + std::to_string(l.line) + " to GPU " + l.target_text +
                                      ", which the file does not list");
          continue;
        }
        std::pair<int, int> key{std::min(node, peer->second), std::max(node, peer->second)};
        auto [it, fresh] = peer_lanes.emplace(key, l.count);
        if (fresh) t.links.push_back({node, peer->second, nvlink, l.count});
        else if (it->second != l.count)
          out.not_recovered.push_back("NVLink at line " + std::to_string(l.line) + " counts " + std::to_string(l.count) +
                                      " links where the other GPU counts " + std::to_string(it->second) + "; kept " +
                                      std::to_string(it->second));
      } else {
        out.not_recovered.push_back("NVLink at line " + std::to_string(l.line) + " to a device of class " +
                                    hex6(l.tclass) + " (a CPU's NVLink, IBM POWER): not modelled");
      }
    }
  }
  for (size_t i = 0; i < nics_.size(); ++i)
    t.links.push_back({nic0 + static_cast<int>(i), up_node(nics_[i].up), nics_[i].tech, 1});
  // Storage ports: NICs with no GPU under their PCIe switch (the top switch below the CPU), or,
  // for a NIC straight on a root port, no GPU straight on that CPU's root ports (PHB)
  // (topology/import/storage_nics.hpp). A place is a top switch s (s >= 0) or a CPU c (-1 - c).
  auto place_of = [&](Up u) {
    for (int guard = 0; guard <= static_cast<int>(switches_.size()); ++guard) {
      if (u.is_cpu) return -1 - u.index;
      const Up& above = switches_[static_cast<size_t>(u.index)].up;
      if (above.is_cpu) return u.index;
      u = above;
    }
    return -1 - u.index;  // a loop of switches: not a real tree, treated as on the CPU
  };
  std::set<int> gpu_places;
  for (const auto& g : gpus_) gpu_places.insert(place_of(g.up));
  std::vector<std::pair<int, NicPlace>> places;
  for (size_t i = 0; i < nics_.size(); ++i)
    places.emplace_back(nic0 + static_cast<int>(i),
                        gpu_places.count(place_of(nics_[i].up)) ? NicPlace::BesideGpu : NicPlace::AwayFromGpus);
  if (std::string note = mark_storage_nics(t, places); !note.empty()) out.not_recovered.push_back(note);

  // What the file left out.
  if (unstated_pcie_ > 0 && opt_.pcie.empty())
    out.assumed.push_back({"PCIe links without link_speed/link_width (" + std::to_string(unstated_pcie_) + ")",
                           "the link above them, or " + std::string(kDefaultPcie),
                           "NCCL writes 0 or nothing when sysfs does not report the link", "--pcie TECH"});
  for (const auto& [why, tech_count] : nic_defaults_)
    out.assumed.push_back({"NIC port technology (" + std::to_string(tech_count.second) + " NICs)", tech_count.first, why,
                           "--nic-tech TECH"});
  if (unnamed_nic) out.not_recovered.push_back("NIC device names (mlx5_N): the file has no <net name> for some NICs");
  if (nics_.empty()) out.not_recovered.push_back("NICs: the file lists none, so the server has no scale-out port");

  t.description = "Imported from NCCL topology XML: " + std::to_string(gpus_.size()) + " GPUs (" + t.gpu.model + "), " +
                  std::to_string(nics_.size()) + " NICs, " + std::to_string(cpus_.size()) + " NUMA nodes, " +
                  std::to_string(switches_.size()) + " PCIe switches";
  t.validate(LinkCatalog::builtin(), at(0));
  return std::move(out);
}

}  // namespace

ImportedServer import_nccl_xml(const std::string& text, const std::string& file, const ImportOptions& opt) {
  require_utf8(text, file);  // names end up in JSON reports (core/utf8.hpp)
  return Importer(file, opt).run(text);
}

}  // namespace gf
