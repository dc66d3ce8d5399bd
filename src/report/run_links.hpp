// A scenario's links as the HTML page draws them: every link's utilisation grouped by fabric tier
// (inside servers, the servers' NIC links, leaf-spine, spine-core), and per job the links its
// routes crossed that another job's routes crossed too (where jobs can slow each other down).
//
// Utilisation is the scenario report's: wire bytes carried / (catalog bandwidth x makespan).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/units.hpp"
#include "topology/cluster.hpp"
#include "workload/scenario_view.hpp"

namespace gf {

// A link's tier by its end nodes: a NIC to or from a network switch is a NIC link; switch to
// switch by the lower switch's tier (1 leaf-spine, 2 spine-core); anything without a network
// switch at either end is inside a server (NVLink, PCIe); the rest (an NVLink Switch domain,
// switch pairs a fabric joins otherwise) is "other".
enum class LinkTier : uint8_t { InsideServers, NicLinks, LeafSpine, SpineCore, Other };
constexpr int kLinkTiers = 5;
const char* tier_title(LinkTier t);
LinkTier link_tier(const Cluster& c, LinkId l);

struct LinkHeat {
  LinkId link = 0;
  std::string from, to;  // node names as `gpufabric topo` prints them
  double bytes = 0;
  double utilisation = 0;
};

struct JobLinks {
  size_t used = 0;                // links the job's routes cross
  std::vector<LinkHeat> shared;   // of those, the ones another job crosses too; most utilised first
};

struct RunLinks {
  std::vector<std::vector<LinkHeat>> tiers;  // [LinkTier], every link of the tier in link-id order
  std::vector<JobLinks> jobs;                // in the scenario's job order
};

RunLinks run_links(const ScenarioView& v);

// Every link of `c` by tier ([LinkTier], link-id order), given the bytes each carried
// (`carried`, by LinkId; missing ids carried none) over `seconds`: utilisation = bytes /
// (catalog bandwidth x seconds).
std::vector<std::vector<LinkHeat>> link_tiers(const Cluster& c, const std::vector<double>& carried, double seconds);

}  // namespace gf
