// One server's hardware as data: its devices (GPUs, NVSwitches, PCIe switches, CPU root
// complexes, NICs) and the links between them. Server builders (servers/*.cpp) return one; a
// YAML file can spell one out node by node; the cluster builder stamps it out once per server.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/units.hpp"
#include "topology/node.hpp"
#include "topology/p2p_level.hpp"

namespace gf {

struct GpuSpec {
  std::string model;       // "H100-SXM5-80GB"
  std::string arch;        // "volta" | "ampere" | "hopper" | "blackwell" | "cdna3" | "gaudi" | "ada"
  Bandwidth memory_bw;     // HBM/GDDR bandwidth: bounds the reduction rate of collectives
  double bf16_tflops = 0;  // dense BF16, for training-step estimates
  std::string source;
};

struct ServerNode {
  std::string name;          // unique within the server: "gpu0", "nvswitch2", "pcie1", "cpu0", "nic3"
  NodeKind kind;
  int numa = -1;             // NUMA node (CPU: its own; devices: the socket they hang off)
  int rail = -1;             // NIC: which rail / fabric port index it is (0..)
  std::string tech;          // NIC: its port technology ("ib-ndr"); other kinds: empty
  std::string cpu_affinity;  // CPU: the core list nvidia-smi prints ("0-47,96-143")
  std::string label;         // NIC: device name as nvidia-smi lists it ("mlx5_0"); optional
  // NIC: the network it is cabled to. "compute" (or empty): the GPU fabric, a rail NCCL uses.
  // "storage", "management", "frontend": another network (a DGX's storage and in-band management
  // ports): kept in the server, since nvidia-smi lists them and they share its PCIe, but not
  // cabled into the compute fabric and never used by NCCL, whose ring and tree searches pick the
  // NICs on the GPUs' PCIe switches (NVIDIA DGX H100/A100 User Guides: network ports).
  std::string role = {};
  // NIC: left out of this run by NCCL_IB_HCA (nccl/ib_hca.hpp): still cabled, never used.
  bool nccl_excluded = false;

  bool compute_nic() const { return kind == NodeKind::Nic && (role.empty() || role == "compute"); }
  bool nccl_nic() const { return compute_nic() && !nccl_excluded; }
};

// The roles a NIC may have (ServerNode::role), "compute" first.
const std::vector<std::string>& nic_roles();

struct ServerLink {
  int a, b;         // indices into ServerTemplate::nodes; the link exists in both directions
  std::string tech; // catalog name
  int lanes = 1;    // NVLinks bonded between a and b, or 1
};

// GPUs joined across servers by an NVLink Switch system (GB200 NVL72: 18 trays of 4 GPUs).
struct ScaleUpDomain {
  int servers_per_domain = 0;   // trays per NVLink domain (18 for NVL72)
  int switch_chips = 0;         // NVSwitch chips in the domain (18 for NVL72)
  int links_per_gpu = 0;        // NVLinks per GPU, spread evenly over the chips
  std::string tech;             // "nvlink5"
};

// The most GPUs and devices one server may have. The per-server tables (hop distances between
// template positions, the communicator's intra-server routes) grow as the square of the server,
// so a 600-GPU "server" costs gigabytes; the largest boards sold hold 8 GPUs, and an NVLink domain
// larger than one board is a `scale_up:` block over several servers (docs/limits.md).
constexpr int kMaxGpusPerServer = 128;
constexpr int kMaxNodesPerServer = 1024;

struct ServerTemplate {
  std::string name;         // "dgx-h100"
  std::string description;  // one line
  std::string source;       // where the figures come from
  GpuSpec gpu;
  std::vector<ServerNode> nodes;
  std::vector<ServerLink> links;
  std::optional<ScaleUpDomain> scale_up;
  std::string default_fabric = "rail_optimized";  // the usual scale-out fabric for this server
  // Which transport GPU pairs inside the server use (P2P, SHM through host memory, NET through a
  // NIC): the hardware's `p2p:` and NCCL_P2P_LEVEL / NCCL_P2P_DISABLE / NCCL_SHM_DISABLE.
  TransportSettings transport;

  int count(NodeKind k) const;
  int compute_nics() const;  // NICs cabled into the compute fabric (ServerNode::compute_nic)
  int index_of(const std::string& node_name) const;  // -1 if absent
  // Checks names are unique, link ends exist, techs are known, NICs have a network tech, and the
  // server is within kMaxGpusPerServer / kMaxNodesPerServer: throws InputError.
  void validate(const class LinkCatalog& catalog, const SourceLocation& where) const;
};

}  // namespace gf
