#include "collective/schedule.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/prefault.hpp"

namespace gf {

Schedule::Schedule(std::string algorithm, int nranks, int channels, Protocol proto)
    : algorithm_(std::move(algorithm)), nranks_(nranks), channels_(channels), proto_(proto) {}

TransferId Schedule::add(const Transfer& t, std::span<const TransferId> deps) {
  auto id = static_cast<TransferId>(transfers_.size());
  for (TransferId d : deps)
    if (d < 0 || d >= id) throw std::logic_error("schedule dependency on a transfer not yet added");
  transfers_.push_back(t);
  deps_.insert(deps_.end(), deps.begin(), deps.end());
  dep_begin_.push_back(static_cast<uint32_t>(deps_.size()));
  return id;
}

void Schedule::reserve(size_t transfers, size_t dependencies) {
  // Mapped in one call each, not a page fault per 4 KiB (core/prefault.hpp).
  reserve_prefaulted(transfers_, transfers);
  reserve_prefaulted(dep_begin_, transfers + 1);
  reserve_prefaulted(deps_, dependencies);
}

int Schedule::add_group(RankGroup g) {
  groups_.push_back(std::move(g));
  return static_cast<int>(groups_.size() - 1);
}

std::span<const TransferId> Schedule::deps(TransferId id) const {
  auto i = static_cast<size_t>(id);
  return {deps_.data() + dep_begin_[i], deps_.data() + dep_begin_[i + 1]};
}

Bytes Schedule::bytes_sent(Rank r) const {
  int64_t b = 0;
  for (const auto& t : transfers_) {
    if (t.src == r) b += t.bytes.count();
    else if (is_group(t.src)) {
      const auto& m = groups_[static_cast<size_t>(group_index(t.src))].ranks;
      if (std::find(m.begin(), m.end(), r) != m.end()) b += t.bytes.count();
    }
  }
  return Bytes(b);
}

Bytes Schedule::bytes_received(Rank r) const {
  int64_t b = 0;
  for (const auto& t : transfers_) {
    if (t.dst == r) b += t.bytes.count();
    else if (is_group(t.dst)) {
      const auto& m = groups_[static_cast<size_t>(group_index(t.dst))].ranks;
      if (std::find(m.begin(), m.end(), r) != m.end()) b += t.bytes.count();
    }
  }
  return Bytes(b);
}

int Schedule::depth() const {
  std::vector<int> d(transfers_.size(), 1);
  int best = 0;
  for (size_t i = 0; i < transfers_.size(); ++i) {  // deps always precede: one forward pass
    for (TransferId p : deps(static_cast<TransferId>(i))) d[i] = std::max(d[i], d[static_cast<size_t>(p)] + 1);
    best = std::max(best, d[i]);
  }
  return best;
}

}  // namespace gf
