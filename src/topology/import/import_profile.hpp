// The figures a topology matrix leaves out (GPU model, NVLink generation, PCIe generation, NIC
// speed, the socket link), chosen from what the matrix does show, then overridden by what the user
// gives (ImportOptions). One place for these defaults so every importer and the docs agree.
#pragma once

#include <string>
#include <vector>

#include "topology/import/imported_server.hpp"

namespace gf {

// What the matrix says about the GPUs' links, the only evidence of the hardware generation.
struct LinkEvidence {
  int gpus = 0;
  int uniform_nv = 0;    // k when every GPU pair the file gives is NV k (0: mixed, or none)
  int max_nv = 0;        // the largest NV# of any pair (0: no NVLink)
  bool switched = false; // uniform NV# that no direct mesh could give: NVSwitch chips
  bool xgmi = false;     // AMD Infinity Fabric links (rocm-smi XGMI)
  bool amd = false;      // the file came from rocm-smi: AMD GPUs
};

// Whether `e` shows the NVSwitch form: every pair NV k with more links per GPU in total than any
// GPU has (18: H100/B200), so the links must go through switch chips, not GPU to GPU.
bool nvswitch_form(int gpus, int uniform_nv);

struct ImportProfile {
  std::string evidence;                // "NV18 between every GPU pair through NVSwitch"
  GpuSpec gpu;
  std::string gpu_why;
  std::string nvlink;                  // technology of the GPU links (NVLink or xGMI)
  std::vector<int> lanes_to_switch;    // NVSwitch form: lanes from every GPU to each chip
  std::string pcie;
  std::string nic_tech;
  std::string socket_link;             // between NUMA nodes (nvidia-smi SYS)
  std::string fabric;                  // the usual scale-out fabric for such a server
};

// The documented default for `e`, then `opt` applied on top (each value checked: InputError
// naming the flag). Every default that stayed is appended to `assumed`, with how to override it;
// `tool` is how the user names the format on the command line ("nvidia-smi").
ImportProfile choose_profile(const LinkEvidence& e, const ImportOptions& opt, const std::string& tool,
                             std::vector<ImportAssumption>& assumed);

// A GPU by model ("A100-SXM4-40GB", any built-in server's GPU) or by built-in server ("dgx-h100").
// Throws InputError for `flag` with suggestions when nothing matches.
GpuSpec find_gpu(const std::string& name, const std::string& flag);

}  // namespace gf
