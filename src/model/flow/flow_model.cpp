#include "model/flow/flow_model.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <type_traits>

#include "core/hash.hpp"
#include "core/radix_sort.hpp"

namespace gf {

namespace {

// Event keys: the top bit orders completions (0) before activations (1) at one instant; the rest
// is the flow's solver id and version (completions) or the transfer id then its slot
// (activations), so simultaneous activations run in transfer id order.
constexpr uint64_t kActivate = 1ull << 63;
uint64_t activate_key(TransferId id, int32_t slot) {
  return kActivate | (static_cast<uint64_t>(static_cast<uint32_t>(id)) << 32) | static_cast<uint32_t>(slot);
}
uint64_t finish_key(int32_t v, uint32_t version) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(v)) << 32) | version;
}

}  // namespace

FlowModel::FlowModel(const Cluster& cluster, ModelParams params)
    : cost_(cluster, params), carried_(cluster.links().size(), 0.0) {
  for (size_t l = 0; l < cluster.links().size(); ++l) solver_.add_resource(cost_.capacity(static_cast<LinkId>(l)));
}

double FlowModel::link_load(LinkId l) const { return solver_.weight_on(l) / cost_.capacity(l); }

Time FlowModel::alpha(const ModelTransfer& t) {
  const uint64_t h = mix_hash(reinterpret_cast<uintptr_t>(t.route.get()), 0);
  size_t mask = alpha_cache_.size() - 1;
  size_t i = h & mask;
  for (; alpha_cache_[i].route; i = (i + 1) & mask) {
    AlphaEntry& e = alpha_cache_[i];
    if (e.route != t.route) continue;
    if (e.step_latency != t.step_latency || e.steps != t.steps) {  // same route, other fields
      e.step_latency = t.step_latency;
      e.steps = t.steps;
      e.alpha = cost_.alpha(t);
    }
    return e.alpha;
  }
  if (2 * (alpha_used_ + 1) > alpha_cache_.size()) {  // keep the load under 1/2
    std::vector<AlphaEntry> old(alpha_cache_.size() < kAlphaMax ? 2 * alpha_cache_.size() : alpha_cache_.size());
    old.swap(alpha_cache_);
    alpha_used_ = 0;
    mask = alpha_cache_.size() - 1;
    if (alpha_cache_.size() > old.size())  // grown: keep the entries; at the cap: start empty
      for (AlphaEntry& e : old)
        if (e.route) {
          size_t j = mix_hash(reinterpret_cast<uintptr_t>(e.route.get()), 0) & mask;
          while (alpha_cache_[j].route) j = (j + 1) & mask;
          alpha_cache_[j] = std::move(e);
          ++alpha_used_;
        }
    i = h & mask;
    while (alpha_cache_[i].route) i = (i + 1) & mask;
  }
  AlphaEntry& e = alpha_cache_[i];
  e.route = t.route;
  e.step_latency = t.step_latency;
  e.steps = t.steps;
  e.alpha = cost_.alpha(t);
  ++alpha_used_;
  return e.alpha;
}

void FlowModel::start(TransferId id, const ModelTransfer& t, Time now) {
  int32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<int32_t>(pending_.size());
    pending_.emplace_back();
  }
  Pending& p = pending_[static_cast<size_t>(slot)];
  p.id = id;
  p.route = t.route;
  p.bytes = static_cast<double>(t.bytes.count());
  p.inflation = cost_.inflation(t);
  p.reduce_s = TransferCost::reduce_seconds(t);
  p.legs_left = 0;
  events_.push(now + alpha(t), activate_key(id, slot));
}

void FlowModel::finish_transfer(int32_t slot) {
  Pending& p = pending_[static_cast<size_t>(slot)];
  completed_.push_back(p.id);
  p.route.reset();
  free_slots_.push_back(slot);
}

void FlowModel::activate(int32_t slot, Time now) {
  Pending& p = pending_[static_cast<size_t>(slot)];
  const double reduce_s = p.reduce_s;
  for (const Leg& leg : *p.route) {
    const double wire = p.bytes * leg.share * p.inflation;  // in the order it always was: same bits
    if (wire <= 0) continue;
    for (LinkId l : leg.path.links) carried_[static_cast<size_t>(l)] += wire;
    // The GPU reduces what arrives no faster than reduce_rate: this leg's part of the output
    // cannot arrive faster than its wire bytes over the whole reduction time.
    const double bound = reduce_s > 0 ? wire / reduce_s : MaxMinSolver::kUnbounded;
    ++p.legs_left;
    // Merge with an identical flow activated at this instant, if any.
    // A multiply-add per link (the table only needs equal inputs to hash equal and different ones
    // to spread), then one full mix with the sizes.
    uint64_t h = 0;
    for (LinkId l : leg.path.links) h = h * 0x9e3779b97f4a7c15ull + static_cast<uint32_t>(l);
    h = mix_hash(h, std::bit_cast<uint64_t>(wire) ^ (std::bit_cast<uint64_t>(bound) * 0xbf58476d1ce4e5b9ull));
    bool merged = false;
    const size_t mask = batch_table_.size() - 1;
    for (size_t i = h & mask; batch_table_[i].var >= 0 && !merged; i = (i + 1) & mask) {
      if (batch_table_[i].hash != h) continue;
      const MaxMinSolver::VarId v = batch_table_[i].var;
      Flow& f = flows_[static_cast<size_t>(v)];
      const auto links = solver_.resources_of(v);
      if (f.remaining != wire || f.bound != bound || !std::equal(links.begin(), links.end(), leg.path.links.begin(), leg.path.links.end()))
        continue;
      f.slots.push_back(slot);
      solver_.set_weight(v, static_cast<double>(f.slots.size()));
      merged = true;
    }
    if (merged) continue;
    // Links are the solver's resources one for one, so a path is already a resource list.
    static_assert(std::is_same_v<LinkId, MaxMinSolver::ResourceId>);
    MaxMinSolver::VarId v = solver_.add_variable(leg.path.links, 1.0, bound);
    if (flows_.size() <= static_cast<size_t>(v)) flows_.resize(static_cast<size_t>(v) + 1);
    Flow& f = flows_[static_cast<size_t>(v)];
    f.slots.assign(1, slot);
    f.remaining = wire;
    f.bound = bound;
    f.rate = 0;
    f.since = now;
    batch_insert(h, v);
  }
  peak_flows_ = std::max(peak_flows_, solver_.live_variables());
  // Nothing to carry (an empty payload): done once the latency has passed.
  if (p.legs_left == 0) finish_transfer(slot);
}

void FlowModel::batch_insert(uint64_t hash, MaxMinSolver::VarId v) {
  if (2 * (batch_used_.size() + 1) > batch_table_.size()) {  // keep the load factor under 1/2
    std::vector<BatchEntry> old(2 * batch_table_.size());
    old.swap(batch_table_);
    batch_used_.clear();
    for (const BatchEntry& e : old)
      if (e.var >= 0) batch_insert(e.hash, e.var);
  }
  const size_t mask = batch_table_.size() - 1;
  size_t i = hash & mask;
  while (batch_table_[i].var >= 0) i = (i + 1) & mask;
  batch_table_[i] = {hash, v};
  batch_used_.push_back(i);
}

void FlowModel::batch_clear() {
  for (size_t i : batch_used_) batch_table_[i] = {};
  batch_used_.clear();
}

void FlowModel::finish_flow(MaxMinSolver::VarId v) {
  Flow& f = flows_[static_cast<size_t>(v)];
  solver_.remove_variable(v);
  ++f.version;  // any other pending completion of this slot is stale
  for (int32_t slot : f.slots)
    if (--pending_[static_cast<size_t>(slot)].legs_left == 0) finish_transfer(slot);
  f.slots.clear();
}

void FlowModel::reschedule(MaxMinSolver::VarId v, Time now) {
  Flow& f = flows_[static_cast<size_t>(v)];
  const double elapsed = static_cast<double>((now - f.since).picoseconds()) * 1e-12;
  f.remaining = std::max(0.0, f.remaining - f.rate * elapsed);
  f.since = now;
  f.rate = solver_.rate(v) / static_cast<double>(f.slots.size());  // per member
  ++f.version;
  Time at = now;
  if (f.rate == MaxMinSolver::kUnbounded) {
    at = now;
  } else if (f.rate > 0) {
    at = now + Time::ps(static_cast<int64_t>(std::ceil(f.remaining / f.rate * 1e12)));
  } else {
    return;  // starved (a zero-capacity link): no completion until a rate is given
  }
  events_.push(at, finish_key(v, f.version));
}

void FlowModel::advance_to(Time t, CompletionSink& done) {
  while (events_.next_time() <= t) {
    const Time now = events_.pop_instant(instant_);
    completed_.clear();
    events_processed_ += instant_.size();
    for (const uint64_t key : instant_) {
      if (key & kActivate) {
        activate(static_cast<int32_t>(key & 0xffffffffu), now);
      } else {
        auto v = static_cast<MaxMinSolver::VarId>(key >> 32);
        auto version = static_cast<uint32_t>(key & 0xffffffffu);
        Flow& f = flows_[static_cast<size_t>(v)];
        if (!f.slots.empty() && f.version == version) finish_flow(v);
      }
    }
    batch_clear();
    changed_.clear();
    solver_.solve(changed_);
    for (MaxMinSolver::VarId v : changed_) reschedule(v, now);
    sort_ids(completed_, sort_scratch_);
    for (TransferId id : completed_) done.completed(id, now);
  }
}

}  // namespace gf
