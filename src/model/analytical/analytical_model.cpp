#include "model/analytical/analytical_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "model/gpu_compute.hpp"

namespace gf {

AnalyticalModel::AnalyticalModel(const Cluster& cluster, ModelParams params)
    : cost_(cluster, params), load_(cluster.links().size(), 0.0), carried_(cluster.links().size(), 0.0) {}

double AnalyticalModel::link_load(LinkId l) const {
  settle();
  return load_[static_cast<size_t>(l)] / cost_.capacity(l);
}

// A transfer's per-link shares, by link: the same link may appear on several legs (two NVSwitch
// routes share the GPU's port only in odd topologies), so shares are summed per link, in leg
// order. One sorted vector rather than a map node per link: this runs for every transfer.
static std::vector<std::pair<LinkId, double>> shares_of(const ModelTransfer& t) {
  std::vector<std::pair<LinkId, double>> v;
  size_t n = 0;
  for (const Leg& leg : t.legs()) n += leg.path.links.size();
  v.reserve(n);
  for (const Leg& leg : t.legs())
    for (LinkId l : leg.path.links) v.emplace_back(l, leg.share);
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  size_t out = 0;
  for (const auto& e : v) {
    if (out > 0 && v[out - 1].first == e.first) v[out - 1].second += e.second;
    else v[out++] = e;
  }
  v.resize(out);
  return v;
}

void AnalyticalModel::set_gpu_compute(NodeId gpu, double fraction) {
  slow_gpus_.set(cost_.cluster(), gpu, fraction);
}

NodeId AnalyticalModel::slow_reducer(const ModelTransfer& t) const {
  if (!slow_gpus_.any() || TransferCost::reduce_seconds(t) <= 0) return kNoNode;
  // Where the flow model finds it (FlowModel::activate): the node its legs end at.
  for (const Leg& leg : t.legs()) {
    if (leg.path.links.empty()) continue;
    const NodeId at = cost_.cluster().link(leg.path.links.back()).dst;
    if (slow_gpus_.kept(at) < 1) return at;
  }
  return kNoNode;
}

Time AnalyticalModel::duration(const ModelTransfer& t) const {
  double wire = 0;
  const double bytes = static_cast<double>(t.bytes.count()) * cost_.inflation(t);
  for (const auto& [l, share] : shares_of(t)) wire = std::max(wire, bytes * share / cost_.capacity(l));
  const NodeId g = slow_reducer(t);
  const double reduce = TransferCost::reduce_seconds(t) / (g == kNoNode ? 1.0 : slow_gpus_.kept(g));
  return seconds_to_time(std::max(wire, reduce)) + cost_.alpha(t);
}

void AnalyticalModel::start(TransferId id, const ModelTransfer& t, Time now) {
  now_ = now;
  unsettled_.emplace_back(id, t);
}

void AnalyticalModel::settle() const {
  if (unsettled_.empty()) return;
  for (const auto& [id, t] : unsettled_) {
    if (in_flight_.size() <= static_cast<size_t>(id)) in_flight_.resize(static_cast<size_t>(id) + 1);
    in_flight_[static_cast<size_t>(id)].loads = shares_of(t);
    const double bytes = static_cast<double>(t.bytes.count()) * cost_.inflation(t);
    for (const auto& [l, share] : in_flight_[static_cast<size_t>(id)].loads) {
      load_[static_cast<size_t>(l)] += share;
      carried_[static_cast<size_t>(l)] += bytes * share;
    }
  }
  for (const auto& [id, t] : unsettled_) {
    double wire = 0;
    const double bytes = static_cast<double>(t.bytes.count()) * cost_.inflation(t);
    for (const auto& [l, share] : in_flight_[static_cast<size_t>(id)].loads)
      wire = std::max(wire, bytes * load_[static_cast<size_t>(l)] / cost_.capacity(l));
    // A slow GPU's turn (the class comment): its reduction ends when its booking does.
    if (const NodeId g = slow_reducer(t); g != kNoNode) {
      const Time busy = slow_gpus_.book(g, now_, seconds_to_time(TransferCost::reduce_seconds(t) / slow_gpus_.kept(g)));
      pending_.push({now_ + std::max(seconds_to_time(wire), busy - now_) + cost_.alpha(t), id});
      continue;
    }
    pending_.push({now_ + seconds_to_time(std::max(wire, TransferCost::reduce_seconds(t))) + cost_.alpha(t), id});
  }
  unsettled_.clear();
}

Time AnalyticalModel::next_event_time() const {
  settle();
  return pending_.empty() ? Time::infinity() : pending_.top().at;
}

void AnalyticalModel::advance_to(Time t, CompletionSink& done) {
  settle();
  now_ = t;
  while (!pending_.empty() && pending_.top().at <= t) {
    Pending p = pending_.top();
    pending_.pop();
    for (const auto& [l, share] : in_flight_[static_cast<size_t>(p.id)].loads) load_[static_cast<size_t>(l)] -= share;
    in_flight_[static_cast<size_t>(p.id)].loads.clear();
    done.completed(p.id, p.at);
  }
}

}  // namespace gf
