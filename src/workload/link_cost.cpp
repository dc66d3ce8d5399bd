#include "workload/link_cost.hpp"

#include <algorithm>

#include "engine/transfer_routes.hpp"
#include "topology/bundle.hpp"

namespace gf {

std::vector<double> link_busy_seconds(const Schedule& s, const Communicator& comm, const Router& router, uint64_t seed,
                                      RoutingPolicy policy) {
  const Cluster& c = *comm.cluster;
  std::vector<double> bytes(c.links().size(), 0.0);
  RouteCache routes(s, comm, router, seed, policy);
  for (TransferId id = 0; id < static_cast<TransferId>(s.size()); ++id) {
    const double b = static_cast<double>(s.transfer(id).bytes.count());
    for (const Leg& leg : *routes.route(id))
      for (LinkId l : leg.path.links) bytes[static_cast<size_t>(l)] += b * leg.share;
  }
  for (size_t l = 0; l < bytes.size(); ++l) {
    const double bw = c.link(static_cast<LinkId>(l)).bandwidth.bytes_per_second();
    bytes[l] = bw > 0 ? bytes[l] / bw : 0.0;
  }
  return bytes;
}

std::vector<LinkCost> links_that_carried_the_cost(const Cluster& c, const std::vector<double>& failed,
                                                  const std::vector<double>& baseline, size_t k) {
  std::vector<LinkCost> grew;
  for (size_t l = 0; l < failed.size(); ++l) {
    const double base = l < baseline.size() ? baseline[l] : 0.0;
    if (failed[l] <= base) continue;
    const Link& link = c.link(static_cast<LinkId>(l));
    // One cable of a bundle (topology/bundle.hpp) says which: "spine0 (cable 2 of 8)".
    const BundlePlace place = bundle_place(c, static_cast<LinkId>(l));
    std::string to = c.node_name(link.dst);
    if (place.cables > 1) to += " (cable " + std::to_string(place.cable) + " of " + std::to_string(place.cables) + ")";
    grew.push_back({static_cast<LinkId>(l), c.node_name(link.src), std::move(to), failed[l], base, place.cable,
                    place.cables, link.lanes});
  }
  const auto order = [](const LinkCost& a, const LinkCost& b) {
    const double ga = a.busy_s - a.baseline_busy_s, gb = b.busy_s - b.baseline_busy_s;
    return ga != gb ? ga > gb : a.link < b.link;
  };
  const size_t n = std::min(k, grew.size());
  std::partial_sort(grew.begin(), grew.begin() + static_cast<std::ptrdiff_t>(n), grew.end(), order);
  grew.resize(n);
  return grew;
}

}  // namespace gf
