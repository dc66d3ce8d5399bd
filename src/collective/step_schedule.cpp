#include "collective/step_schedule.hpp"

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace gf {

StepSchedule::StepSchedule(Schedule pattern, int steps) : pattern_(std::move(pattern)), steps_(steps) {
  const size_t n = pattern_.size();
  if (n == 0 || n % 2 != 0)
    throw std::invalid_argument("a step pattern needs its first step and one later step of as many transfers (got " +
                                std::to_string(n) + " transfers)");
  if (steps_ < 1) throw std::invalid_argument("a step pattern needs at least one step");
  const size_t p = n / 2;
  if (p * static_cast<size_t>(steps_) > static_cast<size_t>(std::numeric_limits<TransferId>::max()))
    throw std::invalid_argument("a step pattern of " + std::to_string(steps_) + " steps of " + std::to_string(p) +
                                " transfers has more ids than a TransferId holds");
  for (size_t i = 0; i < n; ++i) {
    const auto id = static_cast<TransferId>(i);
    const auto deps = pattern_.deps(id);
    if (i < p && !deps.empty())
      throw std::invalid_argument("transfer " + std::to_string(i) + " of a step pattern's first step has a dependency");
    if (i >= p && deps.empty())
      throw std::invalid_argument("transfer " + std::to_string(i) + " of a step pattern's later step has no dependency");
    for (TransferId d : deps)
      if (static_cast<size_t>(d) >= p)
        throw std::invalid_argument("transfer " + std::to_string(i) +
                                    " of a step pattern's later step depends on a transfer outside the first step");
    if (i >= p && pattern_.transfer(id).step + (steps_ - 2) > std::numeric_limits<int16_t>::max())
      throw std::invalid_argument("a step pattern's step labels would not fit 16 bits");
  }
}

Schedule StepSchedule::expand() const {
  const Schedule& p = pattern_;
  Schedule s(p.algorithm(), p.nranks(), p.channels(), p.protocol());
  for (const RankGroup& g : p.groups()) s.add_group(g);
  s.set_base_latency(p.base_latency());
  s.set_step_latency(p.step_latency());
  s.set_in_network_efficiency(p.in_network_efficiency());
  s.set_scale_up_efficiency(p.scale_up_efficiency());
  s.set_traffic_class(p.traffic_class());
  s.set_pxn(p.pxn());
  const size_t per = per_step();
  size_t deps = 0;
  for (size_t j = per; j < 2 * per; ++j) deps += p.deps(static_cast<TransferId>(j)).size();
  s.reserve(size(), deps * static_cast<size_t>(steps_ - 1));
  for (size_t j = 0; j < per; ++j) s.add(p.transfer(static_cast<TransferId>(j)));
  std::vector<TransferId> moved;
  for (int k = 1; k < steps_; ++k) {
    const auto shift = static_cast<TransferId>(static_cast<size_t>(k - 1) * per);
    for (size_t j = per; j < 2 * per; ++j) {
      const auto id = static_cast<TransferId>(j);
      Transfer t = p.transfer(id);
      t.step = static_cast<int16_t>(t.step + (k - 1));
      moved.clear();
      for (TransferId d : p.deps(id)) moved.push_back(d + shift);
      s.add(t, moved);
    }
  }
  return s;
}

}  // namespace gf
