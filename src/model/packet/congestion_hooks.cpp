#include "model/packet/congestion_hooks.hpp"

#include "core/hash.hpp"

namespace gf {

CongestionHooks::CongestionHooks(const PacketParams& params, const std::vector<LinkFlowMode>& modes, bool dcqcn, bool tcp)
    : p_(params), dcqcn_(dcqcn), tcp_(tcp), marker_(params.ecn, params.seed) {
  pfc_index_.assign(modes.size(), -1);
  for (size_t l = 0; l < modes.size(); ++l) {
    if (modes[l] != LinkFlowMode::Pfc) continue;
    pfc_index_[l] = static_cast<int32_t>(pfc_.size());
    pfc_.emplace_back(p_.pfc);
  }
  held_.assign(pfc_.size(), 0);
}

bool CongestionHooks::on_enqueue(LinkId port, int64_t queued, Time) {
  if (!dcqcn_) return false;
  // The draw's key: the port and how many draws came before (the engine's event order is fixed).
  return marker_.mark(Bytes(queued), mix_hash(static_cast<uint64_t>(port), ++marks_drawn_));
}

PauseAction CongestionHooks::on_ingress(LinkId in_link, int64_t bytes, Time) {
  const int32_t i = pfc_index_[static_cast<size_t>(in_link)];
  if (i < 0) return PauseAction::Keep;
  PfcQueue& q = pfc_[static_cast<size_t>(i)];
  int64_t& last = held_[static_cast<size_t>(i)];
  const int64_t delta = bytes - last;
  last = bytes;
  PfcSignal s = PfcSignal::None;
  if (delta > 0) s = q.on_arrival(Bytes(delta)).signal;
  else if (delta < 0) s = q.on_departure(Bytes(-delta));
  return s == PfcSignal::Pause ? PauseAction::Pause : s == PfcSignal::Resume ? PauseAction::Resume : PauseAction::Keep;
}

double CongestionHooks::on_flow_start(int32_t flow, const FlowStart& start, Time) {
  const auto f = static_cast<size_t>(flow);
  if (tcp_) {
    if (tcp_conn_.size() <= f) tcp_conn_.resize(f + 1);
    if (start.lossy) tcp_conn_[f] = std::make_unique<TcpConnection>(p_.tcp, start.packets);
    else tcp_conn_[f].reset();
  }
  if (!dcqcn_) return 0;
  const double line_rate = start.line_rate;
  if (rp_.size() <= f) {
    rp_.resize(f + 1, DcqcnReactionPoint(p_.dcqcn, Bandwidth::bytes_per_s(line_rate)));
    np_.resize(f + 1, DcqcnNotificationPoint(p_.dcqcn.cnp_interval));
  }
  rp_[f] = DcqcnReactionPoint(p_.dcqcn, Bandwidth::bytes_per_s(line_rate));
  np_[f] = DcqcnNotificationPoint(p_.dcqcn.cnp_interval);
  return 0;  // DCQCN starts at line rate
}

double CongestionHooks::on_ack(int32_t flow, uint32_t bytes, bool ecn, Time now) {
  if (!dcqcn_) return 0;
  DcqcnReactionPoint& rp = rp_[static_cast<size_t>(flow)];
  rp.on_timer(now);
  rp.on_bytes_sent(Bytes(bytes));
  if (ecn && np_[static_cast<size_t>(flow)].on_marked_packet(now)) {
    rp.on_cnp(now);
    ++cnps_;
  }
  return rp.limited() ? rp.rate().bytes_per_second() : 0;
}

TcpConnection* CongestionHooks::connection(int32_t flow) {
  const auto f = static_cast<size_t>(flow);
  return f < tcp_conn_.size() ? tcp_conn_[f].get() : nullptr;
}

int64_t CongestionHooks::headroom_violations() const {
  int64_t n = 0;
  for (const PfcQueue& q : pfc_) n += q.violations();
  return n;
}

}  // namespace gf
