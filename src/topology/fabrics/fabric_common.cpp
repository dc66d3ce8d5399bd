#include "topology/fabrics/fabric_common.hpp"

#include <algorithm>
#include <cmath>

namespace gf {

ResolvedSwitch resolve_switch(const FabricSpec& spec, const FabricShape& shape, const LinkCatalog& cat) {
  ResolvedSwitch r;
  r.link_name = spec.link.empty() ? shape.nic_tech : spec.link;
  auto tech = cat.find(r.link_name);
  if (!tech)
    throw InputError(spec.where, "fabric.link", "unknown link technology '" + r.link_name + "'",
                     suggest(r.link_name, cat.tech_names()));
  r.link = *tech;
  std::optional<SwitchModel> model;
  if (!spec.switch_model.empty()) {
    model = cat.find_switch(spec.switch_model);
    if (!model)
      throw InputError(spec.where, "fabric.switch_model", "unknown switch model '" + spec.switch_model + "'",
                       suggest(spec.switch_model, cat.switch_names()));
  } else {
    model = cat.default_switch_for(r.link_name);
  }
  if (model) {
    r.model = model->name;
    r.radix = model->radix;
    r.latency = model->latency;
  } else {
    r.model = "custom";
    r.latency = Time::ns(500);  // estimate for an unnamed Ethernet/IB switch
  }
  if (spec.switch_radix > 0) r.radix = spec.switch_radix;
  if (spec.switch_latency) r.latency = *spec.switch_latency;
  if (r.radix <= 0)
    throw InputError(spec.where, "fabric.switch_radix", "no switch model is known for '" + r.link_name + "'",
                     "set fabric.switch_radix (ports per switch) or fabric.switch_model");
  if (r.radix < 2)
    throw InputError(spec.where, "fabric.switch_radix", "a switch needs at least 2 ports, got " + std::to_string(r.radix),
                     "set fabric.switch_radix to the switch's port count, e.g. 64");
  return r;
}

void require_radix(const FabricSpec& spec, const std::string& what, int64_t needed, int radix, const std::string& fix) {
  if (needed > radix)
    throw InputError(spec.where, "fabric.switch_radix",
                     what + " needs " + std::to_string(needed) + " ports per switch but the switch has " +
                         std::to_string(radix),
                     fix);
}

TechId slower_tech(const LinkCatalog& cat, TechId a, TechId b) {
  return cat.tech(b).per_lane.bytes_per_second() < cat.tech(a).per_lane.bytes_per_second() ? b : a;
}

TechId nic_tech(const FabricShape& shape, const LinkCatalog& cat, const FabricSpec& spec) {
  auto t = cat.find(shape.nic_tech);
  if (!t)
    throw InputError(spec.where, "server", "unknown NIC technology '" + shape.nic_tech + "'",
                     suggest(shape.nic_tech, cat.tech_names()));
  return *t;
}

PortSplit split_ports(const FabricSpec& spec, const std::string& key, double o, int radix) {
  if (!(o >= 1))
    throw InputError(spec.where, key, "oversubscription must be at least 1 (down:up bandwidth), got " + std::to_string(o),
                     "1 is non-blocking; 2 means twice as much bandwidth down to the NICs as up to the next tier");
  PortSplit p;
  p.up = std::max(1, static_cast<int>(std::floor(radix / (1.0 + o))));
  p.down = std::min(radix - p.up, static_cast<int>(std::lround(o * p.up)));
  return p;
}

int plane_count(const FabricSpec& spec, const FabricShape& shape) {
  int p = spec.planes;
  if (p < 1)
    throw InputError(spec.where, "fabric.planes", "planes must be at least 1, got " + std::to_string(p), "use planes: 1 (one network) or more");
  if (shape.nics_per_server % p != 0)
    throw InputError(spec.where, "fabric.planes",
                     std::to_string(shape.nics_per_server) + " NICs per server cannot be spread evenly over " +
                         std::to_string(p) + " planes",
                     "choose a number of planes that divides the NICs per server");
  return p;
}

FabricShape plane_shape(const FabricShape& shape, int planes) {
  FabricShape s = shape;
  s.nics_per_server = shape.nics_per_server / planes;
  return s;
}

void scale_by_planes(FabricCounts& c, int planes) {
  for (auto& t : c.tiers) t.switches *= planes, t.ports_used *= planes;
  for (auto& x : c.cables) x.count *= planes;
  c.bisection = c.bisection * static_cast<double>(planes);
  c.links_directed *= planes;
}

std::string plane_prefix(int plane, int planes) {
  return planes > 1 ? "p" + std::to_string(plane) + "/" : std::string();
}

std::vector<std::vector<FabricEndpoint>> split_planes(const std::vector<FabricEndpoint>& eps, int nics_per_server,
                                                      int planes) {
  // count() only knows how many NICs a server has, so rails are taken as 0..n-1; a template whose
  // rails are not exactly that (repeats, gaps) falls back to the NIC's position in the server.
  const auto n = static_cast<size_t>(nics_per_server);
  std::vector<int> rail(n);
  std::vector<char> seen(n, 0);
  bool permutation = eps.size() >= n;
  for (size_t i = 0; i < n && permutation; ++i) {
    int r = eps[i].rail;
    permutation = r >= 0 && static_cast<size_t>(r) < n && !seen[static_cast<size_t>(r)];
    if (permutation) seen[static_cast<size_t>(r)] = 1, rail[i] = r;
  }
  for (size_t i = 0; i < n && !permutation; ++i) rail[i] = static_cast<int>(i);
  std::vector<std::vector<FabricEndpoint>> out(static_cast<size_t>(planes));
  for (auto& v : out) v.reserve(eps.size() / static_cast<size_t>(planes));
  for (size_t i = 0; i < eps.size(); ++i) {
    FabricEndpoint e = eps[i];
    e.rail = rail[i % n];
    out[static_cast<size_t>(e.rail % planes)].push_back(e);
  }
  return out;
}

void require_one_plane(const FabricSpec& spec, const std::string& kind) {
  if (spec.planes != 1)
    throw InputError(spec.where, "fabric.planes", kind + " has no switches to replicate over planes",
                     "remove planes (it applies to switched fabrics: leaf_spine, fat_tree, rail_optimized, dragonfly)");
}

}  // namespace gf
