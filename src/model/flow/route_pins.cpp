#include "model/flow/route_pins.hpp"

#include <algorithm>
#include <cstdint>

#include "core/hash.hpp"

namespace gf {

size_t RoutePins::slot_of(const Route* r, size_t mask) { return mix_hash(reinterpret_cast<uintptr_t>(r), 0) & mask; }

RoutePins::Pin RoutePins::pinned(int32_t index, const ModelTransfer& t, const TransferCost& cost) {
  Entry& e = entries_[static_cast<size_t>(index)];
  if (e.step_latency != t.step_latency || e.steps != t.steps) {  // same route, other fields
    e.step_latency = t.step_latency;
    e.steps = t.steps;
    e.alpha = cost.alpha(t);
  }
  if (e.proto != t.proto || e.efficiency != t.efficiency || e.scale_up_efficiency != t.scale_up_efficiency)
    set_inflation(e, t, cost);
  ++in_flight_[static_cast<size_t>(index)];
  return {index, e.alpha, e.inflation, false};
}

RoutePins::Pin RoutePins::pin(const ModelTransfer& t, const TransferCost& cost) {
  const Route* key = t.route.get();
  const bool by_id = t.route_id >= 0 && t.route_id < kMaxRouteId;
  const auto id = static_cast<size_t>(t.route_id);
  if (by_id && id < by_id_.size() && by_id_[id].route == key) {
    const ById& b = by_id_[id];
    ++in_flight_[static_cast<size_t>(b.index)];
    return {b.index, b.alpha, b.inflation, false};
  }
  // Not named by its id (none, a first start, or an id reused): the table, and the id noted.
  auto note = [&](const Pin& p) {
    if (!by_id) return p;
    if (by_id_.size() <= id) by_id_.resize(id + 1);
    by_id_[id] = {key, p.index, p.alpha, p.inflation};
    return p;
  };
  size_t mask = table_.size() - 1;
  size_t i = slot_of(key, mask);
  for (; table_[i].route != nullptr; i = (i + 1) & mask)
    if (table_[i].route == key) return note(pinned(table_[i].index, t, cost));
  if (2 * (listed_ + 1) > table_.size()) {  // keep the load under 1/2
    if (listed_ + 1 > kMax) drop_idle();
    rebuild(2 * (listed_ + 1) > table_.size() ? 2 * table_.size() : table_.size());
    mask = table_.size() - 1;
    i = slot_of(key, mask);
    while (table_[i].route != nullptr) i = (i + 1) & mask;
  }
  int32_t index;
  if (!free_.empty()) {
    index = free_.back();
    free_.pop_back();
  } else {
    index = static_cast<int32_t>(entries_.size());
    entries_.emplace_back();
    in_flight_.push_back(0);
    owners_.emplace_back();
  }
  const auto k = static_cast<size_t>(index);
  Entry& e = entries_[k];
  owners_[k] = t.route;
  e.step_latency = t.step_latency;
  e.steps = t.steps;
  e.alpha = cost.alpha(t);
  set_inflation(e, t, cost);
  in_flight_[k] = 1;
  table_[i] = {key, index};
  ++listed_;
  return note({index, e.alpha, e.inflation, true});
}

void RoutePins::set_inflation(Entry& e, const ModelTransfer& t, const TransferCost& cost) {
  e.proto = t.proto;
  e.efficiency = t.efficiency;
  e.scale_up_efficiency = t.scale_up_efficiency;
  e.inflation = cost.inflation(t);
}

void RoutePins::drop_idle() {
  // A dropped entry's index is handed out again: no id may still point at it.
  std::fill(by_id_.begin(), by_id_.end(), ById{});
  for (size_t k = 0; k < entries_.size(); ++k) {
    if (!owners_[k] || in_flight_[k] > 0) continue;
    owners_[k].reset();
    free_.push_back(static_cast<int32_t>(k));
    --listed_;
  }
}

void RoutePins::rebuild(size_t slots) {
  table_.assign(slots, Slot{});
  const size_t mask = slots - 1;
  for (size_t k = 0; k < entries_.size(); ++k) {
    if (!owners_[k]) continue;
    const Route* key = owners_[k].get();
    size_t i = slot_of(key, mask);
    while (table_[i].route != nullptr) i = (i + 1) & mask;
    table_[i] = {key, static_cast<int32_t>(k)};
  }
}

}  // namespace gf
