#include "model/packet/congestion_hooks.hpp"

namespace gf {

CongestionHooks::CongestionHooks(const PacketParams& params, const std::vector<LinkFlowMode>& modes,
                                 const CongestionControl& scheme, bool tcp)
    : traffic_classes_(params.traffic_classes),
      tcp_params_(params.cc.get<TcpParams>()),
      scheme_(&scheme),
      rate_(scheme.make(params, modes.size())),
      tcp_(tcp) {
  pfc_index_.assign(modes.size(), -1);
  for (size_t l = 0; l < modes.size(); ++l) {
    if (modes[l] != LinkFlowMode::Pfc) continue;
    pfc_index_[l] = static_cast<int32_t>(pfc_.size());
    for (int c = 0; c < traffic_classes_; ++c) pfc_.emplace_back(params.pfc);
  }
  held_.assign(pfc_.size(), 0);
}

bool CongestionHooks::on_enqueue(LinkId port, int64_t queued, bool blocked, Time now) {
  return rate_ && rate_->mark(port, queued, blocked, now);
}

PauseAction CongestionHooks::on_ingress(LinkId in_link, int cls, int64_t bytes, Time) {
  const int32_t first = pfc_index_[static_cast<size_t>(in_link)];
  if (first < 0) return PauseAction::Keep;
  const auto i = static_cast<size_t>(first + cls);
  PfcQueue& q = pfc_[i];
  int64_t& last = held_[i];
  const int64_t delta = bytes - last;
  last = bytes;
  PfcSignal s = PfcSignal::None;
  if (delta > 0) s = q.on_arrival(Bytes(delta)).signal;
  else if (delta < 0) s = q.on_departure(Bytes(-delta));
  return s == PfcSignal::Pause ? PauseAction::Pause : s == PfcSignal::Resume ? PauseAction::Resume : PauseAction::Keep;
}

double CongestionHooks::on_flow_start(int32_t flow, const FlowStart& start, Time now) {
  if (!rate_ && !tcp_) return 0;
  const auto f = static_cast<size_t>(flow);
  if (flow_conn_.size() <= f) flow_conn_.resize(f + 1, -1);
  int32_t c = -1;
  const auto idle = idle_.find(start.endpoints);
  if (idle != idle_.end() && !idle->second.empty()) {  // the endpoints' last connection carries over
    c = idle->second.back();
    idle->second.pop_back();
  } else {
    c = static_cast<int32_t>(conn_ends_.size());
    if (rate_) rate_->add_connection(start.line_rate);
    tcp_conn_.emplace_back();
    conn_ends_.push_back(start.endpoints);
  }
  flow_conn_[f] = c;
  const auto ci = static_cast<size_t>(c);
  if (tcp_) {
    std::unique_ptr<TcpConnection>& tc = tcp_conn_[ci];
    if (!start.lossy) tc.reset();
    else if (tc) tc->next_message(start.packets, now);
    else tc = std::make_unique<TcpConnection>(tcp_params_, start.packets);
  }
  return rate_ ? rate_->on_flow_start(ci, now) : 0;
}

void CongestionHooks::on_flow_freed(int32_t flow) {
  const auto f = static_cast<size_t>(flow);
  if (f >= flow_conn_.size() || flow_conn_[f] < 0) return;
  const int32_t c = flow_conn_[f];
  idle_[conn_ends_[static_cast<size_t>(c)]].push_back(c);
  flow_conn_[f] = -1;
}

double CongestionHooks::on_ack(int32_t flow, uint32_t bytes, bool ecn, Time now) {
  if (!rate_) return 0;
  const auto c = static_cast<size_t>(flow_conn_[static_cast<size_t>(flow)]);
  return rate_->on_ack(c, bytes, ecn, now);
}

TcpConnection* CongestionHooks::connection(int32_t flow) {
  const auto f = static_cast<size_t>(flow);
  if (f >= flow_conn_.size() || flow_conn_[f] < 0) return nullptr;
  return tcp_conn_[static_cast<size_t>(flow_conn_[f])].get();
}

int64_t CongestionHooks::headroom_violations() const {
  int64_t n = 0;
  for (const PfcQueue& q : pfc_) n += q.violations();
  return n;
}

int64_t CongestionHooks::count(const CongestionControl& scheme, size_t counter) const {
  if (&scheme != scheme_ || !rate_) return 0;
  const std::vector<int64_t> v = rate_->counts();
  return counter < v.size() ? v[counter] : 0;
}

}  // namespace gf
