// Dragonfly (Kim, Dally, Scott, Abts, ISCA 2008): g groups of a routers; each router has p
// terminals (NICs), a - 1 local links (the routers of a group are fully connected) and h global
// links; groups are joined all-to-all by global links, so at most g = a x h + 1 groups.
// Defaults from radix R: the balanced design a = 2p = 2h with p = floor((R + 1) / 4) (radix
// 4p - 1), as few groups as hold the NICs, and a smaller single group when one suffices.
// Global wiring: group i's global ports are numbered router-major (router r owns ports
// r*h .. r*h+h-1); its m-th cable to group j uses port m(g-1) + ((j - i - 1) mod g), so every
// pair of groups gets floor(a*h / (g-1)) cables and the pattern is the same seen from any group.
// Cables that land on the same pair of routers stay distinct links (a bundle, topology/bundle.hpp),
// added one after another, so the ECMP hash picks one cable as a router does, as leaf-spine's do.
#include <algorithm>

#include "topology/fabrics/fabric_common.hpp"
#include "topology/fabrics/fabrics.hpp"

namespace gf {
namespace {

std::string str(int64_t v) { return std::to_string(v); }

struct DragonflyPlan {
  ResolvedSwitch sw;
  TechId nic_link = 0;
  int planes = 1;
  int64_t endpoints = 0;  // per plane
  int64_t p = 0, a = 0, h = 0, g = 0;
  int64_t per_pair = 0;   // global cables between two groups
};

struct GlobalLink {
  int64_t from, to;  // router index in the lower and the higher group
  int cables;        // parallel cables between them
};

// The global links between groups i and i + delta (the same for every i).
std::vector<GlobalLink> global_links(const DragonflyPlan& d, int64_t delta) {
  std::vector<GlobalLink> out;
  for (int64_t m = 0; m < d.per_pair; ++m) {
    int64_t from = (m * (d.g - 1) + delta - 1) / d.h, to = (m * (d.g - 1) + d.g - delta - 1) / d.h;
    // Ports grow with m, so cables between the same two routers are consecutive.
    if (!out.empty() && out.back().from == from && out.back().to == to)
      ++out.back().cables;
    else
      out.push_back({from, to, 1});
  }
  return out;
}

DragonflyPlan plan_dragonfly(const FabricSpec& spec, const FabricShape& shape, const LinkCatalog& cat) {
  DragonflyPlan d;
  d.planes = plane_count(spec, shape);
  FabricShape ps = plane_shape(shape, d.planes);
  d.sw = resolve_switch(spec, shape, cat);
  d.nic_link = nic_tech(shape, cat, spec);
  d.endpoints = ps.servers * ps.nics_per_server;
  const int R = d.sw.radix;
  if (spec.groups < 0 || spec.routers_per_group < 0 || spec.global_links_per_router < 0)
    throw InputError(spec.where, "fabric", "groups, routers_per_group and global_links_per_router cannot be negative", "use 0 for automatic, or a positive count");
  const int64_t balanced_p = std::max(1, (R + 1) / 4);
  d.a = spec.routers_per_group > 0 ? spec.routers_per_group : 2 * balanced_p;
  d.h = spec.global_links_per_router > 0 ? spec.global_links_per_router : std::max<int64_t>(1, d.a / 2);
  if (spec.groups > 0) {
    d.g = spec.groups;
  } else {
    const int64_t p0 = std::max<int64_t>(1, std::min(std::max<int64_t>(1, d.a / 2), R - (d.a - 1) - d.h));
    d.g = ceil_div(d.endpoints, d.a * p0);
    if (d.g == 1 && spec.routers_per_group == 0) d.a = ceil_div(d.endpoints, p0);
  }
  d.p = ceil_div(d.endpoints, d.g * d.a);
  const int64_t h_used = d.g > 1 ? d.h : 0;
  require_radix(spec,
                "a dragonfly router with " + str(d.p) + " NICs, " + str(d.a - 1) + " local and " + str(h_used) +
                    " global links",
                d.p + d.a - 1 + h_used, R,
                "set fewer routers_per_group or global_links_per_router, more groups, or use switches with more ports");
  if (d.g > 1) {
    if (d.g - 1 > d.a * d.h)
      throw InputError(spec.where, "fabric.groups",
                       str(d.g) + " groups need " + str(d.g - 1) + " global links from every group, but a group of " +
                           str(d.a) + " routers x " + str(d.h) + " global links has " + str(d.a * d.h),
                       "a dragonfly has at most a*h + 1 groups: raise global_links_per_router or routers_per_group, "
                       "use switches with more ports, or spread the NICs over planes (fabric.planes)");
    d.per_pair = d.a * d.h / (d.g - 1);
  }
  return d;
}

class Dragonfly final : public FabricBuilder {
 public:
  std::string name() const override { return "dragonfly"; }
  std::string description() const override {
    return "groups of fully connected routers, groups joined all-to-all by global links";
  }
  std::string source() const override {
    return "J. Kim, W. J. Dally, S. Scott, D. Abts, Technology-Driven, Highly-Scalable Dragonfly Topology, ISCA 2008";
  }

  FabricCounts count(const FabricSpec& spec, const FabricShape& shape, const LinkCatalog& cat) const override {
    const DragonflyPlan d = plan_dragonfly(spec, shape, cat);
    const FabricShape ps = plane_shape(shape, d.planes);
    const int64_t local = d.g * d.a * (d.a - 1) / 2, global = d.g * (d.g - 1) / 2 * d.per_pair;
    FabricCounts c;
    c.tiers.push_back({"router", d.g * d.a, d.sw.radix, d.endpoints + 2 * local + 2 * global,
                       d.g > 1 ? static_cast<double>(d.p) / d.h : 1.0});
    c.cables.push_back({shape.nic_tech, "nic-router", d.endpoints});
    if (local > 0) c.cables.push_back({d.sw.link_name, "router-router (local)", local});
    if (global > 0) c.cables.push_back({d.sw.link_name, "router-router (global)", global});
    // Cut along groups (halves of the groups; of one group's routers when g = 1): the cables
    // across it, or the NICs of one side if they are fewer. An estimate for odd group counts.
    const int64_t n = d.g > 1 ? d.g : d.a, per = d.g > 1 ? d.per_pair : 1;
    const Bandwidth nics = ps.nic_bandwidth * static_cast<double>(half_endpoints(ps));
    const Bandwidth across = cat.tech(d.sw.link).per_lane * static_cast<double>(n / 2 * (n - n / 2) * per);
    c.bisection = n > 1 ? std::min(nics, across) : nics;
    // Minimal routes: local, global, local (Kim et al.), so up to 4 routers between groups.
    c.max_switch_hops = d.g > 1 ? (d.a > 1 ? 4 : 2) : (d.a > 1 ? 2 : 1);
    c.links_directed = 2 * (d.endpoints + local + global);  // every cable its own link
    scale_by_planes(c, d.planes);
    return c;
  }

  void build(const FabricSpec& spec, const FabricShape& shape, const std::vector<FabricEndpoint>& eps,
             Cluster& cluster) const override {
    const DragonflyPlan d = plan_dragonfly(spec, shape, cluster.catalog());
    auto planes = split_planes(eps, shape.nics_per_server, d.planes);
    for (int pl = 0; pl < d.planes; ++pl) build_plane(d, planes[pl], pl, cluster);
  }

 private:
  // Latency convention of fabric_common.hpp: a link ending at a router carries its forwarding latency.
  static void build_plane(const DragonflyPlan& d, const std::vector<FabricEndpoint>& eps, int plane, Cluster& c) {
    const std::string pre = plane_prefix(plane, d.planes);
    const Time lat = d.sw.latency;
    std::vector<NodeId> router(static_cast<size_t>(d.g * d.a));
    for (int64_t i = 0; i < d.g; ++i)
      for (int64_t r = 0; r < d.a; ++r)
        router[i * d.a + r] = c.add_fabric_node(NodeKind::Switch, 1, static_cast<int>(i),
                                                pre + "group" + str(i) + "/router" + str(r));
    for (size_t t = 0; t < eps.size(); ++t)
      c.connect(eps[t].nic, router[t / d.p], port_tech(eps[t], d.nic_link), 1, lat);
    for (int64_t i = 0; i < d.g; ++i)
      for (int64_t r = 0; r < d.a; ++r)
        for (int64_t q = r + 1; q < d.a; ++q) c.connect(router[i * d.a + r], router[i * d.a + q], d.sw.link, 1, lat);
    for (int64_t delta = 1; delta < d.g; ++delta) {
      const auto links = global_links(d, delta);
      for (int64_t i = 0; i + delta < d.g; ++i)
        for (const auto& l : links)
          for (int k = 0; k < l.cables; ++k)  // consecutive, as topology/bundle.hpp finds a bundle
            c.connect(router[i * d.a + l.from], router[(i + delta) * d.a + l.to], d.sw.link, 1, lat);
    }
  }
};

}  // namespace

std::unique_ptr<FabricBuilder> make_dragonfly_fabric() { return std::make_unique<Dragonfly>(); }

}  // namespace gf
