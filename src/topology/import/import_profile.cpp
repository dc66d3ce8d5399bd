#include "topology/import/import_profile.hpp"

#include <algorithm>
#include <cctype>

#include "core/error.hpp"
#include "topology/link_tech.hpp"
#include "topology/server_registry.hpp"
#include "topology/servers/boards.hpp"

namespace gf {

namespace {

// GPUs no built-in server carries, for the generations a matrix can point to.
// V100 has no BF16: its FP16 tensor-core peak stands in for training estimates.
GpuSpec v100(const std::string& model) {
  return {model, "volta", Bandwidth::gBps(900), 125,
          "NVIDIA Tesla V100 datasheet (32 GB HBM2, 900 GB/s; 125 TFLOPS FP16 tensor, no BF16)"};
}
GpuSpec mi210() {
  return {"MI210-64GB", "cdna2", Bandwidth::gBps(1638), 181,
          "AMD Instinct MI210 data sheet (64 GB HBM2e, 1.6 TB/s, 181 TFLOPS BF16, PCIe Gen4 x16)"};
}
GpuSpec server_gpu(const std::string& server) { return find_server(server)->make().gpu; }

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// A uniform NV k over n GPUs needs (n-1)k links per GPU as a direct mesh, so more than the most
// one GPU has (kMaxNvLinksPerGpu, topology/link_tech.hpp) means NVSwitch chips.

// The documented defaults (docs/cluster-yaml.md, "Importing"), by what the matrix shows.
ImportProfile default_profile(const LinkEvidence& e) {
  ImportProfile p;
  if (e.xgmi) {
    // xGMI GPU links: AMD Instinct OAM platform (the MI300X box, the common one today).
    p = {"xGMI links between GPUs (AMD Instinct OAM platform)", server_gpu("mi300x"),
         "xGMI between GPUs is the AMD Instinct OAM platform; the MI300X is the common one",
         "xgmi-mi300x", {}, "pcie-gen5-x16", "roce-400g", "amd-infinity-fabric-socket", "rail_optimized"};
  } else if (e.amd) {
    // AMD GPUs on PCIe only: an Instinct PCIe card (MI210), PCIe Gen4.
    p = {"AMD GPUs on PCIe only", mi210(), "AMD GPUs without xGMI are PCIe cards; the MI210 taken", "xgmi-mi300x", {},
         "pcie-gen4-x16", "roce-200g", "amd-infinity-fabric-socket", "leaf_spine"};
  } else if (e.switched && e.uniform_nv == 18) {
    // NV18 through NVSwitch: DGX/HGX H100/H200 (4 NVSwitch gen3, 5/4/4/5 links per GPU) or B200
    // (2 chips, 9 + 9); Hopper is taken, as on the DGX H100 (NVIDIA DGX H100 User Guide).
    p = {"NV18 between every GPU pair (NVSwitch, DGX/HGX H100 form)", h100_sxm5_80gb(),
         "NV18 through NVSwitch is the HGX H100/H200 (and B200) board; Hopper H100 taken",
         "nvlink4", {5, 4, 4, 5}, "pcie-gen5-x16", "ib-ndr", "upi-sapphire-rapids", "rail_optimized"};
  } else if (e.switched && e.uniform_nv == 12) {
    // NV12 through NVSwitch: DGX/HGX A100 (6 NVSwitch gen2, 2 links from every GPU to each), PCIe
    // Gen4, HDR InfiniBand, AMD EPYC hosts (DGX A100 User Guide).
    p = {"NV12 between every GPU pair (NVSwitch, DGX/HGX A100 form)", a100_sxm4_80gb(),
         "NV12 through NVSwitch is the HGX A100 board (the 80 GB part taken; the 40 GB has 1,555 GB/s)",
         "nvlink3", {2, 2, 2, 2, 2, 2}, "pcie-gen4-x16", "ib-hdr", "amd-infinity-fabric-socket", "rail_optimized"};
  } else if (e.switched && e.uniform_nv == 6) {
    // NV6 between 16 GPUs: DGX-2 (V100 SXM3, 6 NVLink2 per GPU, one to each of 6 NVSwitch gen1 on
    // its baseboard), PCIe Gen3, EDR InfiniBand, Xeon Platinum 8168 (Skylake) hosts (DGX-2 datasheet).
    p = {"NV6 between every GPU pair (NVSwitch, DGX-2 form)", v100("V100-SXM3-32GB"),
         "NV6 through NVSwitch is the DGX-2 (V100)", "nvlink2", {1, 1, 1, 1, 1, 1}, "pcie-gen3-x16", "ib-edr",
         "upi-skylake", "rail_optimized"};
  } else if (e.switched) {
    p = {"NV" + std::to_string(e.uniform_nv) + " between every GPU pair (NVSwitch)", h100_sxm5_80gb(),
         "no known server prints this NV#; Hopper taken", "nvlink4", {e.uniform_nv}, "pcie-gen5-x16", "ib-ndr",
         "upi-sapphire-rapids", "rail_optimized"};
  } else if (e.max_nv > 0 && e.max_nv <= 2) {
    // NV1/NV2 direct links: the DGX-1 hybrid cube-mesh (V100 SXM2, NVLink2), PCIe Gen3, EDR.
    p = {"NV1/NV2 direct links (DGX-1 hybrid cube-mesh form)", v100("V100-SXM2-32GB"),
         "NV1/NV2 GPU-to-GPU links are the DGX-1 V100 form", "nvlink2", {}, "pcie-gen3-x16", "ib-edr", "upi-skylake",
         "leaf_spine"};
  } else if (e.max_nv > 0) {
    // NV3+ direct links: NVLink bridges between PCIe cards (A100/A40/A6000 class, NVLink3).
    p = {"NV" + std::to_string(e.max_nv) + " direct links (NVLink bridges between PCIe cards)", a100_sxm4_80gb(),
         "NVLink bridges between PCIe cards are Ampere-class (A100 figures taken)", "nvlink3", {}, "pcie-gen4-x16",
         "roce-200g", "upi-skylake", "leaf_spine"};
  } else {
    // No GPU links: a PCIe server (L40S class, as the pcie-8gpu server), Gen4, 200G RoCE.
    p = {"no NVLink (a PCIe server)", server_gpu("pcie-8gpu"), "a PCIe-only box; the L40S of the pcie-8gpu server taken",
         "nvlink3", {}, "pcie-gen4-x16", "roce-200g", "upi-skylake", "leaf_spine"};
  }
  return p;
}

void check_tech(const std::string& value, const std::string& flag, std::initializer_list<LinkFamily> families,
                const std::string& what) {
  LinkCatalog cat = LinkCatalog::builtin();
  std::vector<std::string> valid;
  for (const auto& t : cat.techs())
    if (std::find(families.begin(), families.end(), t.family) != families.end()) valid.push_back(t.name);
  if (std::find(valid.begin(), valid.end(), value) == valid.end())
    throw InputError({}, flag, "'" + value + "' is not " + what, suggest(value, valid));
}

}  // namespace

bool nvswitch_form(int gpus, int uniform_nv) {
  return gpus >= 3 && uniform_nv > 0 && (gpus - 1) * uniform_nv > kMaxNvLinksPerGpu;
}

GpuSpec find_gpu(const std::string& name, const std::string& flag) {
  std::vector<GpuSpec> gpus = {v100("V100-SXM2-32GB"), v100("V100-SXM3-32GB"), mi210()};
  std::vector<std::string> names;
  for (const auto& s : server_registry()) {
    GpuSpec g = s.make().gpu;
    if (lower(s.name) == lower(name)) return g;
    gpus.push_back(g);
    names.push_back(s.name);
  }
  for (const auto& g : gpus) {
    if (lower(g.model) == lower(name)) return g;
    if (std::find(names.begin(), names.end(), g.model) == names.end()) names.push_back(g.model);
  }
  throw InputError({}, flag, "unknown GPU '" + name + "'",
                   suggest(name, names) + " (a GPU model or a built-in server); or import without " + flag +
                       " and describe the GPU in the printed cluster YAML's server: `gpu: {model: MyGPU, arch: hopper, "
                       "memory_bw: 3350GB/s, bf16_tflops: 989}`");
}

ImportProfile choose_profile(const LinkEvidence& e, const ImportOptions& opt, const std::string& tool,
                             std::vector<ImportAssumption>& assumed) {
  ImportProfile p = default_profile(e);
  const std::string silent = tool + " does not print ";
  // Why the board was recognised is said once, on the GPU-links note; the others refer to it.
  const bool links_noted = opt.nvlink.empty() && e.max_nv > 0;
  const std::string basis = links_noted ? "the usual part of the board the GPU links show" : p.evidence;
  if (!opt.gpu.empty()) {
    p.gpu = find_gpu(opt.gpu, "--gpu");
  } else {
    assumed.push_back({"GPU model", p.gpu.model, silent + "the GPU model; " + p.gpu_why, "--gpu MODEL|SERVER"});
  }
  if (!opt.nvlink.empty()) {
    check_tech(opt.nvlink, "--nvlink", {LinkFamily::NvLink, LinkFamily::Xgmi}, "an NVLink or xGMI technology");
    p.nvlink = opt.nvlink;
    // NV18 over NVLink5 is the HGX B200 board: 2 chips, 9 links from every GPU to each.
    if (e.switched && e.uniform_nv == 18 && p.nvlink == "nvlink5") p.lanes_to_switch = {9, 9};
  } else if (e.max_nv > 0) {
    std::string form = p.lanes_to_switch.empty() ? "direct GPU links"
                                                 : std::to_string(p.lanes_to_switch.size()) + " NVSwitch chips";
    assumed.push_back({"GPU links", p.nvlink + " (" + form + ")",
                       silent + "the link generation; " + p.evidence, "--nvlink TECH"});
  }
  if (!opt.pcie.empty()) {
    check_tech(opt.pcie, "--pcie", {LinkFamily::Pcie}, "a PCIe technology");
    p.pcie = opt.pcie;
  } else {
    assumed.push_back({"PCIe links", p.pcie, silent + "the PCIe generation or width; " + basis, "--pcie TECH"});
  }
  if (!opt.nic_tech.empty()) {
    check_tech(opt.nic_tech, "--nic-tech",
               {LinkFamily::InfiniBand, LinkFamily::RoCE, LinkFamily::EthernetTcp, LinkFamily::Efa, LinkFamily::GaudiRoce},
               "a network port technology");
    p.nic_tech = opt.nic_tech;
  } else {
    assumed.push_back({"NIC ports", p.nic_tech, silent + "the NIC speed or technology; " + basis, "--nic-tech TECH"});
  }
  assumed.push_back({"link between NUMA nodes", p.socket_link, silent + "the CPU model; " + basis,
                     "import to YAML, then edit the tech of the cpu-to-cpu links"});
  return p;
}

}  // namespace gf
