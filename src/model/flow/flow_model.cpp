#include "model/flow/flow_model.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "core/hash.hpp"
#include "core/radix_sort.hpp"
#include "model/flow/implied_links.hpp"
#include "model/gpu_compute.hpp"

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

// A multiply-add per link: equal paths hash equal.
uint64_t path_hash(const Path& path) {
  uint64_t h = 0;
  for (LinkId l : path.links) h = h * 0x9e3779b97f4a7c15ull + static_cast<uint32_t>(l);
  return h;
}
// A flow's merge hash: its links' hash mixed with its wire bytes and rate cap.
uint64_t merge_hash(uint64_t link_hash, double wire, double bound) {
  return mix_hash(link_hash, std::bit_cast<uint64_t>(wire) ^ (std::bit_cast<uint64_t>(bound) * 0xbf58476d1ce4e5b9ull));
}

}  // namespace

FlowModel::FlowModel(const Cluster& cluster, ModelParams params)
    : cost_(cluster, params),
      carried_(cluster.links().size(), 0.0),
      cover_(implied_link_covers(cluster, cost_)) {
  batch_link_.resize(cluster.links().size());
  for (size_t l = 0; l < cluster.links().size(); ++l) solver_.add_resource(cost_.capacity(static_cast<LinkId>(l)));
}

// A link is in the solver for all of its flows or for none (restore_implied), so one of the two
// terms is zero and the sum is the weight the solver would hold, to the bit (weights are whole).
double FlowModel::link_load(LinkId l) const {
  if (!track_implied_) {
    track_implied_ = true;
    implied_weight_.assign(cover_.size(), 0.0);
    for (const Flow& f : flows_)
      if (f.count != 0)
        for (LinkId k : f.path->links)
          if (cover_[static_cast<size_t>(k)] >= 0) implied_weight_[static_cast<size_t>(k)] += static_cast<double>(f.count);
  }
  return (solver_.weight_on(l) + implied_weight_[static_cast<size_t>(l)]) / cost_.capacity(l);
}

void FlowModel::set_link_fraction(LinkId l, double fraction, Time now) {
  // A link left out of the problem as implied by its cover is implied no more once its own
  // capacity changes: it goes back into every live flow on it first.
  if (cover_[static_cast<size_t>(l)] >= 0) restore_implied(l);
  // A link that covers others stays a tighter constraint when its capacity falls; back at its own
  // capacity it is what it was when the covers were worked out. A fraction above 1 would break
  // that, so it is refused by the callers (scenario events) before it reaches here.
  solver_.set_capacity(l, cost_.capacity(l) * fraction);
  changed_.clear();
  solver_.solve(changed_);
  for (MaxMinSolver::VarId v : changed_) reschedule(v, now);
}

void FlowModel::set_gpu_compute(NodeId gpu, double fraction) {
  check_gpu_compute(cost_.cluster(), gpu, fraction);
  const size_t nodes = cost_.cluster().nodes().size();
  if (gpu_resource_.empty()) {
    gpu_resource_.assign(nodes, -1);
    gpu_fraction_.assign(nodes, 1.0);
  }
  const auto g = static_cast<size_t>(gpu);
  // The capacity is set by the first leg that reduces there (activate): it is in wire bytes.
  if (gpu_resource_[g] < 0) gpu_resource_[g] = solver_.add_resource(MaxMinSolver::kUnbounded);
  gpu_fraction_[g] = fraction;
}

std::vector<double> FlowModel::remaining_bytes(TransferId id, const Route* route_of, Time now) const {
  // A scan of the slots and flows: this runs at a reroute instant, not per event.
  int32_t slot = -1;
  for (size_t i = 0; i < pending_.size() && slot < 0; ++i)
    if (pending_[i].id == id && pending_[i].route == route_of && route_of != nullptr) slot = static_cast<int32_t>(i);
  if (slot < 0) return {};
  const Pending& p = pending_[static_cast<size_t>(slot)];
  const Route& route = *p.route;
  std::vector<double> out(route.size(), 0.0);
  if (p.legs_left == 0) {  // not activated yet: nothing has moved
    for (size_t i = 0; i < route.size(); ++i) out[i] = p.bytes * route[i].share;
    return out;
  }
  for (size_t v = 0; v < flows_.size(); ++v) {
    const Flow& f = flows_[v];
    if (f.count == 0) continue;
    bool member = false;
    for_members(static_cast<MaxMinSolver::VarId>(v), [&](int32_t s) { member = member || s == slot; });
    if (!member) continue;
    double left = f.remaining;
    if (f.rate > 0 && f.rate != MaxMinSolver::kUnbounded)
      left = std::max(0.0, left - f.rate * static_cast<double>((now - f.since).picoseconds()) * 1e-12);
    // The leg it belongs to: the same links (a merged member's path is the first member's).
    for (size_t i = 0; i < route.size(); ++i)
      if (&route[i].path == f.path || route[i].path.links == f.path->links) {
        out[i] = left / p.inflation;
        break;
      }
  }
  return out;
}

void FlowModel::split_links(const Path& path, std::vector<LinkId>& out, LegPlan& leg) {
  const auto& links = path.links;
  auto covered = [&](LinkId l) {
    const LinkId m = cover_[static_cast<size_t>(l)];
    return m >= 0 && std::find(links.begin(), links.end(), m) != links.end();
  };
  if (links.size() > UINT16_MAX) throw std::length_error("a path of more than 65,535 links");
  leg.begin = static_cast<uint32_t>(out.size());
  leg.kept = leg.implied = 0;
  for (LinkId l : links) {
    if (covered(l)) continue;
    // A leg on l without its cover (it starts or ends beside l): l's constraint is no longer
    // implied, so it goes back into the problem for good (plans made before are made again).
    if (cover_[static_cast<size_t>(l)] >= 0) restore_implied(l);
    out.push_back(l);
    ++leg.kept;
  }
  // Restores above only uncover links kept above, so these are exactly the others.
  for (LinkId l : links)
    if (covered(l)) {
      out.push_back(l);
      ++leg.implied;
    }
}

void FlowModel::make_plan(int32_t pin, const Route& route) {
  RoutePlan& plan = plans_[static_cast<size_t>(pin)];
  SpilledPlan& x = plan_scratch_;
  // A restore while planning changes covers: plan again until none happens.
  while (plan.epoch != covers_epoch_) {
    const uint32_t epoch = covers_epoch_;
    x.legs.clear();
    x.links.clear();
    for (const Leg& leg : route) {
      LegPlan lp{leg.share, path_hash(leg.path), &leg.path, 0, 0, 0};
      split_links(leg.path, x.links, lp);
      x.legs.push_back(lp);
    }
    if (epoch == covers_epoch_) plan.epoch = epoch;
  }
  const auto at = static_cast<size_t>(pin);
  plan.spilled = x.legs.size() == 1 && x.links.size() <= kInlineLinks ? 0 : 1;
  if (plan.spilled) {
    if (spilled_.size() <= at) spilled_.resize(at + 1);
    spilled_[at].legs.assign(x.legs.begin(), x.legs.end());
    spilled_[at].links.assign(x.links.begin(), x.links.end());
    return;
  }
  plan.leg = x.legs.front();
  std::copy(x.links.begin(), x.links.end(), plan.links.begin());
  if (at < spilled_.size() && !spilled_[at].legs.empty()) spilled_[at] = SpilledPlan();  // a route it held before
}

void FlowModel::restore_implied(LinkId l) {
  cover_[static_cast<size_t>(l)] = -1;
  ++covers_epoch_;
  // Every live flow on l left it out: l goes back into each.
  for (size_t v = 0; v < flows_.size(); ++v) {
    const Flow& f = flows_[v];
    if (f.count != 0 && std::find(f.path->links.begin(), f.path->links.end(), l) != f.path->links.end())
      solver_.add_resource_to(static_cast<MaxMinSolver::VarId>(v), l);
  }
  if (track_implied_) implied_weight_[static_cast<size_t>(l)] = 0;
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
  const RoutePins::Pin pin = routes_.pin(t, cost_);
  p.id = id;
  p.route = t.route.get();
  p.route_pin = pin.index;
  if (plans_.size() <= static_cast<size_t>(pin.index)) plans_.resize(static_cast<size_t>(pin.index) + 1);
  if (pin.fresh) plans_[static_cast<size_t>(pin.index)].epoch = UINT32_MAX;
  p.bytes = static_cast<double>(t.bytes.count());
  p.inflation = pin.inflation;
  p.reduce_s = TransferCost::reduce_seconds(t);
  p.legs_left = 0;
  events_.push(now + pin.alpha, activate_key(id, slot));
}

void FlowModel::finish_transfer(int32_t slot) {
  Pending& p = pending_[static_cast<size_t>(slot)];
  completed_.push_back(p.id);
  // Its connection's next step sends now (activate_released, before this instant's solve).
  if (const int32_t next = connections_.release(p.route_pin); next >= 0) released_.push_back(next);
  routes_.unpin(p.route_pin);
  p.route = nullptr;
  free_slots_.push_back(slot);
}

void FlowModel::activate(int32_t slot, Time now) {
  Pending& p = pending_[static_cast<size_t>(slot)];
  const double reduce_s = p.reduce_s;
  RoutePlan& plan = plans_[static_cast<size_t>(p.route_pin)];
  if (plan.epoch != covers_epoch_) make_plan(p.route_pin, *p.route);
  const LegPlan* legs = &plan.leg;
  const LinkId* links = plan.links.data();
  size_t n_legs = 1;
  if (plan.spilled) {
    const SpilledPlan& x = spilled_[static_cast<size_t>(p.route_pin)];
    legs = x.legs.data();
    links = x.links.data();
    n_legs = x.legs.size();
  }
  for (const LegPlan& leg : std::span<const LegPlan>(legs, n_legs)) {
    const double wire = p.bytes * leg.share * p.inflation;  // in the order it always was: same bits
    if (wire <= 0) continue;
    const LinkId* kept = links + leg.begin;
    const LinkId* implied = kept + leg.kept;
    // Kept and implied links together are the path's links: their least is the path's (a
    // min, not a test of -1 first: link ids are never negative).
    LinkId least = INT32_MAX;
    for (const LinkId* l = kept; l != implied + leg.implied; ++l) {
      carried_[static_cast<size_t>(*l)] += wire;
      least = std::min(least, *l);
    }
    // The GPU reduces what arrives no faster than reduce_rate: this leg's part of the output
    // cannot arrive faster than its wire bytes over the whole reduction time.
    const double bound = reduce_s > 0 ? wire / reduce_s : MaxMinSolver::kUnbounded;
    ++p.legs_left;
    // Merge with an identical flow activated at this instant, if any. Its least link is this
    // flow's: none of this batch there, no candidate (and the table is left alone); one, it is
    // the candidate; more, the table holds them, found by the links' hash (the table only needs
    // equal inputs to hash equal and different ones to spread) mixed with the sizes.
    auto identical = [&](const Flow& f) {
      return f.remaining == wire && f.bound == bound && (f.path == leg.path || f.path->links == leg.path->links);
    };
    LinkBatch* by_link = least != INT32_MAX ? &batch_link_[static_cast<size_t>(least)] : nullptr;
    const bool first_on_link = by_link != nullptr && by_link->stamp != batch_stamp_;
    bool merged = false;
    uint64_t h = 0;
    if (!first_on_link && by_link != nullptr && by_link->var >= 0) {
      const MaxMinSolver::VarId other = by_link->var;
      if (identical(flows_[static_cast<size_t>(other)])) {
        merged = true;
        merge_into(other, slot, implied, leg.implied);
      } else {
        batch_insert(batch_hash(other), other);  // a second flow on the link: both in the table
        by_link->var = -1;
      }
    }
    if (!first_on_link && !merged) h = merge_hash(leg.link_hash, wire, bound);
    const size_t mask = batch_table_.size() - 1;
    for (size_t i = h & mask; !first_on_link && batch_table_[i].stamp == batch_stamp_ && !merged; i = (i + 1) & mask) {
      if (batch_table_[i].hash != h) continue;
      const MaxMinSolver::VarId v = batch_table_[i].var;
      if (!identical(flows_[static_cast<size_t>(v)])) continue;
      merge_into(v, slot, implied, leg.implied);
      merged = true;
    }
    if (merged) continue;
    // Links are the solver's resources one for one, so a path less its implied links is a
    // resource list.
    static_assert(std::is_same_v<LinkId, MaxMinSolver::ResourceId>);
    std::span<const LinkId> resources(kept, leg.kept);
    // A leg reducing on a slow GPU also draws on that GPU's shared reduction (set_gpu_compute):
    // fraction x the transfer's wire bytes over its full-speed reduction time, in wire bytes/s
    // (the sum of its legs' bounds, so the leg keeps its share of the path).
    if (reduce_s > 0 && !gpu_resource_.empty() && !leg.path->links.empty()) {
      const auto gpu = static_cast<size_t>(cost_.cluster().link(leg.path->links.back()).dst);
      if (const MaxMinSolver::ResourceId r = gpu_resource_[gpu]; r >= 0) {
        const double capacity = gpu_fraction_[gpu] * p.bytes * p.inflation / reduce_s;
        if (solver_.capacity(r) != capacity) solver_.set_capacity(r, capacity);
        leg_scratch_.assign(kept, kept + leg.kept);
        leg_scratch_.push_back(r);
        resources = leg_scratch_;
      }
    }
    MaxMinSolver::VarId v = solver_.add_variable(resources, 1.0, bound);
    if (flows_.size() <= static_cast<size_t>(v)) flows_.resize(static_cast<size_t>(v) + 1);
    Flow& f = flows_[static_cast<size_t>(v)];
    f.first = slot;
    f.count = 1;
    f.path = leg.path;
    if (track_implied_)
      for (const LinkId* l = implied; l != implied + leg.implied; ++l) implied_weight_[static_cast<size_t>(*l)] += 1;
    f.remaining = wire;
    f.bound = bound;
    f.rate = 0;
    f.since = now;
    f.born = now;
    if (first_on_link)
      *by_link = {batch_stamp_, v};
    else
      batch_insert(h, v);
  }
  peak_flows_ = std::max(peak_flows_, solver_.live_variables());
  // Nothing to carry (an empty payload): done once the latency has passed.
  if (p.legs_left == 0) finish_transfer(slot);
}

void FlowModel::merge_into(MaxMinSolver::VarId v, int32_t slot, const LinkId* implied, uint16_t n_implied) {
  Flow& f = flows_[static_cast<size_t>(v)];
  if (members_.size() <= static_cast<size_t>(v)) members_.resize(static_cast<size_t>(v) + 1);
  if (f.count == 1) members_[static_cast<size_t>(v)].clear();
  members_[static_cast<size_t>(v)].push_back(slot);
  ++f.count;
  solver_.set_weight(v, static_cast<double>(f.count));
  if (track_implied_)
    for (const LinkId* l = implied; l != implied + n_implied; ++l) implied_weight_[static_cast<size_t>(*l)] += 1;
}

uint64_t FlowModel::batch_hash(MaxMinSolver::VarId v) const {
  const Flow& f = flows_[static_cast<size_t>(v)];
  return merge_hash(path_hash(*f.path), f.remaining, f.bound);
}

void FlowModel::batch_grow() {
  std::vector<BatchEntry> old(2 * batch_table_.size());
  old.swap(batch_table_);
  batch_count_ = 0;
  for (const BatchEntry& e : old)
    if (e.stamp == batch_stamp_) batch_insert(e.hash, e.var);
}

void FlowModel::batch_clear() {
  batch_count_ = 0;
  if (++batch_stamp_ == 0) {  // wrapped: no stale entry may carry the new stamp
    for (BatchEntry& e : batch_table_) e.stamp = 0;
    for (LinkBatch& e : batch_link_) e.stamp = 0;
    batch_stamp_ = 1;
  }
}

void FlowModel::finish_flow(MaxMinSolver::VarId v) {
  Flow& f = flows_[static_cast<size_t>(v)];
  solver_.remove_variable(v);
  if (track_implied_)
    for (LinkId l : f.path->links)
      if (cover_[static_cast<size_t>(l)] >= 0) implied_weight_[static_cast<size_t>(l)] -= static_cast<double>(f.count);
  ++f.version;  // any other pending completion of this slot is stale
  for_members(v, [this](int32_t slot) {
    if (--pending_[static_cast<size_t>(slot)].legs_left == 0) finish_transfer(slot);
  });
  f.count = 0;
}

void FlowModel::reschedule(MaxMinSolver::VarId v, Time now) {
  Flow& f = flows_[static_cast<size_t>(v)];
  if (f.rate != 0) {  // a flow just activated (rate 0) has moved nothing yet
    const double elapsed = static_cast<double>((now - f.since).picoseconds()) * 1e-12;
    f.remaining = std::max(0.0, f.remaining - f.rate * elapsed);
  }
  f.since = now;
  const double rate = solver_.rate(v);
  f.rate = f.count == 1 ? rate : rate / static_cast<double>(f.count);  // per member
  ++f.version;
  Time at = now;
  if (f.rate == MaxMinSolver::kUnbounded) {
    at = now;
  } else if (f.rate > 0) {
    // ceil of a positive value below 2^63, without a library call: same picoseconds.
    const double ps = f.remaining / f.rate * 1e12;
    auto whole = static_cast<int64_t>(ps);
    if (static_cast<double>(whole) < ps) ++whole;
    at = now + Time::ps(whole);
  } else {
    return;  // starved (a zero-capacity link): no completion until a rate is given
  }
  done_.push(at, finish_key(v, f.version));
}

void FlowModel::pull_near_completions(Time now) {
  const double tolerance = cost_.params().flow_completion_tolerance;
  while (!done_.empty()) {
    const Time next = done_.next_time();
    // An activation at or before that instant holds it back.
    if (events_.next_time() <= next) return;
    const auto gap = static_cast<double>((next - now).picoseconds());
    // No flow is older than time 0: when even such a flow would be too far, look no further.
    if (gap > tolerance * static_cast<double>(next.picoseconds())) return;
    // The instant is finished now only if no key holds it back: a live flow due further than the
    // tolerance of its lifetime. One such key among them is enough, so one is looked at first: a
    // ring's next instant (all flows of one lifetime) is then neither popped nor pushed back
    // whole, N keys a step.
    auto holds_back = [&](uint64_t key) {
      return live(key) && gap > tolerance * static_cast<double>((next - flows_[static_cast<size_t>(key >> 32)].born).picoseconds());
    };
    if (holds_back(done_.peek_key())) return;
    done_.pop_instant(pulled_);
    const bool all = std::none_of(pulled_.begin(), pulled_.end(), holds_back);
    if (!all) {
      for (const uint64_t key : pulled_) done_.push(next, key);  // back as they were
      return;
    }
    events_processed_ += pulled_.size();
    for (const uint64_t key : pulled_)
      if (live(key)) finish_flow(static_cast<MaxMinSolver::VarId>(key >> 32));
  }
}

void FlowModel::activate_released(Time now) {
  // An empty step released here finishes in activate and may release the one behind it.
  for (size_t i = 0; i < released_.size(); ++i) activate(released_[i], now);
  released_.clear();
}

void FlowModel::advance_to(Time t, CompletionSink& done) {
  for (;;) {
    const Time now = next_event_time();
    if (now > t) break;
    completed_.clear();
    // The instant's completions, then its activations (the order of their keys).
    if (done_.next_time() == now) {
      done_.pop_instant(instant_);
      events_processed_ += instant_.size();
      for (const uint64_t key : instant_)
        if (live(key)) finish_flow(static_cast<MaxMinSolver::VarId>(key >> 32));
    }
    if (events_.next_time() == now) {
      events_.pop_instant(instant_);
      events_processed_ += instant_.size();
      for (const uint64_t key : instant_) {
        const auto slot = static_cast<int32_t>(key & 0xffffffffu);
        if (connections_.admit(pending_[static_cast<size_t>(slot)].route_pin, slot)) activate(slot, now);
      }
    }
    if (cost_.params().flow_completion_tolerance > 0) pull_near_completions(now);
    if (!released_.empty()) activate_released(now);
    batch_clear();
    changed_.clear();
    solver_.solve(changed_);  // in id order: completion events are then pushed already sorted
    for (MaxMinSolver::VarId v : changed_) reschedule(v, now);
    sort_ids(completed_, sort_scratch_);
    for (TransferId id : completed_) done.completed(id, now);
  }
}

}  // namespace gf
