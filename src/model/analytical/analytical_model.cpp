#include "model/analytical/analytical_model.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace gf {

HopClass hop_class(const Cluster& c, const Path& p) {
  bool nvlink = false;
  for (LinkId l : p.links) {
    switch (c.catalog().tech(c.link(l).tech).family) {
      case LinkFamily::InfiniBand:
      case LinkFamily::RoCE:
      case LinkFamily::EthernetTcp:
      case LinkFamily::Efa:
      case LinkFamily::GaudiRoce: return HopClass::Net;
      case LinkFamily::NvLink:
      case LinkFamily::NvLinkC2C:
      case LinkFamily::Xgmi: nvlink = true; break;
      default: break;
    }
  }
  return nvlink ? HopClass::NvLink : HopClass::Pci;
}

AnalyticalModel::AnalyticalModel(const Cluster& cluster, AnalyticalParams params)
    : c_(cluster), params_(params), arch_(cluster.server_template().gpu.arch), load_(cluster.links().size(), 0.0) {}

double AnalyticalModel::capacity(LinkId l, Protocol p) const {
  const Link& k = c_.link(l);
  return k.bandwidth.bytes_per_second() * params_.efficiency(c_.catalog().tech(k.tech).family, arch_) *
         params_.protocol_efficiency[static_cast<size_t>(p)];
}

Time AnalyticalModel::alpha(const ModelTransfer& t) const {
  double a = 0;
  for (const Leg& leg : t.legs) {
    double physical = 0;
    for (LinkId l : leg.path.links) physical += static_cast<double>(c_.link(l).latency.picoseconds()) * 1e-12;
    double step = t.step_latency[static_cast<size_t>(hop_class(c_, leg.path))].to_s();
    a = std::max(a, std::max(step, physical));
  }
  return Time::ps(static_cast<int64_t>(std::llround(a * 1e12)));
}

// A transfer's per-link shares: the same link may appear on several legs (two NVSwitch routes
// share the GPU's port only in odd topologies), so shares are summed per link.
static std::vector<std::pair<LinkId, double>> shares_of(const ModelTransfer& t) {
  std::map<LinkId, double> m;
  for (const Leg& leg : t.legs)
    for (LinkId l : leg.path.links) m[l] += leg.share;
  return {m.begin(), m.end()};
}

static Time wire_and_reduce(double wire_s, const ModelTransfer& t) {
  double reduce_s = t.reduce.count() > 0 && t.reduce_rate.bytes_per_second() > 0
                        ? static_cast<double>(t.reduce.count()) / t.reduce_rate.bytes_per_second()
                        : 0.0;
  return Time::ps(static_cast<int64_t>(std::llround(std::max(wire_s, reduce_s) * 1e12)));
}

Time AnalyticalModel::duration(const ModelTransfer& t) const {
  double wire = 0;
  for (const auto& [l, share] : shares_of(t))
    wire = std::max(wire, static_cast<double>(t.bytes.count()) * share / (capacity(l, t.proto) * t.efficiency));
  return wire_and_reduce(wire, t) + alpha(t);
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
    for (const auto& [l, share] : in_flight_[static_cast<size_t>(id)].loads) load_[static_cast<size_t>(l)] += share;
  }
  for (const auto& [id, t] : unsettled_) {
    double wire = 0;
    for (const auto& [l, share] : in_flight_[static_cast<size_t>(id)].loads)
      wire = std::max(wire, static_cast<double>(t.bytes.count()) * load_[static_cast<size_t>(l)] /
                                (capacity(l, t.proto) * t.efficiency));
    pending_.push({now_ + wire_and_reduce(wire, t) + alpha(t), id});
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
