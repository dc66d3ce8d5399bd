#include "model/packet/packet_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "core/error.hpp"
#include "core/hash.hpp"
#include "model/gpu_compute.hpp"
#include "model/packet/congestion_control.hpp"
#include "model/packet/link_flow_mode.hpp"
#include "model/transport_abort.hpp"

namespace gf {

namespace {

// Event keys: kind in the top 3 bits (the order of kinds at one instant), then a 32-bit id (link,
// packet, flow or transfer slot), then 29 bits of argument.
// A non-TCP ACK event's argument that is a go-back-N NAK, not an ECN bit and a byte count (no
// packet carries 2^28 - 1 bytes: the MTU is at most the port buffer).
constexpr uint32_t kNak = 0x0fffffffu;
// InfiniBand's local ACK timeout at NCCL's default NCCL_IB_TIMEOUT = 20: 4.096 us x 2^20
// (workload/failure_timeline.cpp keeps the same unit for the transport's give-up).
constexpr int64_t kRcAckTimeoutPs = 4096000LL << 20;
// NCCL_IB_RETRY_CNT's default, 7 (NCCL's environment-variable documentation; the same in every
// NCCL 2.x release, src/transport/net_ib.cc sets the QP's retry_cnt from it): go-backs in a row
// without progress beyond it fail the connection.
constexpr int32_t kRcRetryCount = 7;
// A uniform draw in [0, 1) from a hash (53 bits).
double unit_of(uint64_t h) { return static_cast<double>(h >> 11) * 0x1.0p-53; }

enum Kind : uint64_t { kTxDone = 0, kArrive, kActivate, kWake, kTimer, kAck, kDone, kPause };
constexpr uint64_t key(Kind k, int32_t id, uint64_t arg = 0) {
  return (static_cast<uint64_t>(k) << 61) | (static_cast<uint64_t>(static_cast<uint32_t>(id)) << 29) | (arg & 0x1fffffffu);
}
constexpr Kind kind_of(uint64_t k) { return static_cast<Kind>(k >> 61); }
constexpr int32_t id_of(uint64_t k) { return static_cast<int32_t>(static_cast<uint32_t>(k >> 29)); }
constexpr uint64_t arg_of(uint64_t k) { return k & 0x1fffffffu; }

constexpr int64_t kUnlimited = std::numeric_limits<int64_t>::max() / 4;

Time ps_of(double ps) { return Time::ps_rounded(ps); }  // saturates past int64

}  // namespace

PacketModel::PacketModel(const Cluster& cluster, const ModelParams& params, PacketParams packet)
    : cost_(cluster, params),
      pp_(std::move(packet)),
      next_hops_(cluster),
      series_(cluster.links().size()),
      carried_(cluster.links().size(), 0.0) {
  // Settings filled in code never passed the YAML reader's checks: the same ones run here (MTU,
  // buffers against a packet, the classes' share of port_buffer, thresholds), plus the engine's own
  // limit on a packet's size field.
  pp_.validate({});
  if (pp_.mtu.count() + pp_.header.count() >= (int64_t{1} << 29))
    throw InputError({}, "packet.mtu", "packets over 512 MiB are not supported", "use an MTU of at most 64KiB");
  lb_ = pp_.load_balance;
  tc_ = pp_.traffic_classes;
  strict_ = pp_.class_scheduling == ClassScheduling::Strict;
  const size_t links = cluster.links().size();
  ports_.resize(links);
  classes_.resize(links * static_cast<size_t>(tc_ - 1));
  if (tc_ > 1) class_stats_.resize(links * static_cast<size_t>(tc_));
  on_wire_.assign(links, kNoPacket);
  paused_since_.assign(links, Time::infinity());
  ingress_.assign(links * static_cast<size_t>(tc_), 0);
  shared_used_.assign(cluster.nodes().size(), 0);
  for (size_t i = 0; i < links; ++i) {
    const Link& k = cluster.links()[i];
    Port& p = ports_[i];
    const double cap = cost_.capacity(static_cast<LinkId>(i));
    p.ps_per_byte = cap > 0 ? 1e12 / cap : -1;  // -1: a zero-capacity link never sends
    p.latency = k.latency;
    p.mode = link_flow_mode(pp_.flow_control, cluster.catalog().tech(k.tech).family);
    p.switch_egress = cluster.node(k.src).kind == NodeKind::Switch;
    // A GPU consumes what it receives at once: its receive buffer never fills. Otherwise each
    // class (virtual lane) gets an even share of the link's receive buffer.
    const int64_t credits = cluster.node(k.dst).kind == NodeKind::Gpu ? kUnlimited : pp_.port_buffer.count() / tc_;
    for (int c = 0; c < tc_; ++c) cls(static_cast<LinkId>(i), c).credits = credits;
  }
  // Congestion control: the fabric's family (its first network link's) resolves `auto`.
  bool pfc = false;
  const CongestionControl* scheme = &no_congestion_control();  // no network link: nothing to control
  std::vector<LinkFlowMode> modes(links);
  for (size_t i = 0; i < links; ++i) {
    modes[i] = ports_[i].mode;
    pfc = pfc || modes[i] == LinkFlowMode::Pfc;
  }
  for (const Link& k : cluster.links()) {
    const LinkFamily fam = cluster.catalog().tech(k.tech).family;
    if (fam == LinkFamily::InfiniBand || fam == LinkFamily::RoCE || fam == LinkFamily::EthernetTcp ||
        fam == LinkFamily::Efa || fam == LinkFamily::GaudiRoce) {
      scheme = &resolve_congestion_control(pp_.congestion_control, fam);
      break;
    }
  }
  // Lossy links: their flows run TCP, the modelled transport that recovers lost packets.
  const bool tcp = std::find(modes.begin(), modes.end(), LinkFlowMode::Lossy) != modes.end();
  auto hooks = std::make_unique<CongestionHooks>(pp_, modes, *scheme, tcp);
  if (pfc || tcp || hooks->controls_rate()) {
    owned_hooks_ = std::move(hooks);
    set_hooks(owned_hooks_.get());
  }
}

std::vector<std::pair<std::string, int64_t>> PacketModel::statistics() const {
  int64_t max_queue = 0;
  for (const Port& p : ports_) max_queue = std::max(max_queue, p.stats.max_queue);
  const CongestionHooks* h = owned_hooks_.get();
  std::vector<std::pair<std::string, int64_t>> out = {{"packets_sent", totals_.packets_sent},
                                                      {"packet_hops", totals_.packet_hops},
                                                      {"drops", totals_.drops},
                                                      {"retransmissions", totals_.retransmits},
                                                      {"tcp_timeouts", totals_.timeouts},
                                                      {"pause_frames", totals_.pauses},
                                                      {"ecn_marks", totals_.ecn_marks}};
  // Every registered scheme's counters (cnps, becns), whichever ran: the same rows in every report.
  for (const auto& scheme : congestion_control_registry()) {
    const std::vector<std::string> names = scheme->counters();
    for (size_t i = 0; i < names.size(); ++i) out.emplace_back(names[i], h != nullptr ? h->count(*scheme, i) : 0);
  }
  out.insert(out.end(), {{"headroom_violations", h != nullptr ? h->headroom_violations() : 0},
                         {"max_queue_bytes", max_queue},
                         {"peak_packets", static_cast<int64_t>(totals_.peak_packets)},
                         {"transfers", static_cast<int64_t>(fct_ps_.size())},
                         {"fct_p50_ns", fct_percentile(0.50)},
                         {"fct_p99_ns", fct_percentile(0.99)},
                         {"fct_max_ns", fct_percentile(1.0)}});
  return out;
}

// The q-quantile of the transfers' completion times (start to last byte), nearest rank, in ns.
int64_t PacketModel::fct_percentile(double q) const {
  if (fct_ps_.empty()) return 0;
  std::vector<int64_t> v = fct_ps_;
  const size_t rank = std::min(v.size() - 1, static_cast<size_t>(std::ceil(q * static_cast<double>(v.size()))) - (q > 0 ? 1 : 0));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(rank), v.end());
  return v[rank] / 1000;
}

std::vector<PortQueueReport> PacketModel::queue_report(size_t top) const {
  std::vector<LinkId> ids;
  for (size_t l = 0; l < ports_.size(); ++l) {
    const PortStats& s = ports_[l].stats;
    if (s.max_queue > 0 || s.pauses > 0 || s.drops > 0) ids.push_back(static_cast<LinkId>(l));
  }
  auto deeper = [&](LinkId a, LinkId b) {
    const PortStats &x = ports_[static_cast<size_t>(a)].stats, &y = ports_[static_cast<size_t>(b)].stats;
    if (x.max_queue != y.max_queue) return x.max_queue > y.max_queue;
    if (x.pauses != y.pauses) return x.pauses > y.pauses;
    return a < b;
  };
  const size_t n = std::min(top, ids.size());
  std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(n), ids.end(), deeper);
  std::vector<PortQueueReport> out;
  for (size_t i = 0; i < n; ++i) {
    const LinkId l = ids[i];
    const PortStats& s = ports_[static_cast<size_t>(l)].stats;
    PortQueueReport r;
    r.link = l;
    r.max_queue = s.max_queue;
    r.mean_queue = mean_queue(l, clock_);
    r.pauses = s.pauses;
    r.ecn_marks = s.ecn_marks;
    r.drops = s.drops;
    r.bucket = series_.bucket_for(clock_);
    r.series = series_.means(static_cast<size_t>(l), clock_);
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<PortTimeline> PacketModel::port_timelines() const {
  std::vector<PortTimeline> out;
  for (size_t l = 0; l < ports_.size(); ++l)
    if (series_.active(l) || paused_since_[l] < clock_) out.push_back(series_.timeline(l, clock_, paused_since_[l]));
  return out;
}

bool PacketModel::any_paused(LinkId l) const {
  for (int c = 0; c < tc_; ++c)
    if (class_queue(l, c).paused) return true;
  return false;
}

double PacketModel::mean_queue(LinkId l, Time now) const {
  const Port& p = ports_[static_cast<size_t>(l)];
  if (now.picoseconds() <= 0) return 0;
  const double area = p.stats.queue_byte_ps + static_cast<double>(p.queued) * static_cast<double>((now - p.last_change).picoseconds());
  return area / static_cast<double>(now.picoseconds());
}

int32_t PacketModel::new_flow() {
  if (!free_flows_.empty()) {
    const int32_t f = free_flows_.back();
    free_flows_.pop_back();
    SendFlow& slot = flows_[static_cast<size_t>(f)];
    const uint32_t gen = slot.gen + 1;
    slot = SendFlow{};
    slot.gen = gen;
    return f;
  }
  flows_.emplace_back();
  return static_cast<int32_t>(flows_.size() - 1);
}

void PacketModel::start(TransferId id, const ModelTransfer& t, Time now) {
  int32_t slot;
  if (!free_pending_.empty()) {
    slot = free_pending_.back();
    free_pending_.pop_back();
  } else {
    slot = static_cast<int32_t>(pending_.size());
    pending_.emplace_back();
  }
  Pending& pend = pending_[static_cast<size_t>(slot)];
  pend.id = id;
  pend.route = t.route;
  pend.legs_left = 0;
  pend.gates.clear();
  pend.started = now;
  started_.clear();
  const Cluster& c = cost_.cluster();
  const Time alpha = cost_.alpha(t);
  const double inflation = cost_.inflation(t);
  const double reduce_s = TransferCost::reduce_seconds(t);
  if (t.traffic_class >= tc_)
    throw InputError({}, "traffic_class",
                     "traffic class " + std::to_string(t.traffic_class) + " does not exist: the packet model has " +
                         std::to_string(tc_) + " (classes 0.." + std::to_string(tc_ - 1) + ")",
                     "raise packet.traffic_classes above " + std::to_string(t.traffic_class) + ", or use a lower class");
  const Route& legs = *pend.route;
  for (size_t i = 0; i < legs.size(); ++i) {
    const Leg& leg = legs[i];
    const auto wire = static_cast<int64_t>(std::llround(static_cast<double>(t.bytes.count()) * leg.share * inflation));
    if (wire <= 0 || leg.path.empty()) continue;
    const int32_t fi = new_flow();
    started_.push_back(fi);
    SendFlow& f = flows_[static_cast<size_t>(fi)];
    f.pending = slot;
    f.tc = t.traffic_class;
    f.route = pend.route;  // keeps f.path alive while its packets and ACKs outlive the transfer
    f.path = &leg.path;
    f.total = wire;
    f.key = mix_hash(pp_.seed, mix_hash(static_cast<uint64_t>(static_cast<uint32_t>(id)), i));
    bool crosses_switch = false;
    Time lat = Time::zero();
    for (LinkId l : leg.path.links) {
      const Link& k = c.link(l);
      lat += k.latency;
      if (ports_[static_cast<size_t>(l)].mode == LinkFlowMode::Lossy) f.tcp = true;  // asked of the hooks at activation
      if (c.node(k.dst).kind == NodeKind::Switch) crosses_switch = true;
      if (c.node(k.dst).kind == NodeKind::Nic) f.dst_nic = k.dst;
    }
    if (!crosses_switch) f.dst_nic = kNoNode;
    // A TCP flow's cumulative ACK travels in an event key's 29-bit argument.
    if (f.tcp && (wire + pp_.mtu.count() - 1) / pp_.mtu.count() >= (int64_t{1} << 29))
      throw InputError({}, "packet.mtu",
                       "a lossy transfer of " + std::to_string(wire) + " B is over 2^29 packets of " + std::to_string(pp_.mtu.count()) + " B",
                       "raise mtu or split the transfer");
    f.latency = lat;
    f.conn = conn_of_.try_emplace(&leg.path, static_cast<int32_t>(conn_of_.size())).first->second;
    if (!link_loss_.empty()) {
      double kept = 1, back = 1;
      for (LinkId l : leg.path.links) {
        kept *= 1 - link_loss_[static_cast<size_t>(l)];
        back *= 1 - link_loss_[static_cast<size_t>(c.link(l).reverse)];
      }
      f.loss = 1 - kept;
      f.nak_loss = 1 - back;
    }
    f.line_rate = 1e300;
    for (LinkId l : leg.path.links) f.line_rate = std::min(f.line_rate, cost_.capacity(l));
    // The reduction cap: this leg's wire bytes arrive no faster than over the whole reduction time.
    if (reduce_s > 0) f.reduce_ps_per_byte = reduce_s * 1e12 / static_cast<double>(wire);
    f.ps_per_payload_byte = f.reduce_ps_per_byte;
    // A slow GPU's one reduction rate, per wire byte of the whole transfer (its legs share it).
    if (reduce_s > 0 && slow_gpus_.any()) {
      const NodeId at = c.link(leg.path.links.back()).dst;
      if (const double kept = slow_gpus_.kept(at); kept < 1) {
        f.slow_gpu = at;
        f.gpu_ps_per_byte = reduce_s * 1e12 / (static_cast<double>(t.bytes.count()) * inflation) / kept;
      }
    }
    ++pend.legs_left;
    ++live_flows_;
    // The wires charge the path's latency; alpha's remainder (NCCL's step latency beyond it) is
    // paid before the first packet leaves.
    const Time wait = alpha > lat ? alpha - lat : Time::zero();
    events_.push({now + wait, key(kActivate, fi)});
  }
  if (pend.legs_left == 0) events_.push({now + alpha, key(kDone, slot)});
  else build_gates(pend);
}

void PacketModel::build_gates(Pending& pend) {
  const Cluster& c = cost_.cluster();
  for (int32_t fi : started_)
    if (flows_[static_cast<size_t>(fi)].tcp) return;  // a lossy leg's bytes arrive out of order: no gating
  auto ends_at = [&](int32_t fi) { return c.link(flows_[static_cast<size_t>(fi)].path->links.back()).dst; };
  for (int32_t out : started_) {
    const NodeId at = c.link(flows_[static_cast<size_t>(out)].path->links.front()).src;
    // Network switches only (SHARP): there a packet is a real InfiniBand MTU and the switch combines
    // packet by packet. NVSwitch (NVLS) reduces NVLink packets of at most 256 bytes, far finer than
    // the packet model's MTU, so gating its legs would charge a store-and-forward per 4 KiB that
    // the hardware does not pay (it made a 16 MiB NVLS all-reduce 24 % slower than the flow
    // model); NVLS legs stay ungated, as in the flow model.
    if (c.node(at).kind != NodeKind::Switch) continue;
    int32_t g = -1;
    for (int32_t k : pend.gates)
      if (gates_[static_cast<size_t>(k)].at == at) g = k;
    if (g < 0) {
      if (std::none_of(started_.begin(), started_.end(), [&](int32_t in) { return ends_at(in) == at; }))
        continue;  // nothing flows into this switch within the transfer
      if (!free_gates_.empty()) {
        g = free_gates_.back();
        free_gates_.pop_back();
      } else {
        g = static_cast<int32_t>(gates_.size());
        gates_.emplace_back();
      }
      pend.gates.push_back(g);
      Gate& gate = gates_[static_cast<size_t>(g)];
      gate.at = at;
      gate.allowed = 0;
      for (int32_t in : started_) {
        if (ends_at(in) != at) continue;
        SendFlow& i = flows_[static_cast<size_t>(in)];
        i.gate_in = g;
        i.gate_pos = static_cast<int32_t>(gate.inputs.size());
        gate.inputs.emplace_back(in, i.gen);
        gate.got.push_back(0);
        gate.total.push_back(i.total);
      }
    }
    SendFlow& o = flows_[static_cast<size_t>(out)];
    gates_[static_cast<size_t>(g)].outputs.emplace_back(out, o.gen);
    o.gate_out = g;
  }
}

void PacketModel::open_gate(int32_t g, int32_t pos, int64_t payload, Time now) {
  Gate& gate = gates_[static_cast<size_t>(g)];
  gate.got[static_cast<size_t>(pos)] += payload;
  double least = 1.0;
  for (size_t k = 0; k < gate.got.size(); ++k)
    least = std::min(least, static_cast<double>(gate.got[k]) / static_cast<double>(gate.total[k]));
  if (least <= gate.allowed) return;
  gate.allowed = least;
  for (auto [out, gen] : gate.outputs) {
    SendFlow& o = flows_[static_cast<size_t>(out)];
    if (o.gen != gen || o.complete || o.to_send <= 0) continue;  // reused, done, or not yet activated
    try_start(list_for_injection(out), now);
  }
}

void PacketModel::activate(int32_t fi, Time now) {
  SendFlow& f = flows_[static_cast<size_t>(fi)];
  f.to_send = f.total;
  f.next_ok = now;
  f.last_sent = now;
  if (hooks_ != nullptr) {
    const int64_t mtu = pp_.mtu.count();
    const Path& path = *f.path;
    const Cluster& c = cost_.cluster();
    const uint64_t ends = (static_cast<uint64_t>(static_cast<uint32_t>(c.link(path.links.front()).src)) << 32) |
                          static_cast<uint32_t>(c.link(path.links.back()).dst);
    const double rate = hooks_->on_flow_start(fi, {f.line_rate, (f.total + mtu - 1) / mtu, f.tcp, ends}, now);
    if (rate > 0) f.ps_per_payload_byte = std::max(f.reduce_ps_per_byte, 1e12 / rate);
    f.tcp = hooks_->connection(fi) != nullptr;
  } else {
    f.tcp = false;  // no transport installed: a lost packet stays lost (advance_to reports it)
  }
  try_start(list_for_injection(fi), now);
}

LinkId PacketModel::list_for_injection(int32_t fi) {
  SendFlow& f = flows_[static_cast<size_t>(fi)];
  const LinkId first = f.path->links.front();
  if (!f.injecting) {
    f.injecting = true;
    cls(first, f.tc).inject.push_back(fi);
  }
  return first;
}

void PacketModel::wake(LinkId l, Time at) {
  Port& p = ports_[static_cast<size_t>(l)];
  if (p.wake_pending && p.wake_at <= at) return;
  p.wake_pending = true;
  p.wake_at = at;
  events_.push({at, key(kWake, l)});
}

// The first injecting flow, in round-robin order from `rr`, whose rate limiter allows a packet
// now; `wake` gets the earliest time a limited one will.
bool PacketModel::pick_injection(ClassQueue& p, Time now, int32_t& flow, Time& wake) {
  const size_t n = p.inject.size();
  for (size_t k = 0; k < n; ++k) {
    const size_t idx = (p.rr + k) % n;
    const int32_t fi = p.inject[idx];
    const SendFlow& f = flows_[static_cast<size_t>(fi)];
    if (!can_inject(f, fi)) continue;  // a TCP window closed since it was listed
    if (f.next_ok <= now) {
      flow = static_cast<int32_t>(idx);
      return true;
    }
    wake = std::min(wake, f.next_ok);
  }
  return false;
}

bool PacketModel::can_inject(const SendFlow& f, int32_t fi) {
  if (f.tcp) return !f.complete && hooks_->connection(fi)->sender.can_send();
  if (f.to_send <= 0) return false;
  if (f.gate_out < 0) return true;
  // A reduction's result: the next packet's last byte must have arrived from every input.
  const double allowed = gates_[static_cast<size_t>(f.gate_out)].allowed;
  if (allowed >= 1.0) return true;
  const int64_t next_end = f.total - f.to_send + std::min(f.to_send, pp_.mtu.count());
  return static_cast<double>(next_end) <= allowed * static_cast<double>(f.total) + 1e-6;
}

PacketId PacketModel::make_packet(int32_t fi, LinkId l, Time now) {
  SendFlow& f = flows_[static_cast<size_t>(fi)];
  const PacketId pk = pool_.take();
  Packet& k = pool_[pk];
  const int64_t mtu = pp_.mtu.count();
  int64_t payload;
  if (f.tcp) {  // the sender picks the packet (a retransmission first); packet s holds bytes [s x mtu, ...)
    TcpSender& tx = hooks_->connection(fi)->sender;
    const int64_t before = tx.retransmissions();
    const int64_t s = tx.send(now);
    payload = std::min(mtu, f.total - s * mtu);
    k.seq = static_cast<uint32_t>(s);
    if (tx.retransmissions() > before) ++totals_.retransmits;
  } else {
    payload = std::min(f.to_send, mtu);
    f.to_send -= payload;
    k.seq = f.seq++;
    k.episode = f.episode;
    if (k.seq < f.sent_high) ++totals_.retransmits;  // sent again after a go-back
    else f.sent_high = k.seq + 1;
    if (f.to_send == 0 && f.holds_conn) release_connection(fi, now);  // its last packet has left
  }
  ++f.in_network;
  k.flow = fi;
  k.tc = f.tc;
  k.payload = static_cast<uint32_t>(payload);
  k.size = static_cast<uint32_t>(payload + pp_.header.count());
  k.hop = 0;
  k.link = l;
  if (now - f.last_sent > pp_.flowlet_gap) ++f.flowlet;
  f.last_sent = now;
  if (f.ps_per_payload_byte > 0) f.next_ok = std::max(f.next_ok, now) + ps_of(static_cast<double>(payload) * f.ps_per_payload_byte);
  if (f.slow_gpu != kNoNode) {
    f.next_ok = std::max(f.next_ok, slow_gpus_.book(f.slow_gpu, now, ps_of(static_cast<double>(payload) * f.gpu_ps_per_byte)));
  }
  ++totals_.packets_sent;
  return pk;
}

// A free port picks the class to serve: round robin from `rr_class` over the classes that send a
// packet now (equal-weight ETS, one packet per turn), or the lowest-numbered such class (strict).
// A class that cannot send (paused, short of credits, empty, rate-limited) is passed over, which
// is what keeps one class's congestion from blocking another.
void PacketModel::try_start(LinkId l, Time now) {
  Port& p = ports_[static_cast<size_t>(l)];
  if (p.busy || p.ps_per_byte < 0) return;
  Time wake_at = Time::infinity();
  if (tc_ == 1) {  // the one-class engine as it was: no class loop
    if (try_class(l, p, p.q, now, wake_at)) return;
  } else {
    for (int k = 0; k < tc_; ++k) {
      int c = strict_ ? k : p.rr_class + k;
      if (c >= tc_) c -= tc_;
      if (try_class(l, p, cls(l, c), now, wake_at)) {
        p.rr_class = static_cast<uint8_t>(c + 1 == tc_ ? 0 : c + 1);
        return;
      }
    }
  }
  if (!wake_at.is_infinite()) wake(l, wake_at);
}

// One class of a free port: its head forwarded packet or its next injected one (alternating when
// both can go), if flow control allows. `wake_at` gets the earliest time a rate-limited flow of
// the class may send.
bool PacketModel::try_class(LinkId l, Port& p, ClassQueue& q, Time now, Time& wake_at) {
  const bool lossless = p.mode == LinkFlowMode::Lossless;
  if (q.head != kNoPacket && (q.paused || (lossless && q.credits < pool_[q.head].size))) {
    q.ever_stalled = true;
    q.stalled_at = now;
  }
  if (q.paused) return false;
  const bool fwd_ok = q.head != kNoPacket && (!lossless || q.credits >= pool_[q.head].size);
  int32_t idx = -1;
  bool inj_ok = !q.inject.empty() && pick_injection(q, now, idx, wake_at);
  if (inj_ok && lossless) {  // a TCP flow's next packet is taken as a full one
    const SendFlow& f = flows_[static_cast<size_t>(q.inject[static_cast<size_t>(idx)])];
    inj_ok = q.credits >= (f.tcp ? pp_.mtu.count() : std::min(f.to_send, pp_.mtu.count())) + pp_.header.count();
  }
  if (fwd_ok && (!inj_ok || !q.inject_turn)) {
    const PacketId pk = q.head;
    Packet& k = pool_[pk];
    note_queue(l, now);
    q.head = k.next;
    if (q.head == kNoPacket) q.tail = kNoPacket;
    k.next = kNoPacket;
    q.queued -= k.size;
    p.queued -= k.size;
    if (k.shared) {
      p.shared_used -= k.size;
      shared_used_[static_cast<size_t>(cost_.cluster().link(l).src)] -= k.size;
      k.shared = 0;
    }
    q.inject_turn = true;
    transmit(l, pk, now);
    return true;
  }
  if (inj_ok) {
    const int32_t fi = q.inject[static_cast<size_t>(idx)];
    const PacketId pk = make_packet(fi, l, now);
    SendFlow& f = flows_[static_cast<size_t>(fi)];
    if (f.tcp) arm_timer(fi);  // RFC 6298 (5.1): the timer runs while data is outstanding
    if (!can_inject(f, fi)) {  // its last packet, or its window is full: leave the round robin, the next flow moves into idx
      q.inject.erase(q.inject.begin() + idx);
      f.injecting = false;
      q.rr = q.inject.empty() ? 0 : static_cast<size_t>(idx) % q.inject.size();
    } else {
      q.rr = static_cast<size_t>(idx) + 1;
    }
    q.inject_turn = false;
    transmit(l, pk, now);
    return true;
  }
  return false;
}

void PacketModel::transmit(LinkId l, PacketId pk, Time now) {
  Port& p = ports_[static_cast<size_t>(l)];
  const Packet& k = pool_[pk];
  p.busy = true;
  if (p.mode == LinkFlowMode::Lossless) cls(l, k.tc).credits -= k.size;
  on_wire_[static_cast<size_t>(l)] = pk;
  ++p.stats.packets;
  if (tc_ > 1) ++class_stats_[per_class(l, k.tc)].packets;
  ++totals_.packet_hops;
  carried_[static_cast<size_t>(l)] += k.payload;
  // At least 1 ps: a link's packets then arrive at distinct instants, in the order sent (events at
  // one instant run by packet id, which is not send order); a link fast enough to round to 0 (a
  // host's GPU-NIC join) would otherwise reorder a flow's packets, which TCP reads as loss.
  const Time ser = std::max(ps_of(static_cast<double>(k.size) * p.ps_per_byte), Time::ps(1));
  events_.push({now + ser, key(kTxDone, l)});
}

// The packet leaves node `at` (sent on, or consumed): its space in the buffer of the link it came
// in on is free again. The credit travels back over the wire, so a sender blocked on credits
// resumes one link latency later.
void PacketModel::release_ingress(Packet& k, NodeId, Time now) {
  const LinkId in = k.in_link;
  if (in < 0) return;
  Port& up = ports_[static_cast<size_t>(in)];
  if (up.mode == LinkFlowMode::Lossless) {
    ClassQueue& uq = cls(in, k.tc);  // the credit is this class's (virtual lane's)
    uq.credits += k.size;
    if (!up.busy && (uq.head != kNoPacket || !uq.inject.empty())) wake(in, now + up.latency);
  }
  if (hooks_ != nullptr) {
    int64_t& held = ingress_[per_class(in, k.tc)];
    held -= k.size;
    apply_pause(in, k.tc, hooks_->on_ingress(in, k.tc, held, now), now);
  }
}

void PacketModel::tx_done(LinkId l, Time now) {
  Port& p = ports_[static_cast<size_t>(l)];
  const PacketId pk = on_wire_[static_cast<size_t>(l)];
  on_wire_[static_cast<size_t>(l)] = kNoPacket;
  p.busy = false;
  Packet& k = pool_[pk];
  release_ingress(k, cost_.cluster().link(l).src, now);
  k.in_link = l;
  events_.push({now + p.latency, key(kArrive, pk)});
  try_start(l, now);
}

LinkId PacketModel::choose(const Packet& k, const SendFlow& f, NodeId at) {
  const LinkId pinned = f.path->links[static_cast<size_t>(k.hop)];
  if (lb_ == LoadBalance::Auto || f.dst_nic == kNoNode || cost_.cluster().node(at).kind != NodeKind::Switch) return pinned;
  const std::span<const LinkId> c = next_hops_.candidates(at, f.dst_nic);
  if (c.empty()) return pinned;
  if (c.size() == 1) return c[0];
  const uint64_t h = mix_hash(f.key, static_cast<uint64_t>(at));
  switch (lb_) {
    case LoadBalance::Spray: return c[mix_hash(h, k.seq) % c.size()];
    case LoadBalance::Flowlet: return c[mix_hash(h, f.flowlet) % c.size()];
    case LoadBalance::Adaptive: {
      size_t best = h % c.size();
      int64_t least = ports_[static_cast<size_t>(c[best])].queued;
      for (size_t j = 1; j < c.size() && least > 0; ++j) {
        const size_t i = (h + j) % c.size();
        const int64_t q = ports_[static_cast<size_t>(c[i])].queued;
        if (q < least) least = q, best = i;
      }
      return c[best];
    }
    default: return c[h % c.size()];  // Ecmp
  }
}

void PacketModel::arrive(PacketId pk, Time now) {
  Packet& k = pool_[pk];
  const LinkId l = k.link;
  const NodeId at = cost_.cluster().link(l).dst;
  SendFlow& f = flows_[static_cast<size_t>(k.flow)];
  if (hooks_ != nullptr) {
    int64_t& held = ingress_[per_class(l, k.tc)];
    held += k.size;
    apply_pause(l, k.tc, hooks_->on_ingress(l, k.tc, held, now), now);
  }
  if (static_cast<size_t>(k.hop) + 1 == f.path->links.size()) {
    deliver(pk, now);
    return;
  }
  ++k.hop;
  const LinkId e = choose(k, f, at);
  k.link = e;
  Port& out = ports_[static_cast<size_t>(e)];
  ClassQueue& oq = cls(e, k.tc);
  if (ports_[static_cast<size_t>(l)].mode == LinkFlowMode::Lossy) {
    // Admission: the port's dedicated buffer first, then the switch's shared pool, else a drop.
    if (out.queued - out.shared_used + k.size > pp_.port_buffer.count()) {
      int64_t& shared = shared_used_[static_cast<size_t>(at)];
      if (shared + k.size <= pp_.shared_buffer.count()) {
        shared += k.size;
        out.shared_used += k.size;
        k.shared = 1;
      } else {
        ++out.stats.drops;
        ++totals_.drops;
        release_ingress(k, at, now);
        // The flow's TCP notices the hole (duplicate ACKs or its timer) and resends.
        const int32_t fi = k.flow;
        --flows_[static_cast<size_t>(fi)].in_network;
        pool_.give(pk);
        maybe_free(fi);
        return;
      }
    }
  }
  if (hooks_ != nullptr && out.switch_egress) {
    // The port is a victim of congestion further on, not its root, when it stalled (paused, or
    // short of credits with a packet waiting) while its present backlog built up: within the time
    // that backlog takes to drain at line rate. Otherwise its queue grew while it sent flat out.
    // Per class: a switch marks on the queue the packet joins.
    const int64_t backlog = oq.queued + k.size;
    const bool blocked = oq.ever_stalled && (now - oq.stalled_at).picoseconds() <=
                                                static_cast<int64_t>(static_cast<double>(backlog) * out.ps_per_byte);
    if (hooks_->on_enqueue(e, backlog, blocked, now)) {
      k.ecn = 1;
      ++out.stats.ecn_marks;
      ++totals_.ecn_marks;
      series_.mark(static_cast<size_t>(e), now);
    }
  }
  note_queue(e, now);
  if (oq.tail == kNoPacket) oq.head = pk;
  else pool_[oq.tail].next = pk;
  oq.tail = pk;
  oq.queued += k.size;
  out.queued += k.size;
  out.stats.max_queue = std::max(out.stats.max_queue, out.queued);
  try_start(e, now);
}

void PacketModel::deliver(PacketId pk, Time now) {
  Packet& k = pool_[pk];
  const int32_t fi = k.flow;
  SendFlow& f = flows_[static_cast<size_t>(fi)];
  release_ingress(k, cost_.cluster().link(k.link).dst, now);
  --f.in_network;
  ++totals_.packets_delivered;
  const int64_t before = f.received;
  if (f.tcp) {
    // The receiver's cumulative ACK for every arrival (no delayed ACKs); only a packet's first
    // copy counts towards the flow's bytes.
    TcpReceiver& rx = hooks_->connection(fi)->receiver;
    const int64_t dups = rx.duplicates() + rx.beyond_window();
    const int64_t next = rx.on_packet(k.seq);
    if (rx.duplicates() + rx.beyond_window() == dups) f.received += k.payload;
    else ++totals_.duplicates;
    ++f.acks_due;
    events_.push({now + f.latency, key(kAck, fi, static_cast<uint64_t>(next))});
  } else if (f.loss > 0 && !receive_in_order(fi, k, now)) {
    pool_.give(pk);  // corrupted, or out of sequence behind a loss: the receiver drops it
    maybe_free(fi);
    return;
  } else {
    f.received += k.payload;
    if (acks_) {
      // The ack path: the acknowledgement (or CNP) reaches the sender one path latency later.
      ++f.acks_due;
      events_.push({now + f.latency, key(kAck, fi, (static_cast<uint64_t>(k.ecn) << 28) | k.payload)});
    }
  }
  pool_.give(pk);
  // After the packet is given back (opening a reduction's gate may inject packets and grow the
  // pool under `k`), before finish_flow (which frees the gate with its transfer).
  if (f.gate_in >= 0 && f.received > before) open_gate(f.gate_in, f.gate_pos, f.received - before, now);
  if (!f.complete && f.received == f.total) finish_flow(fi, now);
  maybe_free(fi);
}

void PacketModel::set_gpu_compute(NodeId gpu, double fraction) {
  slow_gpus_.set(cost_.cluster(), gpu, fraction);
}

void PacketModel::set_link_loss(LinkId l, double p) {
  if (!(p >= 0 && p < 1)) throw std::invalid_argument("a link's loss rate must be in [0, 1)");
  if (link_loss_.empty()) link_loss_.assign(ports_.size(), 0.0);
  link_loss_[static_cast<size_t>(l)] = p;
}

bool PacketModel::receive_in_order(int32_t fi, const Packet& k, Time now) {
  SendFlow& f = flows_[static_cast<size_t>(fi)];
  // A stale copy (sent before the sender last went back) is dropped without a word: the sender
  // has already gone back past it.
  const bool current = k.episode == f.episode;
  const bool naked = f.nak_out && f.nak_episode == f.episode;
  if (unit_of(mix_hash(f.key ^ 0x6c6f7373ull, f.arrivals++)) < f.loss) {
    ++totals_.drops;
    // The last packet lost leaves nothing behind it to show the gap: the ACK timeout resends.
    const int64_t mtu = pp_.mtu.count();
    const bool last = static_cast<int64_t>(k.seq) + 1 == (f.total + mtu - 1) / mtu;
    if (last && current && !naked) send_nak(fi, now + Time::ps(kRcAckTimeoutPs), true);
    return false;
  }
  if (k.seq == f.expect) {
    ++f.expect;
    return true;
  }
  if (k.seq > f.expect && current && !naked) send_nak(fi, now + f.latency, false);
  return false;
}

void PacketModel::send_nak(int32_t fi, Time at, bool timer) {
  SendFlow& f = flows_[static_cast<size_t>(fi)];
  f.nak_out = true;
  f.nak_episode = f.episode;
  ++f.acks_due;
  // A NAK lost on its way back: the requester hears nothing, and its ACK timeout (counted from
  // about now: the packets behind the gap, which the responder drops, are still arriving) sends
  // it back to the same packet.
  if (!timer && f.nak_loss > 0 && unit_of(mix_hash(f.key ^ 0x6e616bull, f.naks++)) < f.nak_loss) {
    ++totals_.drops;
    at = at - f.latency + Time::ps(kRcAckTimeoutPs);
  }
  events_.push({at, key(kAck, fi, kNak)});
}

void PacketModel::go_back(int32_t fi, Time now) {
  SendFlow& f = flows_[static_cast<size_t>(fi)];
  // The retry counter: reset by progress since the last go-back, else one more retry.
  if (f.expect != f.back_expect) {
    f.back_expect = f.expect;
    f.retries = 0;
  }
  if (++f.retries > kRcRetryCount) abort_connection(fi, now);
  const int64_t mtu = pp_.mtu.count();
  f.seq = f.expect;
  f.to_send = f.total - static_cast<int64_t>(f.expect) * mtu;
  ++f.episode;
  f.nak_out = false;
  if (f.to_send <= 0) return;
  try_start(list_for_injection(fi), now);
}

void PacketModel::abort_connection(int32_t fi, Time now) const {
  const SendFlow& f = flows_[static_cast<size_t>(fi)];
  const Cluster& c = cost_.cluster();
  LinkId worst = f.path->links.front();
  for (LinkId l : f.path->links)
    if (link_loss_[static_cast<size_t>(l)] > link_loss_[static_cast<size_t>(worst)]) worst = l;
  const Link& w = c.link(worst);
  char when[32], loss[32];
  std::snprintf(when, sizeof when, "%.6f s", now.to_s());
  std::snprintf(loss, sizeof loss, "%g", link_loss_[static_cast<size_t>(worst)]);
  throw TransportAbort(
      c.node_name(w.src) + "-" + c.node_name(w.dst),
      "the collective aborts at t = " + std::string(when) + ": the reliable connection " +
          c.node_name(c.link(f.path->links.front()).src) + " -> " + c.node_name(c.link(f.path->links.back()).dst) +
          " went back " + std::to_string(kRcRetryCount + 1) + " times in a row without getting a packet through " +
          c.node_name(w.src) + "-" + c.node_name(w.dst) + " (loss " + std::string(loss) +
          "), past NCCL_IB_RETRY_CNT = " + std::to_string(kRcRetryCount) +
          " (each retry a NAK's or a 4.29 s ACK timeout's, NCCL_IB_TIMEOUT = 20): its queue pair fails and NCCL aborts "
          "the communicator (NVIDIA/nccl issue #998)",
      worst, now);
}

void PacketModel::release_connection(int32_t fi, Time now) {
  SendFlow& f = flows_[static_cast<size_t>(fi)];
  f.holds_conn = false;
  // The next leg is admitted now, through the event queue: this may run inside a port's
  // try_start, which activating the next leg on the same port would re-enter.
  if (const int32_t next = connections_.release(f.conn); next >= 0) {
    flows_[static_cast<size_t>(next)].admitted = true;
    events_.push({now, key(kActivate, next)});
  }
}

void PacketModel::finish_flow(int32_t fi, Time now) {
  SendFlow& f = flows_[static_cast<size_t>(fi)];
  f.complete = true;
  if (f.holds_conn) release_connection(fi, now);
  if (f.injecting) {
    // A TCP sender can still be listed (a retransmission it no longer needs): the slot will be
    // reused, so it leaves its port's round robin now.
    ClassQueue& p = cls(f.path->links.front(), f.tc);
    const auto it = std::find(p.inject.begin(), p.inject.end(), fi);
    const auto idx = static_cast<size_t>(it - p.inject.begin());
    p.inject.erase(it);
    if (idx < p.rr) --p.rr;
    if (p.rr >= p.inject.size()) p.rr = 0;
    f.injecting = false;
  }
  --live_flows_;
  if (hooks_ != nullptr) hooks_->on_flow_end(fi, now);
  const int32_t slot = f.pending;
  Pending& pend = pending_[static_cast<size_t>(slot)];
  if (--pend.legs_left == 0) {
    completed_.push_back(pend.id);
    fct_ps_.push_back((now - pend.started).picoseconds());
    ++totals_.transfers_completed;
    pend.route.reset();
    for (int32_t g : pend.gates) {
      Gate& gate = gates_[static_cast<size_t>(g)];
      for (auto [x, gen] : gate.inputs)
        if (flows_[static_cast<size_t>(x)].gen == gen) flows_[static_cast<size_t>(x)].gate_in = -1;
      for (auto [x, gen] : gate.outputs)
        if (flows_[static_cast<size_t>(x)].gen == gen) flows_[static_cast<size_t>(x)].gate_out = -1;
      gate.inputs.clear();
      gate.outputs.clear();
      gate.got.clear();
      gate.total.clear();
      free_gates_.push_back(g);
    }
    pend.gates.clear();
    free_pending_.push_back(slot);
  }
}

// A slot is reused only when nothing names it any more: no ACK travelling back and none of its
// packets still in the network (events and packets carry the slot number).
void PacketModel::maybe_free(int32_t fi) {
  SendFlow& f = flows_[static_cast<size_t>(fi)];
  if (!f.complete || f.freed || f.acks_due > 0 || f.in_network > 0) return;
  f.freed = true;
  if (hooks_ != nullptr) hooks_->on_flow_freed(fi);
  free_flows_.push_back(fi);
}

void PacketModel::ack(int32_t fi, uint32_t arg, bool ecn, Time now) {
  SendFlow& f = flows_[static_cast<size_t>(fi)];
  --f.acks_due;
  if (!f.tcp && arg == kNak) {
    if (!f.complete) go_back(fi, now);
    maybe_free(fi);
    return;
  }
  if (f.tcp) {
    hooks_->connection(fi)->sender.on_ack(static_cast<int64_t>(arg), now);
    if (!f.complete) tcp_progress(fi, now);
    maybe_free(fi);
    return;
  }
  if (f.complete) {
    maybe_free(fi);
    return;
  }
  if (hooks_ == nullptr) return;
  const double rate = hooks_->on_ack(fi, arg, ecn, now);
  f.ps_per_payload_byte = rate > 0 ? std::max(f.reduce_ps_per_byte, 1e12 / rate) : f.reduce_ps_per_byte;
  if (f.to_send > 0) try_start(f.path->links.front(), now);
}

void PacketModel::arm_timer(int32_t fi) {
  SendFlow& f = flows_[static_cast<size_t>(fi)];
  const Time d = hooks_->connection(fi)->sender.timer_deadline();
  // One timer event per flow: a later deadline is looked at when the earlier event fires.
  if (d.is_infinite() || (f.timer_pending && f.timer_at <= d)) return;
  f.timer_pending = true;
  f.timer_at = d;
  events_.push({d, key(kTimer, fi, f.gen)});
}

void PacketModel::tcp_timer(int32_t fi, uint32_t gen, Time now) {
  SendFlow& f = flows_[static_cast<size_t>(fi)];
  if (f.freed || (f.gen & 0x1fffffffu) != gen) return;  // the flow it was set for is gone
  if (now >= f.timer_at) f.timer_pending = false;
  if (f.complete) return;
  if (hooks_->connection(fi)->sender.on_timeout(now)) ++totals_.timeouts;
  tcp_progress(fi, now);
}

void PacketModel::tcp_progress(int32_t fi, Time now) {
  SendFlow& f = flows_[static_cast<size_t>(fi)];
  const bool ready = f.injecting || can_inject(f, fi);
  const LinkId first = ready ? list_for_injection(fi) : f.path->links.front();
  arm_timer(fi);
  if (ready) try_start(first, now);
}

void PacketModel::apply_pause(LinkId l, int c, PauseAction a, Time now) {
  if (a == PauseAction::Keep) return;
  // The pause frame crosses the link back to its sender; it names its priority (802.1Qbb's
  // class-enable vector, one class per frame here).
  events_.push({now + ports_[static_cast<size_t>(l)].latency,
                key(kPause, l, (static_cast<uint64_t>(c) << 1) | (a == PauseAction::Pause ? 1 : 0))});
}

void PacketModel::note_queue(LinkId l, Time now) {
  Port& p = ports_[static_cast<size_t>(l)];
  series_.add(static_cast<size_t>(l), p.queued, p.last_change, now);
  p.note_queue(now);
}

void PacketModel::advance_to(Time t, CompletionSink& done) {
  while (events_.next_time() <= t) {
    const Time now = events_.next_time();
    clock_ = now;
    completed_.clear();
    while (!events_.empty() && events_.top().at == now) {
      const Event e = events_.pop();
      ++totals_.events;
      const int32_t id = id_of(e.key);
      switch (kind_of(e.key)) {
        case kTxDone: tx_done(id, now); break;
        case kArrive: arrive(id, now); break;
        case kActivate: {
          SendFlow& f = flows_[static_cast<size_t>(id)];
          if (f.conn < 0 || f.admitted || connections_.admit(f.conn, id)) {
            f.admitted = true;
            f.holds_conn = f.conn >= 0;
            activate(id, now);
          }
          break;
        }
        case kWake: {
          Port& p = ports_[static_cast<size_t>(id)];
          if (p.wake_pending && p.wake_at <= now) p.wake_pending = false;
          try_start(id, now);
          break;
        }
        case kTimer: tcp_timer(id, static_cast<uint32_t>(arg_of(e.key)), now); break;
        case kAck: {
          // TCP flows carry the cumulative ACK in all 29 bits; others the ECN bit and the bytes.
          const bool tcp = flows_[static_cast<size_t>(id)].tcp;
          const uint64_t a = arg_of(e.key);
          ack(id, static_cast<uint32_t>(tcp ? a : a & 0x0fffffffu), !tcp && (a >> 28) != 0, now);
          break;
        }
        case kDone: {
          Pending& pend = pending_[static_cast<size_t>(id)];
          completed_.push_back(pend.id);
          fct_ps_.push_back((now - pend.started).picoseconds());
          ++totals_.transfers_completed;
          pend.route.reset();
          free_pending_.push_back(id);
          break;
        }
        case kPause: {
          Port& p = ports_[static_cast<size_t>(id)];
          const int c = static_cast<int>(arg_of(e.key) >> 1);
          ClassQueue& q = cls(id, c);
          const bool pause = (arg_of(e.key) & 1) != 0;
          const bool was_paused = any_paused(id);
          if (pause && !q.paused) {
            ++p.stats.pauses, ++totals_.pauses;
            if (tc_ > 1) ++class_stats_[per_class(id, c)].pauses;
            series_.pause_frame(static_cast<size_t>(id), now);
          }
          q.paused = pause;
          // The port's paused time (any class), for its timeline.
          Time& since = paused_since_[static_cast<size_t>(id)];
          if (!was_paused && pause) since = now;
          if (was_paused && !any_paused(id)) {
            series_.paused(static_cast<size_t>(id), since, now);
            since = Time::infinity();
          }
          if (!pause) try_start(id, now);
          break;
        }
      }
    }
    totals_.peak_packets = pool_.peak();
    std::sort(completed_.begin(), completed_.end());
    for (TransferId id : completed_) done.completed(id, now);
    if (events_.empty() && live_flows_ > 0) report_stuck();
  }
}

// Nothing is scheduled, yet flows are unfinished: no event can ever move their packets again.
// A port is blocked when it holds packets it may not send (paused, or short of credits). Blocked
// port u waits on port v when a packet that came in over u sits in v's queue (u's buffer space,
// and so its resume or credit, comes back only when v sends it): a cycle of such waits is the
// deadlock (Hu et al., "Deadlocks in Datacenter Networks: Why Do They Form, and How to Avoid
// Them", HotNets 2016: cyclic buffer dependency).
void PacketModel::report_stuck() const {
  const Cluster& c = cost_.cluster();
  // A port is blocked when one of its classes is.
  auto blocked = [&](LinkId l) {
    const Port& p = ports_[static_cast<size_t>(l)];
    for (int c = 0; c < tc_; ++c) {
      const ClassQueue& q = class_queue(l, c);
      if (q.head == kNoPacket && q.inject.empty()) continue;
      if (q.paused) return true;
      if (p.mode == LinkFlowMode::Lossless && q.head != kNoPacket && q.credits < pool_[q.head].size) return true;
    }
    return false;
  };
  auto paused = [&](LinkId l) {
    for (int c = 0; c < tc_; ++c)
      if (class_queue(l, c).paused) return true;
    return false;
  };
  auto name = [&](LinkId l) { return c.node_name(c.link(l).src) + " -> " + c.node_name(c.link(l).dst); };
  const size_t n = ports_.size();
  std::vector<std::vector<LinkId>> waits(n);
  std::vector<LinkId> stuck;
  for (size_t v = 0; v < n; ++v) {
    if (blocked(static_cast<LinkId>(v))) stuck.push_back(static_cast<LinkId>(v));
    for (int c = 0; c < tc_; ++c)
      for (PacketId pk = class_queue(static_cast<LinkId>(v), c).head; pk != kNoPacket; pk = pool_[pk].next) {
        const LinkId u = pool_[pk].in_link;
        if (u >= 0 && blocked(u) && (waits[static_cast<size_t>(u)].empty() || waits[static_cast<size_t>(u)].back() != static_cast<LinkId>(v)))
          waits[static_cast<size_t>(u)].push_back(static_cast<LinkId>(v));
      }
  }
  // Depth-first search for a cycle (0 unvisited, 1 on the stack, 2 done).
  std::vector<uint8_t> state(n, 0);
  std::vector<LinkId> stack, cycle;
  std::vector<size_t> next(n, 0);
  for (LinkId root : stuck) {
    if (state[static_cast<size_t>(root)] != 0 || !cycle.empty()) continue;
    stack.push_back(root);
    state[static_cast<size_t>(root)] = 1;
    while (!stack.empty() && cycle.empty()) {
      const LinkId u = stack.back();
      std::vector<LinkId>& out = waits[static_cast<size_t>(u)];
      if (next[static_cast<size_t>(u)] == out.size()) {
        state[static_cast<size_t>(u)] = 2;
        stack.pop_back();
        continue;
      }
      const LinkId v = out[next[static_cast<size_t>(u)]++];
      if (state[static_cast<size_t>(v)] == 1) {
        cycle.assign(std::find(stack.begin(), stack.end(), v), stack.end());
      } else if (state[static_cast<size_t>(v)] == 0 && blocked(v)) {
        state[static_cast<size_t>(v)] = 1;
        stack.push_back(v);
      }
    }
    stack.clear();
  }
  std::string msg;
  if (!cycle.empty()) {
    msg = "deadlock: a cycle of " + std::to_string(cycle.size()) + " ports each waits on the next to send (";
    const size_t shown = std::min<size_t>(cycle.size(), 12);  // a torus cycle can be long
    for (size_t i = 0; i < shown; ++i) msg += (i ? ", " : "") + name(cycle[i]) + (paused(cycle[i]) ? " [paused]" : " [no credits]");
    if (shown < cycle.size()) msg += ", ... " + std::to_string(cycle.size() - shown) + " more";
    msg += ", then " + name(cycle.front()) + " again); ";
  } else {
    msg = "deadlock: ";
  }
  msg += std::to_string(live_flows_) + " flows are unfinished and no event can move them";
  if (!stuck.empty()) {
    msg += "; " + std::to_string(stuck.size()) + " ports hold packets they may not send:";
    for (size_t i = 0; i < stuck.size() && i < 8; ++i) msg += " " + name(stuck[i]) + (i + 1 < stuck.size() && i < 7 ? "," : "");
    if (stuck.size() > 8) msg += " ...";
  } else {
    msg += " (packets were lost and no transport resends them)";
  }
  throw InputError({}, "packet.flow_control", msg,
                   "routes that form a cycle of buffer dependencies (a ring or torus routed without a change of "
                   "virtual lane at a dateline, which is not modelled: a transfer keeps its traffic class end to end) "
                   "can deadlock a lossless fabric: use a fabric whose routes cannot form one (a Clos), or "
                   "flow_control: none with TCP");
}

}  // namespace gf
