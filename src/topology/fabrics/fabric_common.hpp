// Helpers shared by the fabric builders: which switch model and link technology a spec resolves
// to, the radix checks every builder makes, how a leaf's ports split for an oversubscription
// ratio, and how NICs are spread over independent planes.
//
// Latency convention of every builder: a link with a switch at one end carries that switch's
// forwarding latency on top of the wire (connect() gives both directions the same figure, so
// latency is symmetric); a switch-to-switch link carries one switch latency. A path through h
// switches therefore adds h + 1 switch latencies, one more than it crosses, equally on every
// path (single_switch does the same). Direct links (mesh, torus) carry the wire alone.
#pragma once

#include <string>
#include <vector>

#include "topology/cluster.hpp"
#include "topology/fabric.hpp"

namespace gf {

struct ResolvedSwitch {
  std::string model;  // switch model name, or "custom"
  int radix = 0;
  Time latency;       // forwarding latency, added to links that enter the switch
  TechId link = 0;    // technology of switch-to-switch and NIC-to-switch links
  std::string link_name;
};

// spec.link (or the NICs' technology), spec.switch_model (or the catalog default for that
// technology) and spec.switch_radix (or the model's radix). Throws InputError at spec.where.
ResolvedSwitch resolve_switch(const FabricSpec& spec, const FabricShape& shape, const LinkCatalog& cat);

// Throws InputError "needs N ports per switch but the switch has R" at spec.where.
void require_radix(const FabricSpec& spec, const std::string& what, int64_t needed, int radix,
                   const std::string& fix);

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The NICs' own technology: NIC-to-switch cables and direct NIC-to-NIC links (mesh, torus) use
// it, whatever fabric.link says about switch-to-switch cables.
TechId nic_tech(const FabricShape& shape, const LinkCatalog& cat, const FabricSpec& spec);
// The technology of the cable at endpoint `e`: `shared` (what the builder uses for every NIC
// port) unless this NIC's own technology differs, since a port runs at its NIC's speed.
inline TechId port_tech(const FabricEndpoint& e, TechId shared) { return e.tech == kShapeTech ? shared : e.tech; }
// A direct NIC-to-NIC cable runs at the slower of its two ports.
TechId slower_tech(const LinkCatalog& cat, TechId a, TechId b);

// A switch's ports split into `down` (towards NICs) and `up` (towards the next tier) for a
// down:up bandwidth ratio o >= 1. Rule: up = max(1, floor(R / (1 + o))), then
// down = min(R - up, round(o * up)): the ratio is o as closely as the radix allows and never
// more ports than the switch has (R = 64: o = 1 -> 32/32, o = 2 -> 42/21, o = 3 -> 48/16).
struct PortSplit {
  int down = 0, up = 0;
  double ratio() const { return static_cast<double>(down) / up; }
};
// `key` names the spec field for the error when o < 1.
PortSplit split_ports(const FabricSpec& spec, const std::string& key, double o, int radix);

// NIC endpoints on each side of a balanced cut of servers: floor(servers / 2) x NICs per server.
inline int64_t half_endpoints(const FabricShape& s) { return s.servers / 2 * s.nics_per_server; }

// --- planes: spec.planes independent copies of a fabric; a NIC of rail r joins plane r % P ---
// The validated plane count: P >= 1 and dividing the NICs per server. Throws InputError.
int plane_count(const FabricSpec& spec, const FabricShape& shape);
// What one plane connects: every server, with nics_per_server / P NICs.
FabricShape plane_shape(const FabricShape& shape, int planes);
// Counts of one plane -> the whole fabric (switches, ports, cables, bisection, links x P).
void scale_by_planes(FabricCounts& c, int planes);
// "" for a single plane, "p1/" for plane 1 of several: prefixes switch names.
std::string plane_prefix(int plane, int planes);
// Endpoints of each plane in server-then-rail order, with `rail` set to the NIC's rail index
// 0..n-1 (the template's rails when they are 0..n-1, else the NIC's position in the server).
std::vector<std::vector<FabricEndpoint>> split_planes(const std::vector<FabricEndpoint>& eps, int nics_per_server,
                                                      int planes);
// Direct fabrics (mesh, torus) have no switches to replicate: planes must be 1.
void require_one_plane(const FabricSpec& spec, const std::string& kind);

}  // namespace gf
