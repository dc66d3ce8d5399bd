#include "topology/import/nccl_xml_import_defaults.hpp"

#include <cmath>
#include <cstdlib>
#include <vector>

#include "core/error.hpp"
#include "topology/import/import_profile.hpp"
#include "topology/server_registry.hpp"

namespace gf::nccl_xml {

int pcie_gen_of_speed(std::string_view link_speed) {
  // NCCL reads the rate from sysfs max_link_speed ("16.0 GT/s PCIe"; older kernels "16 GT/s") and
  // maps 2.5/5/8/16/32 GT/s to its bandwidth codes 15/30/60/120/240 (src/graph/topo.cc,
  // ncclTopoAddPci); 64 GT/s is Gen6 (PCIe 6.0), as NCCL's recent dumps print on Gen6 hosts.
  std::string s(link_speed);
  const char* begin = s.c_str();
  while (*begin == ' ') ++begin;
  char* end = nullptr;
  double gts = std::strtod(begin, &end);
  if (end == begin) return 0;
  std::string_view rest(end);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  if (rest.substr(0, 4) != "GT/s") return 0;
  struct Rate { double gts; int gen; };
  for (Rate r : {Rate{2.5, 1}, Rate{5, 2}, Rate{8, 3}, Rate{16, 4}, Rate{32, 5}, Rate{64, 6}})
    if (std::abs(gts - r.gts) < 1e-6) return r.gen;
  return 0;
}

std::string pcie_tech(int gen, int width, bool& adjusted) {
  adjusted = false;
  int g = gen, w = width;
  if (g < 3) g = 3;
  if (g > 6) g = 6;
  if (w < 4) w = 4;
  else if (w > 16) w = 16;
  else if (w != 4 && w != 8 && w != 16) w = w < 8 ? 4 : 8;  // x12: the catalog's next lower width
  adjusted = g != gen || w != width;
  return "pcie-gen" + std::to_string(g) + "-x" + std::to_string(w);
}

std::string socket_link_tech(const std::string& vendor, int family, int model, std::string& why, bool& assumed) {
  assumed = false;
  if (vendor == "GenuineIntel") {
    // x86 family 6 model 0x8F = Sapphire Rapids, 0xCF = Emerald Rapids (Intel SDM vol. 4, table
    // 2-1); NCCL gives both its SRP/ERP UPI figure, the catalog has the SRP one.
    if (family == 6 && (model == 143 || model == 207)) {
      why = "Intel family 6 model " + std::to_string(model) + " (Sapphire/Emerald Rapids)";
      return "upi-sapphire-rapids";
    }
    why = "Intel CPU before Sapphire Rapids (family " + std::to_string(family) + " model " + std::to_string(model) + ")";
    return "upi-skylake";
  }
  if (vendor == "AuthenticAMD") {
    why = "AMD CPU";
    return "amd-infinity-fabric-socket";
  }
  assumed = true;
  why = vendor.empty() ? "the <cpu> elements name no vendor" : "no inter-socket figure for CPU vendor '" + vendor + "'";
  return "upi-skylake";
}

namespace {

GpuSpec gpu_of_server(const char* server) {
  const ServerPreset* p = find_server(server);
  return p ? p->make().gpu : GpuSpec{};
}

GpuChoice choice(const std::string& server, std::string why) {
  GpuSpec g = gpu_of_server(server.c_str());
  std::string value = g.model + " (as " + server + ")";
  return {std::move(g), server, std::move(value), std::move(why)};
}

std::string hex(long v) {
  static const char* d = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), d[v & 15]);
    v >>= 4;
  } while (v > 0);
  while (s.size() < 4) s.insert(s.begin(), '0');
  return "0x" + s;
}

}  // namespace

GpuChoice gpu_from_evidence(const GpuEvidence& e) {
  // NVIDIA PCI device ids, from the PCI ID Repository (pci-ids.ucw.cz, vendor 10de); the GPU's
  // figures are those of the built-in server built on it, so no datasheet figure is repeated here.
  struct ById { long id; const char* server; const char* name; };
  static const ById kIds[] = {
      {0x20b0, "oci-a100", "A100 SXM4 40GB"}, {0x20b2, "hgx-a100", "A100 SXM4 80GB"},
      {0x2330, "dgx-h100", "H100 SXM5 80GB"}, {0x2335, "hgx-h200", "H200 SXM 141GB"},
      {0x26b9, "pcie-8gpu", "L40S"},          {0x2684, "pcie-8gpu-rootport", "GeForce RTX 4090"}};
  for (const auto& k : kIds)
    if (e.device_id == k.id)
      return choice(k.server, "PCI device id " + hex(k.id) + " is the " + k.name + " (PCI ID Repository)");
  // CUDA compute capability, as NCCL's <gpu sm> writes it (major*10 + minor); the model within an
  // architecture (memory size) is not in the file.
  struct BySm { int sm; const char* server; const char* arch; };
  static const BySm kSms[] = {{80, "hgx-a100", "Ampere A100"}, {89, "pcie-8gpu", "Ada"},
                              {90, "dgx-h100", "Hopper H100"}, {100, "dgx-b200", "Blackwell B200"},
                              {103, "oci-b300", "Blackwell Ultra B300"}};
  for (const auto& k : kSms)
    if (e.sm == k.sm)
      return choice(k.server, "<gpu sm=\"" + std::to_string(k.sm) + "\"> is compute capability " +
                                  std::to_string(k.sm / 10) + "." + std::to_string(k.sm % 10) + " (" + k.arch +
                                  "); the memory size is not in the file");
  // The GPU's own PCIe link: H100 is NVIDIA's first data-center GPU on PCIe Gen5 (H100 datasheet:
  // PCIe Gen5 128 GB/s), A100 is Gen4 (A100 datasheet: PCIe Gen4 64 GB/s).
  if (e.pcie_gen == 5)
    return choice("dgx-h100", "the GPU's PCIe link is Gen5 (32 GT/s), which places it in the Hopper "
                              "generation; the file gives no device id or compute capability");
  if (e.pcie_gen == 4)
    return choice("hgx-a100", "the GPU's PCIe link is Gen4 (16 GT/s), which places it in the Ampere "
                              "generation; the file gives no device id or compute capability (40GB or 80GB "
                              "cannot be told)");
  return choice("dgx-h100", "the file gives no device id, compute capability or PCIe rate for the GPU");
}

GpuChoice gpu_from_option(const std::string& name) {
  GpuSpec g = find_gpu(name, "--gpu");  // throws for an unknown name, with suggestions
  // The server whose board stands in for missing NVLink: the named one, or the first built on it.
  std::string server;
  if (find_server(name)) server = name;
  for (const auto& s : server_registry())
    if (server.empty() && s.make().gpu.model == g.model) server = s.name;
  std::string value = g.model + (server.empty() ? "" : " (as " + server + ")");
  return {std::move(g), server, std::move(value), "given"};
}

BoardNvLink board_nvlink(const std::string& server, int gpus) {
  const ServerPreset* p = find_server(server);
  if (!p) return {};
  ServerTemplate t = p->make();
  if (t.count(NodeKind::Gpu) != gpus || t.count(NodeKind::NvSwitch) == 0) return {};
  // The first GPU's links into the chips, in the chips' order; on the HGX boards every GPU has the
  // same split (boards.hpp).
  int gpu = -1;
  std::vector<int> chip_index(t.nodes.size(), -1);
  BoardNvLink out;
  for (size_t i = 0; i < t.nodes.size(); ++i) {
    if (t.nodes[i].kind == NodeKind::NvSwitch) chip_index[i] = out.chips++;
    if (t.nodes[i].kind == NodeKind::Gpu && gpu < 0) gpu = static_cast<int>(i);
  }
  out.lanes.assign(out.chips, 0);
  for (const auto& l : t.links) {
    int other = l.a == gpu ? l.b : l.b == gpu ? l.a : -1;
    if (other < 0 || chip_index[other] < 0) continue;
    out.lanes[chip_index[other]] += l.lanes;
    out.tech = l.tech;
  }
  return out;
}

std::string nvlink_tech_for_arch(const std::string& arch) {
  // NVLink 2 on Volta, 3 on Ampere, 4 on Hopper, 5 on Blackwell (NVIDIA V100/A100/H100/B200 datasheets).
  if (arch == "volta") return "nvlink2";
  if (arch == "ampere") return "nvlink3";
  if (arch == "hopper") return "nvlink4";
  if (arch == "blackwell") return "nvlink5";
  return "";
}

NicFamily nic_family(long pci_class, long vendor) {
  if ((pci_class >> 8) == 0x0207) return NicFamily::InfiniBand;
  if (vendor == 0x1d0f) return NicFamily::Efa;  // Amazon.com, Inc. (PCI ID Repository)
  return NicFamily::Ethernet;
}

std::string nic_tech_for_speed(NicFamily f, bool rdma, double mbps, bool& nearest) {
  struct Port { double mbps; std::string tech; };
  std::vector<Port> ports;
  if (f == NicFamily::InfiniBand) {
    ports = {{100000, "ib-edr"}, {200000, "ib-hdr"}, {400000, "ib-ndr"}, {800000, "ib-xdr"}};
  } else if (f == NicFamily::Efa) {
    ports = {{100000, "efa-100g"}, {200000, "efa-200g"}};
  } else {
    for (int g : {100, 200, 400, 800})
      ports.push_back({g * 1000.0, rdma ? "roce-" + std::to_string(g) + "g" : "eth-" + std::to_string(g) + "g-tcp"});
  }
  const Port* best = &ports.front();
  for (const auto& p : ports)
    if (std::abs(std::log(p.mbps / mbps)) < std::abs(std::log(best->mbps / mbps))) best = &p;
  nearest = best->mbps != mbps;
  return best->tech;
}

std::string nic_tech_default(NicFamily f, int pcie_gen, std::string& why) {
  // The NIC generation whose host interface matches the link: ConnectX-8 is PCIe Gen6 x16 with
  // XDR 800 Gb/s, ConnectX-7 Gen5 x16 with NDR 400 Gb/s, ConnectX-6 Gen4 x16 with HDR 200 Gb/s,
  // ConnectX-5 Gen3 x16 with EDR 100 Gb/s (NVIDIA ConnectX-5..8 product briefs). Azure NDv5
  // (H100, Gen5) has NDR and NDv4 (A100, Gen4) HDR, as the two sample files' hosts do.
  static const char* kIb[] = {"ib-edr", "ib-edr", "ib-edr", "ib-edr", "ib-hdr", "ib-ndr", "ib-xdr"};
  static const char* kEth[] = {"roce-100g", "roce-100g", "roce-100g", "roce-100g", "roce-200g", "roce-400g", "roce-800g"};
  int g = pcie_gen;
  std::string link = "PCIe Gen" + std::to_string(g);
  if (g == 0) {
    g = 5;
    link = "an unknown PCIe rate (taken as Gen5)";
  }
  if (f == NicFamily::Efa) {
    why = "an EFA device with no <net> speed; EFA v2 ports are 100 Gb/s (AWS P5 documentation)";
    return "efa-100g";
  }
  std::string tech = f == NicFamily::InfiniBand ? kIb[g] : kEth[g];
  why = std::string("the file lists the NIC's PCI function (") +
        (f == NicFamily::InfiniBand ? "class 0x0207, InfiniBand" : "class 0x0200, Ethernet, RDMA assumed") +
        ") but no <net> speed, which NCCL fills in at run time; a NIC on " + link +
        " is of the generation whose port is " + tech;
  return tech;
}

std::optional<std::string> cores_of_mask(std::string_view mask) {
  // Words are 32 bits, most significant first; collect set bits from bit 0 upwards.
  std::vector<std::string_view> words;
  size_t b = 0;
  for (size_t i = 0; i <= mask.size(); ++i) {
    if (i == mask.size() || mask[i] == ',') {
      words.push_back(mask.substr(b, i - b));
      b = i + 1;
    }
  }
  std::vector<int> cores;
  for (size_t w = 0; w < words.size(); ++w) {
    std::string_view word = words[words.size() - 1 - w];
    if (word.substr(0, 2) == "0x") word.remove_prefix(2);
    if (word.empty() || word.size() > 8) return std::nullopt;
    unsigned long v = 0;
    for (char c : word) {
      int d = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
      if (d < 0) return std::nullopt;
      v = v * 16 + static_cast<unsigned long>(d);
    }
    for (int bit = 0; bit < 32; ++bit)
      if (v >> bit & 1UL) cores.push_back(static_cast<int>(w) * 32 + bit);
  }
  std::string out;
  for (size_t i = 0; i < cores.size();) {
    size_t j = i;
    while (j + 1 < cores.size() && cores[j + 1] == cores[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += std::to_string(cores[i]);
    if (j > i) out += "-" + std::to_string(cores[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace gf::nccl_xml
