// What the model tests that drive a Model by hand share: a sink that records each transfer's
// completion in order, and a loop that runs a model until nothing is left to happen.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "model/model.hpp"

namespace gftest {

// Every completion, in the order the model reported it.
struct Done final : gf::CompletionSink {
  std::vector<std::pair<gf::TransferId, gf::Time>> order;
  void completed(gf::TransferId id, gf::Time at) override { order.emplace_back(id, at); }
};

// Runs `m` to its last event; the completion instant of transfers 0..n-1 (infinity if none).
inline std::vector<gf::Time> drain(gf::Model& m, size_t n) {
  Done d;
  while (!m.next_event_time().is_infinite()) m.advance_to(m.next_event_time(), d);
  std::vector<gf::Time> out(n, gf::Time::infinity());
  for (auto [id, at] : d.order) out[static_cast<size_t>(id)] = at;
  return out;
}

}  // namespace gftest
