#include "engine/queue_pairs.hpp"

#include <cstddef>
#include <utility>

#include "topology/nic_transport.hpp"

namespace gf {

int connection_queue_pairs(const Cluster& c, const Route& route) {
  const NetTransportSettings& net = c.server_template().transport.net;
  if (net.ib_qps <= 1 || net.socket) return 1;
  for (const Leg& leg : route)
    for (LinkId l : leg.path.links) {
      const NicTransport t = transport_of_family(c.catalog().tech(c.link(l).tech).family);
      if (t == NicTransport::IbVerbs || t == NicTransport::RoceVerbs) return net.ib_qps;
    }
  return 1;
}

Route over_queue_pairs(Route first, int qps, const std::function<Route(int q)>& route_of) {
  if (qps <= 1) return first;
  Route out;
  out.reserve(first.size() * static_cast<size_t>(qps));
  auto add = [&](Route r) {
    for (Leg& leg : r) {
      leg.share /= qps;
      out.push_back(std::move(leg));
    }
  };
  add(std::move(first));
  for (int q = 1; q < qps; ++q) add(route_of(q));
  return out;
}

}  // namespace gf
