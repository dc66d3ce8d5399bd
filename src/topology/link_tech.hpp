// The link-technology and switch-model catalog: every figure here carries its source. Bandwidth is
// per direction and per lane (one NVLink, one whole PCIe link of the stated width, one network
// port); datasheet "bidirectional" figures are halved here, once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/units.hpp"

namespace gf {

// The most NVLinks one GPU has: 18 on H100, H200 (NVIDIA H100 Tensor Core GPU Architecture, 2022)
// and B200 (NVLink 5). An import that counts more between two devices is garbled, not a server.
constexpr int kMaxNvLinksPerGpu = 18;

enum class LinkFamily : uint8_t {
  NvLink,       // GPU<->GPU or GPU<->NVSwitch
  NvLinkC2C,    // Grace<->Hopper/Blackwell chip-to-chip
  Pcie,         // PCIe of a given generation and width
  Xgmi,         // AMD Infinity Fabric GPU<->GPU
  InterSocket,  // UPI / Infinity Fabric between CPU sockets; also host-bridge links inside a socket
  InfiniBand,
  RoCE,         // Ethernet carrying RDMA (RoCEv2)
  EthernetTcp,  // Ethernet carrying plain TCP (no RDMA)
  Efa,          // AWS Elastic Fabric Adapter (SRD)
  GaudiRoce,    // Intel Gaudi on-chip RoCE ports
};
const char* to_string(LinkFamily f);

struct LinkTech {
  LinkTech() = default;
  // The catalog's entries give the seven datasheet fields; the transport term starts at zero and
  // is set for network families by the catalog (default_transport) or a cluster file.
  LinkTech(std::string name_, LinkFamily family_, Bandwidth per_lane_, Time latency_, bool rdma_,
           std::string description_, std::string source_)
      : name(std::move(name_)), family(family_), per_lane(per_lane_), latency(latency_), rdma(rdma_),
        description(std::move(description_)), source(std::move(source_)) {}

  std::string name;      // catalog key, e.g. "nvlink4", "pcie-gen5-x16", "ib-ndr", "roce-400g"
  LinkFamily family = LinkFamily::NvLink;
  Bandwidth per_lane;    // per direction
  Time latency;          // one traversal of the wire and its end-point's port logic
  bool rdma = false;     // carries RDMA / GPUDirect (false for plain TCP)
  std::string description;
  std::string source;
  // A network technology's transport: what its NIC stack adds to every NCCL step that crosses it,
  // beyond NCCL's own per-step NET figure and the path's wire and switch time, with its source
  // (default_transport(family) when a cluster file gives none).
  Time transport_latency = Time::zero();
  std::string transport_source;
};

// The transport term of a family, with its citation: what link_technologies entries and YAML
// files without `transport_latency` get.
struct TransportLatency {
  Time latency;
  std::string source;
};
TransportLatency default_transport(LinkFamily family);

// A network switch model: radix and forwarding latency for fabric builders.
struct SwitchModel {
  std::string name;      // e.g. "quantum2-qm9700"
  std::string port_tech; // the technology of its ports at full radix
  int radix;             // ports at that speed
  Time latency;          // port-to-port forwarding
  std::string description;
  std::string source;
  // Reduces data inside the switch: InfiniBand SHARP (CollNet in NCCL) or NVSwitch NVLink SHARP (NVLS).
  bool in_network_reduction = false;
  // SHARP streaming-aggregation resources (NVIDIA SHARP Rev 3.13.0 release notes, "Device
  // Capabilities and Limitations"): Quantum allows one active streaming-aggregation tree per
  // switch and 63 in the subnet; Quantum-2 one active tree per port and 511 in the subnet. 0 / false:
  // not limited that way. A communicator that cannot get a tree runs without CollNet
  // (nccl/sharp_allocation.hpp).
  int sharp_trees_per_switch = 0;
  bool sharp_tree_per_port = false;
  int sharp_trees_per_subnet = 0;
};

using TechId = uint16_t;

// The catalog a cluster uses. Built-ins come from builtin_catalog(); a cluster keeps its own copy
// so a YAML file can add technologies without touching anything shared.
class LinkCatalog {
 public:
  static LinkCatalog builtin();

  const std::vector<LinkTech>& techs() const { return techs_; }
  const std::vector<SwitchModel>& switches() const { return switches_; }
  const LinkTech& tech(TechId id) const { return techs_[id]; }
  std::optional<TechId> find(const std::string& name) const;
  std::optional<SwitchModel> find_switch(const std::string& name) const;
  // The switch model a fabric of `port_tech` links uses unless told otherwise.
  std::optional<SwitchModel> default_switch_for(const std::string& port_tech) const;
  std::vector<std::string> tech_names() const;
  std::vector<std::string> switch_names() const;

  TechId add(LinkTech t);
  void add_switch(SwitchModel s) { switches_.push_back(std::move(s)); }

 private:
  std::vector<LinkTech> techs_;
  std::vector<SwitchModel> switches_;
};

}  // namespace gf
