#include "model/channel_rate.hpp"

#include <algorithm>
#include <limits>

namespace gf {

double channel_wire_cap(const TransferCost& cost, int graph_channels, const Path& path) {
  if (graph_channels <= 1 || path.links.empty()) return std::numeric_limits<double>::infinity();
  const int sharing =
      hop_class(cost.cluster(), path) == HopClass::Net ? std::min(graph_channels, kGraphChannelsPerNic) : graph_channels;
  double least = std::numeric_limits<double>::infinity();
  for (LinkId l : path.links) least = std::min(least, cost.capacity(l));
  return least / sharing;
}

double channel_wire_cap(const TransferCost& cost, const ModelTransfer& t, const Path& path) {
  return channel_wire_cap(cost, t.channels, path);
}

}  // namespace gf
