#include "model/analytical/analytical_model.hpp"

#include <algorithm>
#include <cmath>

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
    : c_(cluster), params_(params), arch_(cluster.server_template().gpu.arch) {}

Time AnalyticalModel::duration(const ModelTransfer& t) const {
  const auto proto = static_cast<size_t>(t.proto);
  double wire_s = 0, alpha_s = 0;
  for (const Leg& leg : t.legs) {
    double bw = std::numeric_limits<double>::infinity();
    double physical = 0;
    for (LinkId l : leg.path.links) {
      const Link& k = c_.link(l);
      bw = std::min(bw, k.bandwidth.bytes_per_second() * params_.efficiency(c_.catalog().tech(k.tech).family, arch_));
      physical += static_cast<double>(k.latency.picoseconds()) * 1e-12;
    }
    bw *= params_.protocol_efficiency[proto] / std::max(1, t.channels);
    double hop = params_.step_latency_us[static_cast<size_t>(hop_class(c_, leg.path))][proto] * 1e-6;
    alpha_s = std::max(alpha_s, std::max(hop, physical));
    if (leg.path.links.empty()) continue;
    wire_s = std::max(wire_s, static_cast<double>(t.bytes.count()) * leg.share / bw);
  }
  double reduce_s = t.reduce.count() > 0 && t.reduce_rate.bytes_per_second() > 0
                        ? static_cast<double>(t.reduce.count()) / t.reduce_rate.bytes_per_second()
                        : 0.0;
  return Time::ps(static_cast<int64_t>(std::llround((std::max(wire_s, reduce_s) + alpha_s) * 1e12)));
}

void AnalyticalModel::start(TransferId id, const ModelTransfer& t, Time now) {
  pending_.push({now + duration(t), id});
}

Time AnalyticalModel::next_event_time() const { return pending_.empty() ? Time::infinity() : pending_.top().at; }

void AnalyticalModel::advance_to(Time t, CompletionSink& done) {
  while (!pending_.empty() && pending_.top().at <= t) {
    Pending p = pending_.top();
    pending_.pop();
    done.completed(p.id, p.at);
  }
}

}  // namespace gf
