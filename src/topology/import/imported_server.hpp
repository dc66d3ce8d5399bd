// Real machines in: a server model recovered from what a user already has on their machine,
// `nvidia-smi topo -m` (or -mp) text and NCCL topology XML (NCCL_TOPO_FILE input or
// NCCL_TOPO_DUMP_FILE output). Each importer turns one file into a ServerTemplate that every other
// command accepts (print it with cluster_to_yaml), and says which figures the file left out and
// which documented default it took instead, so the user can override them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "topology/server_template.hpp"

namespace gf {

// A figure the format does not carry, and the default taken for it.
struct ImportAssumption {
  std::string what;           // "PCIe links", "GPU model", "NIC port technology"
  std::string value;          // what was assumed: "pcie-gen5-x16", "H100-SXM5-80GB"
  std::string why;            // "nvidia-smi topo -m does not print the PCIe generation"
  std::string override_with;  // how to change it: "--pcie pcie-gen4-x16"
};

struct ImportedServer {
  ServerTemplate server;
  std::string format;                       // "nvidia-smi topo -m", "nvidia-smi topo -mp", "NCCL topology XML"
  std::vector<ImportAssumption> assumed;    // defaults taken for what the file leaves out
  std::vector<std::string> not_recovered;   // what the file lacks and nothing could stand in for
                                            // (rows missing from a partial matrix, ...)
};

// Figures a user can give where the format is silent; empty means "take the documented default".
struct ImportOptions {
  std::string gpu;       // GPU model, or a built-in server whose GPU to take ("dgx-h100")
  std::string pcie;      // catalog technology of PCIe links ("pcie-gen4-x16")
  std::string nic_tech;  // catalog technology of NIC ports ("ib-ndr", "roce-400g")
  std::string nvlink;    // catalog technology of NVLink lanes ("nvlink4")
};

enum class TopologyFormat { Yaml, NvidiaSmi, NcclXml };

// Which format `text` holds, by content, not by file name: NCCL XML starts with a <system> element,
// nvidia-smi output has a header row of GPU columns and its legend; anything else is treated as YAML.
TopologyFormat detect_topology_format(std::string_view text);

// `file` names the source in errors and notes. Truncated or garbled input throws InputError naming
// the line, never crashes.
ImportedServer import_nvidia_smi(const std::string& text, const std::string& file, const ImportOptions& opt = {});
ImportedServer import_nccl_xml(const std::string& text, const std::string& file, const ImportOptions& opt = {});

}  // namespace gf
