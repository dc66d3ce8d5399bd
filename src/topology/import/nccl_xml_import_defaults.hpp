// What the NCCL topology importer concludes from the clues an NCCL XML file gives (PCIe link rates,
// PCI device ids, CUDA compute capability, CPU vendor and model, NIC speed and PCI class), and the
// documented defaults it takes where the file is silent. Kept apart from the tree walk
// (nccl_xml_import.cpp) so each rule and its source sit in one place; docs/import.md lists them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topology/server_template.hpp"

namespace gf::nccl_xml {

// PCIe generation of an NCCL `link_speed` ("16 GT/s", "32.0 GT/s PCIe"): the leading number in
// GT/s, 2.5/5/8/16/32/64 -> Gen1..Gen6. 0 when the text is no PCIe rate NCCL knows.
int pcie_gen_of_speed(std::string_view link_speed);

// The catalog technology of a Gen`gen` x`width` link. The catalog holds Gen3..Gen6 at x4/x8/x16;
// other links take the nearest one it has (slower generations as Gen3, x1/x2 as x4, x32 as x16)
// and `adjusted` is set so the caller can say so.
std::string pcie_tech(int gen, int width, bool& adjusted);

// The inter-socket technology NCCL would charge between two <cpu> elements (NVIDIA/nccl
// src/graph/topo.cc ncclTopoGetInterCpuBw, src/graph/topo.h *_QPI_BW / AMD_BW): Intel family 6
// model 143 (Sapphire Rapids) or 207 (Emerald Rapids) -> upi-sapphire-rapids, other Intel ->
// upi-skylake, AMD -> amd-infinity-fabric-socket. `why` says which clue decided; `assumed` is set
// when none did (non-x86 or missing attributes) and upi-skylake was taken.
std::string socket_link_tech(const std::string& vendor, int family, int model, std::string& why, bool& assumed);

// Clues about the GPU: PCI device id (0x2330 ...), CUDA compute capability as NCCL writes it
// (sm="90"), PCIe generation of the GPU's own link.
struct GpuEvidence {
  long device_id = -1;
  int sm = -1;
  int pcie_gen = 0;
};
struct GpuChoice {
  GpuSpec spec;
  std::string server; // the built-in server the GPU is taken from ("dgx-h100"); its board stands in
                      // for NVLink the file does not list
  std::string value;  // what the assumption shows: "H100-SXM5-80GB (as dgx-h100)"
  std::string why;    // which clue decided, or that none did
};
// Device id first (exact), then compute capability, then the PCIe generation; H100 SXM5 when the
// file gives none of them.
GpuChoice gpu_from_evidence(const GpuEvidence& e);
// ImportOptions::gpu: a GPU model or a built-in server (import_profile's find_gpu, so both
// importers accept the same names), with the server whose board it comes on (the named one, or
// the first built on that GPU; "" for a GPU no built-in server has).
GpuChoice gpu_from_option(const std::string& name);

// NVLink for a file that lists none (NCCL reads it from NVML at run time): the NVSwitch chips of
// `server`'s board and, per chip, the lanes and technology every GPU has into it. Empty when that
// server has no NVSwitch or holds a different number of GPUs than `gpus`.
struct BoardNvLink {
  int chips = 0;
  std::vector<int> lanes;  // per chip, from every GPU
  std::string tech;
};
BoardNvLink board_nvlink(const std::string& server, int gpus);
// NVLink generation of a GPU architecture (volta 2, ampere 3, hopper 4, blackwell 5); empty when
// the architecture has no NVLink generation we know.
std::string nvlink_tech_for_arch(const std::string& arch);

enum class NicFamily { InfiniBand, Ethernet, Efa };
// PCI class 0x0207 is an InfiniBand controller, 0x0200 Ethernet; Amazon's vendor id 0x1d0f with
// an Ethernet class is an EFA device.
NicFamily nic_family(long pci_class, long vendor);
// The catalog technology of a port of `mbps` (NCCL's <net speed>, Mb/s). `rdma`: whether an
// Ethernet port carries RDMA (RoCE) or plain TCP. When no catalog rate matches exactly the nearest
// is taken and `nearest` set.
std::string nic_tech_for_speed(NicFamily f, bool rdma, double mbps, bool& nearest);
// The port technology of a NIC the file lists by its PCI function only (no <net>): the fastest
// port of its generation that its PCIe link carries (Gen5 x16 -> 400 Gb/s: ConnectX-7; Gen4 x16 ->
// 200 Gb/s: ConnectX-6; Gen3 -> 100 Gb/s). `why` explains the choice.
std::string nic_tech_default(NicFamily f, int pcie_gen, std::string& why);

// NCCL's `affinity`, a Linux cpumask of comma-separated 32-bit hex words, most significant first
// ("ffffffff,ffff0000,00000000"), as the core list nvidia-smi prints ("48-95"). nullopt when the
// text is not such a mask; "" for an empty mask.
std::optional<std::string> cores_of_mask(std::string_view mask);

}  // namespace gf::nccl_xml
