// One switch for every NIC: the seed's "one massive switch" thought experiment. Valid only while
// the switch has a port per NIC; count() still answers for any size (200,000 GPUs -> 200,000 ports).
#include "topology/fabrics/fabric_common.hpp"
#include "topology/fabrics/fabrics.hpp"

namespace gf {
namespace {

class SingleSwitch final : public FabricBuilder {
 public:
  std::string name() const override { return "single_switch"; }
  std::string description() const override { return "every NIC on one switch (needs a port per NIC)"; }
  std::string source() const override { return "seed 000 (GPU Networking Basics, Part 1): one switch for all GPUs"; }

  FabricCounts count(const FabricSpec& spec, const FabricShape& shape, const LinkCatalog& cat) const override {
    ResolvedSwitch sw = resolve_switch(spec, shape, cat);
    int64_t ports = shape.servers * shape.nics_per_server;
    FabricCounts c;
    c.tiers.push_back({"switch", 1, std::max<int>(sw.radix, static_cast<int>(std::min<int64_t>(ports, INT32_MAX))),
                       ports, 1.0});
    c.cables.push_back({sw.link_name, "nic-switch", ports});
    c.ports_per_endpoint = 1;
    // Any balanced cut of servers leaves half the NIC ports on each side; the switch is non-blocking.
    c.bisection = shape.nic_bandwidth * static_cast<double>(shape.servers / 2 * shape.nics_per_server);
    c.max_switch_hops = 1;
    c.links_directed = 2 * ports;
    return c;
  }

  void build(const FabricSpec& spec, const FabricShape& shape, const std::vector<FabricEndpoint>& eps,
             Cluster& cluster) const override {
    ResolvedSwitch sw = resolve_switch(spec, shape, cluster.catalog());
    require_radix(spec, "a single switch for " + std::to_string(eps.size()) + " NICs",
                  static_cast<int64_t>(eps.size()), sw.radix, "use a leaf_spine or fat_tree fabric");
    NodeId s = cluster.add_fabric_node(NodeKind::Switch, 1, 0, "switch0");
    for (const auto& e : eps) cluster.connect(e.nic, s, port_tech(e, sw.link), 1, sw.latency);
  }
};

}  // namespace

std::unique_ptr<FabricBuilder> make_single_switch_fabric() { return std::make_unique<SingleSwitch>(); }

}  // namespace gf
