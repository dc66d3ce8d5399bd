// What adaptive routing asks of the model: how loaded a link is now (any non-negative measure
// whose order is meaningful: bytes queued, flows crossing it, utilisation). Routing reads it and
// never depends on the model that provides it.
#pragma once

#include "topology/node.hpp"

namespace gf {

class LinkLoad {
 public:
  virtual ~LinkLoad() = default;
  virtual double load(LinkId link) const = 0;
};

}  // namespace gf
