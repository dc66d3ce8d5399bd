#include "topology/fabrics/clos.hpp"

#include <algorithm>
#include <stdexcept>

namespace gf {
namespace {

std::string str(int64_t v) { return std::to_string(v); }

// Pods a 3-tier design needs with `planes` planes; 0 when a pod spine cannot reach a leaf of
// every column.
int64_t pods_needed(const FabricShape& shape, const ClosStyle& style, int planes, PortSplit leaf, PortSplit spine) {
  int64_t nics = shape.nics_per_server / planes;
  int64_t columns = style.rail_aligned ? nics : 1;
  int64_t positions = style.rail_aligned ? shape.servers : shape.servers * nics;
  int64_t per_pod_column = spine.down / columns;
  return per_pod_column == 0 ? 0 : ceil_div(ceil_div(positions, leaf.down), per_pod_column);
}

// What to change when 3 tiers of this switch are not enough: the first larger plane count that
// fits, if there is one.
std::string capacity_hint(const FabricShape& shape, const ClosStyle& style, const ClosPlan& p) {
  std::string h;
  for (int q = p.planes + 1; q <= shape.nics_per_server; ++q) {
    if (shape.nics_per_server % q != 0) continue;
    int64_t pods = pods_needed(shape, style, q, p.leaf, p.spine);
    if (pods > 0 && pods <= p.spine_radix) {
      h = "set fabric.planes: " + str(q) + " (rail r on plane r % " + str(q) + ", " + str(q) +
          " independent fabrics), ";
      break;
    }
  }
  return h + "use switches with more ports (fabric.switch_radix, spine_radix or switch_model), or oversubscribe "
             "the leaves (fabric.oversubscription)";
}

// The ports of the switches above the leaves: fabric.spine_radix, or the leaves' radix.
int resolve_spine_radix(const FabricSpec& spec, int leaf_radix) {
  if (spec.spine_radix == 0) return leaf_radix;
  if (spec.spine_radix < 2)
    throw InputError(spec.where, "fabric.spine_radix",
                     "a switch needs at least 2 ports, got " + std::to_string(spec.spine_radix),
                     "leave spine_radix out to use the leaves' radix");
  return spec.spine_radix;
}

// require_radix for a switch above the leaves: the error names fabric.spine_radix when it was set.
void require_upper_radix(const FabricSpec& spec, const std::string& what, int64_t needed, int radix,
                         const std::string& fix) {
  if (spec.spine_radix == 0 || needed <= radix) return require_radix(spec, what, needed, radix, fix);
  throw InputError(spec.where, "fabric.spine_radix",
                   what + " needs " + std::to_string(needed) + " ports per switch but spine_radix is " +
                       std::to_string(radix),
                   fix);
}

// How a lower switch's `up` uplinks spread over the next tier: the fewest upper switches S such
// that every lower switch sends the same number of cables (lanes) to each of them, the `lowers`
// switches below fit an upper switch's `upper_ports`, and the uplinks, rounded up to S x lanes,
// fit the lower switch's `max_up` spare ports. Equal lanes keep ECMP next hops equal; rounding
// up (31 uplinks -> 4 spines x 8) avoids a prime uplink count forcing one spine per uplink.
struct Spread {
  int64_t uppers = 0, lanes = 0;
};
Spread spread_uplinks(int64_t up, int64_t lowers, int64_t upper_ports, int64_t max_up) {
  for (int64_t s = std::max<int64_t>(1, ceil_div(lowers * up, upper_ports)); s <= up; ++s) {
    int64_t lanes = ceil_div(up, s);
    if (lanes * s <= max_up && lowers * lanes <= upper_ports) return {s, lanes};
  }
  return {};  // callers check lowers <= upper_ports first, so s = up, lanes = 1 always fits
}

void check_tiers(const FabricSpec& spec, const ClosStyle& style) {
  int t = spec.tiers;
  if (t == 0 || t == 2 || (t == 3 && style.max_tiers >= 3)) return;
  if (style.max_tiers == 2)
    throw InputError(spec.where, "fabric.tiers", style.kind + " has 2 tiers (leaf, spine), got tiers: " + str(t),
                     "use kind: fat_tree for 3 tiers, or leave tiers out");
  throw InputError(spec.where, "fabric.tiers", style.kind + " supports tiers 2 or 3 (0 = automatic), got " + str(t),
                   "use tiers: 2 or 3, or leave tiers out");
}

}  // namespace

ClosPlan plan_clos(const FabricSpec& spec, const FabricShape& shape, const LinkCatalog& cat, const ClosStyle& style) {
  check_tiers(spec, style);
  ClosPlan p;
  p.planes = plane_count(spec, shape);
  FabricShape ps = plane_shape(shape, p.planes);
  p.sw = resolve_switch(spec, shape, cat);
  p.nic_link = nic_tech(shape, cat, spec);
  p.nic_link_name = shape.nic_tech;
  p.columns = style.rail_aligned ? ps.nics_per_server : 1;
  p.positions = style.rail_aligned ? ps.servers : ps.servers * ps.nics_per_server;
  const int R = p.sw.radix;
  const int Rs = p.spine_radix = resolve_spine_radix(spec, R);
  p.leaf = split_ports(spec, "fabric.oversubscription", spec.oversubscription, R);
  p.leaves_per_column = ceil_div(p.positions, p.leaf.down);
  if (p.leaves_per_column == 1 && p.positions < p.leaf.down) {
    // One partly filled leaf per column (fewer servers than a rail leaf's down ports): it gets
    // the uplinks its NICs need at the same ratio, not a full leaf's (2 DGX H100 -> 8 leaves of
    // 2 NICs and 2 uplinks, one spine).
    p.leaf.up = static_cast<int>(ceil_div(p.positions * p.leaf.up, p.leaf.down));
    p.leaf.down = static_cast<int>(p.positions);
  }
  const int64_t u = p.leaf.up;
  const int64_t L = p.leaves();
  if (L == 1) return p;  // every NIC on one leaf: nothing above it would carry traffic

  // Fewest tiers: 2 while one spine layer can reach every leaf (a spine has a port per leaf).
  p.tiers = spec.tiers != 0 ? spec.tiers : (L <= Rs || style.max_tiers == 2 ? 2 : 3);
  if (p.tiers == 2) {
    std::string fix = style.max_tiers == 2 ? "use kind: fat_tree (3 tiers), switches with more ports "
                                             "(fabric.switch_radix or spine_radix), or more planes (fabric.planes)"
                                           : "use tiers: 3 (or leave tiers out), or switches with more ports";
    require_upper_radix(spec, "a " + style.kind + " spine joining " + str(L) + " leaves", L, Rs, fix);
    Spread s = spread_uplinks(u, L, Rs, R - p.leaf.down);
    p.spines_per_pod = s.uppers;
    p.leaf.up = static_cast<int>(s.uppers * s.lanes);
    return p;
  }

  p.spine = split_ports(spec, "fabric.spine_oversubscription", spec.spine_oversubscription, Rs);
  if (p.spine.down < p.columns)
    throw InputError(spec.where, spec.spine_radix ? "fabric.spine_radix" : "fabric.switch_radix",
                     "a 3-tier " + style.kind + " pod spine needs a down port for a leaf of each of the " +
                         str(p.columns) + " rails, but has " + str(p.spine.down) + " (radix " + str(Rs) + ")",
                     "spread the rails over planes (fabric.planes), or use switches with more ports");
  p.leaves_per_pod_column = p.spine.down / p.columns;
  p.pods = ceil_div(p.leaves_per_column, p.leaves_per_pod_column);
  if (p.pods > Rs) {
    int64_t cap = Rs * p.leaves_per_pod_column * p.leaf.down;
    require_upper_radix(spec,
                        "a core switch joining " + str(p.pods) + " pods (3 tiers of " + str(Rs) +
                            "-port spines and cores hold at most " + str(cap) +
                            (style.rail_aligned ? " servers" : " NICs") + " per plane; this design has " +
                            str(p.positions) + ")",
                        p.pods, Rs, capacity_hint(shape, style, p));
  }
  // A full pod: columns x leaves_per_pod_column leaves, each spreading its uplinks over the pod
  // spines, no pod spine using more than its down ports; pod spine j of every pod spreads its
  // uplinks over core group j.
  Spread s = spread_uplinks(u, p.columns * p.leaves_per_pod_column, p.spine.down, R - p.leaf.down);
  p.spines_per_pod = s.uppers;
  p.leaf.up = static_cast<int>(s.uppers * s.lanes);
  p.cores_per_group = spread_uplinks(p.spine.up, p.pods, Rs, p.spine.up).uppers;
  return p;
}

FabricCounts clos_counts(const ClosPlan& p, const FabricShape& shape) {
  const FabricShape ps = plane_shape(shape, p.planes);
  const int R = p.sw.radix, Rs = p.spine_radix;
  const int64_t E = p.endpoints(), L = p.leaves(), u = p.leaf.up;
  FabricCounts c;
  c.cables.push_back({p.nic_link_name, "nic-leaf", E});
  // Crossing capacity of a balanced cut, relative to the NICs on one side: each oversubscribed
  // tier the cut's traffic must climb divides it by that tier's down:up ratio.
  double crossing = 1;
  if (p.tiers == 1) {
    c.tiers.push_back({"leaf", 1, R, E, 1.0});
    c.max_switch_hops = 1;
    c.links_directed = 2 * E;
  } else {
    // Uplinks rounded up past the NICs' bandwidth (spread_uplinks) leave a tier non-blocking: 1.
    const double o1 = std::max(1.0, p.leaf.ratio());
    c.tiers.push_back({"leaf", L, R, E + L * u, o1});
    c.cables.push_back({p.sw.link_name, "leaf-spine", L * u});
    crossing /= o1;
    if (p.tiers == 2) {
      c.tiers.push_back({"spine", p.spines_per_pod, Rs, L * u, 1.0});
      c.max_switch_hops = 3;
      c.links_directed = 2 * (E + L * u);  // every leaf uplink its own link
    } else {
      const int64_t spines = p.pods * p.spines_per_pod, up2 = spines * p.spine.up;
      // The pod spine of a full pod: one port per (leaf, its share of that leaf's uplinks).
      const double down2 = static_cast<double>(p.columns * p.leaves_per_pod_column * (u / p.spines_per_pod));
      const double o2 = std::max(1.0, down2 / p.spine.up);
      c.tiers.push_back({"spine", spines, Rs, L * u + up2, o2});
      c.tiers.push_back({"core", p.spines_per_pod * p.cores_per_group, Rs, up2, 1.0});
      c.cables.push_back({p.sw.link_name, "spine-core", up2});
      // With one pod no shortest path climbs to the cores.
      c.max_switch_hops = p.pods > 1 ? 5 : 3;
      if (p.pods > 1) crossing /= o2;
      c.links_directed = 2 * (E + L * u + up2);
    }
  }
  c.bisection = ps.nic_bandwidth * (static_cast<double>(half_endpoints(ps)) * crossing);
  scale_by_planes(c, p.planes);
  return c;
}

namespace {

// Switch latency on every link into a switch: the convention in fabric_common.hpp.
void build_plane(const ClosPlan& p, const std::vector<FabricEndpoint>& eps, int plane, bool rail_groups, Cluster& c) {
  if (static_cast<int64_t>(eps.size()) != p.endpoints())
    throw std::logic_error("clos: " + str(static_cast<int64_t>(eps.size())) + " endpoints for a plan of " +
                           str(p.endpoints()));
  const std::string pre = plane_prefix(plane, p.planes);
  const Time lat = p.sw.latency;
  const int64_t C = p.columns, Lc = p.leaves_per_column, d = p.leaf.down, u = p.leaf.up;
  const int64_t pod_base = plane * p.pods;
  std::vector<NodeId> leaf(static_cast<size_t>(p.leaves()));
  for (int64_t col = 0; col < C; ++col)
    for (int64_t j = 0; j < Lc; ++j) {
      int64_t pod = p.tiers == 3 ? j / p.leaves_per_pod_column : 0;
      int group = rail_groups ? eps[static_cast<size_t>(col)].rail : static_cast<int>(pod_base + pod);
      leaf[col * Lc + j] = c.add_fabric_node(NodeKind::Switch, 1, group, pre + "leaf" + str(col * Lc + j));
    }
  for (size_t i = 0; i < eps.size(); ++i) {
    int64_t col = static_cast<int64_t>(i) % C, pos = static_cast<int64_t>(i) / C;
    c.connect(eps[i].nic, leaf[col * Lc + pos / d], port_tech(eps[i], p.nic_link), 1, lat);
  }
  if (p.tiers == 1) return;

  const int64_t S = p.spines_per_pod;
  std::vector<NodeId> spine(static_cast<size_t>(p.pods * S));
  for (int64_t pod = 0; pod < p.pods; ++pod)
    for (int64_t s = 0; s < S; ++s)
      spine[pod * S + s] = c.add_fabric_node(NodeKind::Switch, 2, static_cast<int>(pod_base + pod),
                                             pre + "spine" + str(pod * S + s));
  const int lanes1 = static_cast<int>(u / S);
  for (int64_t col = 0; col < C; ++col)
    for (int64_t j = 0; j < Lc; ++j) {
      int64_t pod = p.tiers == 3 ? j / p.leaves_per_pod_column : 0;
      for (int64_t s = 0; s < S; ++s)
        for (int k = 0; k < lanes1; ++k) c.connect(leaf[col * Lc + j], spine[pod * S + s], p.sw.link, 1, lat);
    }
  if (p.tiers == 2) return;

  const int64_t G = p.cores_per_group;
  std::vector<NodeId> core(static_cast<size_t>(S * G));
  for (int64_t k = 0; k < S * G; ++k)
    core[k] = c.add_fabric_node(NodeKind::Switch, 3, plane, pre + "core" + str(k));
  const int lanes2 = static_cast<int>(p.spine.up / G);
  for (int64_t pod = 0; pod < p.pods; ++pod)
    for (int64_t s = 0; s < S; ++s)
      for (int64_t k = 0; k < G; ++k)
        for (int q = 0; q < lanes2; ++q) c.connect(spine[pod * S + s], core[s * G + k], p.sw.link, 1, lat);
}

}  // namespace

void build_clos(const ClosPlan& plan, const FabricShape& shape, const std::vector<FabricEndpoint>& eps,
                bool leaf_group_is_rail, Cluster& cluster) {
  auto planes = split_planes(eps, shape.nics_per_server, plan.planes);
  for (int pl = 0; pl < plan.planes; ++pl) build_plane(plan, planes[pl], pl, leaf_group_is_rail, cluster);
}

}  // namespace gf
