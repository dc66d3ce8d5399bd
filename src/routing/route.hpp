// A Route is how one transfer's bytes cross the network: one or more paths used at once, each
// with the share of the bytes it carries. NVLink/NVSwitch traffic is spread by the hardware over
// every equal-cost route in proportion to its bandwidth; network traffic is pinned by the ECMP
// hash to one path.
#pragma once

#include <vector>

#include "routing/path.hpp"

namespace gf {

struct Leg {
  Path path;
  double share = 1.0;  // fraction of the transfer's bytes on this path
};

using Route = std::vector<Leg>;

}  // namespace gf
