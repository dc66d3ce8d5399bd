#include "model/packet/congestion_hooks.hpp"

#include "core/hash.hpp"

namespace gf {

CongestionHooks::CongestionHooks(const PacketParams& params, const std::vector<LinkFlowMode>& modes, CongestionControl rate_control,
                                 bool tcp)
    : p_(params),
      dcqcn_(rate_control == CongestionControl::Dcqcn),
      ibcc_(rate_control == CongestionControl::IbCc),
      tcp_(tcp),
      marker_(params.ecn, params.seed) {
  pfc_index_.assign(modes.size(), -1);
  for (size_t l = 0; l < modes.size(); ++l) {
    if (modes[l] != LinkFlowMode::Pfc) continue;
    pfc_index_[l] = static_cast<int32_t>(pfc_.size());
    for (int c = 0; c < p_.traffic_classes; ++c) pfc_.emplace_back(p_.pfc);
  }
  held_.assign(pfc_.size(), 0);
  if (ibcc_) unmarked_.assign(modes.size(), params.ibcc.marking_rate);  // the first eligible packet is marked
}

bool CongestionHooks::on_enqueue(LinkId port, int64_t queued, bool blocked, Time) {
  // InfiniBand: FECN on every packet a root port queues above the threshold; a victim port (one
  // waiting for credits or resumption) stays silent, so flows that only pass through the
  // congestion tree are not slowed down by it.
  if (ibcc_) {
    if (blocked || queued <= p_.ibcc.threshold.count()) return false;
    int32_t& since = unmarked_[static_cast<size_t>(port)];
    if (since < p_.ibcc.marking_rate) {
      ++since;
      return false;
    }
    since = 0;
    return true;
  }
  if (!dcqcn_) return false;
  // The draw's key: the port and how many draws came before (the engine's event order is fixed).
  return marker_.mark(Bytes(queued), mix_hash(static_cast<uint64_t>(port), ++marks_drawn_));
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
  if (!dcqcn_ && !ibcc_ && !tcp_) return 0;
  const auto f = static_cast<size_t>(flow);
  if (flow_conn_.size() <= f) flow_conn_.resize(f + 1, -1);
  int32_t c = -1;
  const auto idle = idle_.find(start.endpoints);
  if (idle != idle_.end() && !idle->second.empty()) {  // the endpoints' last connection carries over
    c = idle->second.back();
    idle->second.pop_back();
  } else {
    c = static_cast<int32_t>(rp_.size());
    rp_.emplace_back(p_.dcqcn, Bandwidth::bytes_per_s(start.line_rate));
    np_.emplace_back(p_.dcqcn.cnp_interval);
    ib_.emplace_back(p_.ibcc, start.line_rate);
    tcp_conn_.emplace_back();
    conn_ends_.push_back(start.endpoints);
  }
  flow_conn_[f] = c;
  const auto ci = static_cast<size_t>(c);
  if (tcp_) {
    std::unique_ptr<TcpConnection>& tc = tcp_conn_[ci];
    if (!start.lossy) tc.reset();
    else if (tc) tc->next_message(start.packets, now);
    else tc = std::make_unique<TcpConnection>(p_.tcp, start.packets);
  }
  if (ibcc_) {
    IbCcReactionPoint& ib = ib_[ci];
    ib.on_timer(now);  // decreases due while the connection was idle
    return ib.limited() ? ib.rate() : 0;
  }
  if (!dcqcn_) return 0;
  DcqcnReactionPoint& rp = rp_[ci];
  rp.on_timer(now);  // increases due while the connection was idle
  return rp.limited() ? rp.rate().bytes_per_second() : 0;  // a new connection starts at line rate
}

void CongestionHooks::on_flow_freed(int32_t flow) {
  const auto f = static_cast<size_t>(flow);
  if (f >= flow_conn_.size() || flow_conn_[f] < 0) return;
  const int32_t c = flow_conn_[f];
  idle_[conn_ends_[static_cast<size_t>(c)]].push_back(c);
  flow_conn_[f] = -1;
}

double CongestionHooks::on_ack(int32_t flow, uint32_t bytes, bool ecn, Time now) {
  if (!dcqcn_ && !ibcc_) return 0;
  const auto c = static_cast<size_t>(flow_conn_[static_cast<size_t>(flow)]);
  if (ibcc_) {  // a BECN for every FECN-marked packet (no coalescing)
    IbCcReactionPoint& ib = ib_[c];
    if (ecn) {
      ib.on_becn(now);
      ++becns_;
    } else {
      ib.on_timer(now);
    }
    return ib.limited() ? ib.rate() : 0;
  }
  DcqcnReactionPoint& rp = rp_[c];
  rp.on_timer(now);
  rp.on_bytes_sent(Bytes(bytes));
  if (ecn && np_[c].on_marked_packet(now)) {
    rp.on_cnp(now);
    ++cnps_;
  }
  return rp.limited() ? rp.rate().bytes_per_second() : 0;
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

}  // namespace gf
