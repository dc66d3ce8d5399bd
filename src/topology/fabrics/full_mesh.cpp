// Every NIC cabled directly to the NIC of the same rail on every other server: the seed's "what
// if we connect every GPU directly" thought experiment. No switches, one hop, and n - 1 ports per
// NIC: 200,000 single-NIC servers need 199,999 ports each and n(n-1)/2 = 19,999,900,000 cables.
// count() answers for any size; build() is only reached while the graph stays small.
#include "topology/fabrics/fabric_common.hpp"
#include "topology/fabrics/fabrics.hpp"

namespace gf {
namespace {

class FullMesh final : public FabricBuilder {
 public:
  std::string name() const override { return "full_mesh"; }
  std::string description() const override {
    return "every NIC cabled to the same-rail NIC of every other server (no switches)";
  }
  std::string source() const override {
    return "seed 000 (GPU Networking Basics, Part 1): full mesh, 199,999 ports per GPU for 200,000 GPUs";
  }

  FabricCounts count(const FabricSpec& spec, const FabricShape& shape, const LinkCatalog& cat) const override {
    require_one_plane(spec, name());
    nic_tech(shape, cat, spec);
    const int64_t n = shape.servers, rails = shape.nics_per_server;
    FabricCounts c;
    c.tiers.push_back({"none", 0, 0, 0, 1.0});
    const int64_t cables = rails * (n * (n - 1) / 2);
    c.cables.push_back({shape.nic_tech, "nic-nic", cables});
    c.ports_per_endpoint = n - 1;
    // A balanced cut of servers into floor(n/2) and ceil(n/2) is crossed by one cable per pair
    // of servers on opposite sides, per rail.
    c.bisection = shape.nic_bandwidth * static_cast<double>(rails * (n / 2) * (n - n / 2));
    c.max_switch_hops = 0;
    c.max_server_hops = 1;
    c.links_directed = 2 * cables;
    return c;
  }

  void build(const FabricSpec& spec, const FabricShape& shape, const std::vector<FabricEndpoint>& eps,
             Cluster& cluster) const override {
    require_one_plane(spec, name());
    const TechId tech = nic_tech(shape, cluster.catalog(), spec);
    // Endpoints are server-major, so position k of every server is the same NIC of the template:
    // the same rail.
    const int64_t n = shape.servers, rails = shape.nics_per_server;
    for (int64_t r = 0; r < rails; ++r)
      for (int64_t a = 0; a < n; ++a)
        for (int64_t b = a + 1; b < n; ++b) {
          const FabricEndpoint& ea = eps[static_cast<size_t>(a * rails + r)];
          const FabricEndpoint& eb = eps[static_cast<size_t>(b * rails + r)];
          cluster.connect(ea.nic, eb.nic, slower_tech(cluster.catalog(), port_tech(ea, tech), port_tech(eb, tech)));
        }
  }
};

}  // namespace

std::unique_ptr<FabricBuilder> make_full_mesh_fabric() { return std::make_unique<FullMesh>(); }

}  // namespace gf
