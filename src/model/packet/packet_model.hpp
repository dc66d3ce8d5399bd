// The packet-level model: every leg of a transfer is a sending flow that cuts its wire bytes into
// packets of at most PacketParams::mtu payload plus a header; packets queue at egress ports that
// drain at the link's rate (serialization), cross the wire in the link's latency (propagation),
// and are stored and forwarded at every node until the leg's last link delivers them. Discrete
// events in integer picoseconds on the shared EventQueue; ports, packets and flows live in flat
// arrays indexed by ids; packets come from a reused pool.
//
// Agreement with the flow model where nothing competes: a leg waits alpha - (its path's latency)
// before its first packet leaves (TransferCost::alpha already counts the path latency, which the
// packets now pay on the wires), links drain at TransferCost::capacity, payload is protocol-
// inflated as the flow model inflates it, and the receiving GPU's reduction caps the sending rate
// at wire bytes / reduction time. A k-packet leg over h store-and-forward links of equal rate then
// takes alpha + (k + h - 1) x serialization (h x propagation being inside alpha): the flow model's
// alpha + wire / capacity plus h - 1 packets' serialization and the headers.
//
// Flow control per link (link_flow_mode.hpp): lossless links carry credits (the sender never
// transmits a packet the receiving node's buffer for that link cannot hold: PacketParams::
// port_buffer per link; credits come back when the packet leaves that node); lossy links let a
// switch drop a packet its egress queue (port_buffer, then the switch's shared_buffer) cannot
// take. Every flow crossing a lossy link runs TCP (tcp.hpp, through CongestionHooks): its
// congestion window limits the packets in flight, each arrival sends a cumulative ACK back over
// the ack path (one path latency), three duplicate ACKs resend the first missing packet and a
// retransmission timeout goes back to it with a doubled RTO. A flow's slot is reused only once
// its last packet and ACK are gone (a spurious retransmission can still be travelling).
//
// A run that can no longer move (no event pending while flows are unfinished: every remaining
// packet waits on a paused or credit-starved port) throws InputError naming the ports of the
// cycle of buffer dependencies (a PFC or credit deadlock) instead of returning idle.
//
// Traffic classes (PacketParams::traffic_classes; port.hpp): every port keeps one queue per class
// (PFC priority, InfiniBand virtual lane) with its own injecting flows, credits (port_buffer split
// evenly) and PFC pause; a transfer's legs all run in its ModelTransfer::traffic_class. A free port
// serves the classes that have a packet they may send, one packet each in turn (equal-weight ETS)
// or the lowest-numbered first (strict), so a paused or credit-starved class never holds up
// another on the same port.
//
// Path choice (next_hops.hpp): LoadBalance::Auto follows each leg's path as routed (the run's
// routing policy: ECMP pins one path, spray gives several legs, adaptive picks at start); Ecmp,
// Spray, Flowlet and Adaptive choose per packet at every network switch among equal-cost ports.
//
// Random loss (set_link_loss: bit errors on a degraded link) on a reliable connection: a packet is
// corrupted on its path with probability 1 - prod(1 - p_l) over the leg's links, drawn per arrival
// from (seed, leg, arrival number), and dropped by the receiver's CRC check (the switches cut
// through, so the corrupted packet reaches the end). InfiniBand RC and RoCE recover by go-back-N
// (IBTA spec vol. 1, chapter 9.7, reliable service: the responder NAKs the first packet out of
// sequence with a sequence error and drops the rest; the requester resends from that PSN; Mittal et al.,
// "Revisiting Network Support for RDMA", SIGCOMM 2018, section 2: RoCE NICs do go-back-N): the
// first packet out of sequence after a loss sends a NAK back over the path's latency, later ones
// are dropped silently, and the sender goes back to the receiver's next expected packet when the
// NAK arrives. A lost last packet reveals no gap: the requester's local ACK timeout resends it,
// 4.096 us x 2^NCCL_IB_TIMEOUT (NCCL's default 20: 4.29 s; the requester's transport timer of
// IBTA chapter 9.7, as workload/failure_timeline.hpp counts it). A NAK crosses the path's
// reverse links and is lost with their loss rate: the requester then hears nothing and resends
// after that ACK timeout. Every go-back (a NAK's or a timeout's) is one retry of the connection's
// retry counter, which forward progress (the receiver's next expected packet moving) resets; the
// 8th go-back in a row without progress exceeds NCCL_IB_RETRY_CNT = 7 (NCCL's default; IBTA spec
// 1.2, 12.7.38: the retry count covers timeouts and sequence errors alike), the connection's QP
// fails and the run ends with a TransportAbort naming the link and the time (NCCL aborts the
// communicator, NVIDIA/nccl issue #998). Positive ACKs are not packets here: they are cumulative,
// so a lost one is covered by the next, and the transfer ends when its last byte is delivered.
// Not modelled: the steps behind a going-back step on its connection (they have been released
// to send).
//
// A slow GPU (set_gpu_compute, `perf --degrade server1/gpu3=0.5`) reduces at fraction F of its
// full rate, one rate for every leg reducing on it (the flow model's shared reduction resource,
// FlowModel::set_gpu_compute): each packet of such a leg books its reduction, payload x (the
// transfer's reduction time over its wire bytes) / F, on that GPU's one clock, and the leg sends
// its next packet no earlier than its booking ends, as the reduction cap already paces a leg.
//
// One connection's steps are sent in order, as in the flow model (model/flow/connection_queue.hpp:
// an InfiniBand/RoCE reliable connection or NCCL's P2P FIFO executes what is posted to it first
// in, first out). A connection is one leg of one Route object (the engine shares a route per
// source, destination and channel): a leg whose latency has passed while the step before it on
// the same connection still has packets to hand to its first port waits, and starts when that
// step's last packet has left the sender (a TCP leg: when it has delivered everything, as its
// retransmissions may still need the connection). Latencies overlap; the sender is FIFO.
//
// Event order at one instant: serialization ends, then arrivals, activations, wake-ups,
// retransmission timers, acks, each by increasing id (link, packet, flow): same input and seed,
// identical output.
#pragma once

#include <memory>
#include <unordered_map>
#include <vector>

#include "core/event_queue.hpp"
#include "model/flow/connection_queue.hpp"
#include "model/gpu_compute.hpp"
#include "model/model.hpp"
#include "model/packet/congestion_hooks.hpp"
#include "model/packet/next_hops.hpp"
#include "model/packet/packet.hpp"
#include "model/packet/packet_hooks.hpp"
#include "model/packet/packet_stats.hpp"
#include "model/packet/port.hpp"
#include "model/packet/queue_series.hpp"
#include "model/transfer_cost.hpp"

namespace gf {

class PacketModel final : public Model {
 public:
  // `params`: the constants every model shares (capacities, latencies); `packet`: this model's own.
  PacketModel(const Cluster& cluster, const ModelParams& params = {}, PacketParams packet = {});
  std::string name() const override { return "packet"; }
  void start(TransferId id, const ModelTransfer& t, Time now) override;
  Time next_event_time() const override { return events_.next_time(); }
  void advance_to(Time t, CompletionSink& done) override;
  // Payload wire bytes each link has carried (headers excluded, as the flow model counts).
  const std::vector<double>& carried_bytes() const override { return carried_; }
  // Bytes waiting in link l's egress queue now.
  double link_load(LinkId l) const override { return static_cast<double>(ports_[static_cast<size_t>(l)].queued); }
  // packets_sent, packet_hops, drops, retransmissions, tcp_timeouts, pause_frames, ecn_marks, the
  // counters of every registered congestion-control scheme (cnps, becns), ..., transfers and their completion-time percentiles fct_p50_ns, fct_p99_ns, fct_max_ns,
  // headroom_violations, max_queue_bytes (the deepest egress FIFO of any port), peak_packets.
  std::vector<std::pair<std::string, int64_t>> statistics() const override;
  // The `top` deepest egress queues (then most paused, then link id) with their depth over time.
  std::vector<PortQueueReport> queue_report(size_t top) const override;
  // Every port that queued, marked or was paused, its activity in the buckets of its queue series
  // (at most 128 over the run so far, each at least 1 us wide).
  std::vector<PortTimeline> port_timelines() const override;

  // Congestion control (packet_hooks.hpp), replacing the one the constructor installs
  // (CongestionHooks, when a link runs PFC, congestion control resolves to a scheme that controls
  // rates, or a link is lossy); nullptr removes it (a lossy run then has no transport: a lost packet ends the run in
  // the "no event can move them" report). Not owned. Set it before the first start().
  void set_hooks(PacketHooks* hooks) {
    hooks_ = hooks;
    acks_ = hooks != nullptr && hooks->wants_acks();
  }
  // Random packet loss on link l (bit errors, `--degrade LINK=loss:P`): each packet crossing it is
  // corrupted with probability p, drawn per arrival from the run's seed (PacketParams::seed), and
  // the receiver's CRC check drops it; a reliable connection recovers by go-back-N (see the class
  // comment). Call before the first start(). TCP legs (lossy links) are not affected.
  void set_link_loss(LinkId l, double p);
  // A slow GPU: from now on `gpu` reduces at `fraction` (0, 1] of its full rate, shared by the legs
  // reducing on it (the class comment). Throws std::invalid_argument for a fraction outside
  // (0, 1] or a node that is not a GPU. Call before the first start().
  void set_gpu_compute(NodeId gpu, double fraction);

  // The installed adapter, nullptr when the settings asked for none.
  const CongestionHooks* congestion() const { return owned_hooks_.get(); }

  const PacketTotals& totals() const { return totals_; }
  const PortStats& port_stats(LinkId l) const { return ports_[static_cast<size_t>(l)].stats; }
  // Link l's queue of traffic class c (0 <= c < traffic_classes): its FIFO, credits, pause state.
  const ClassQueue& class_queue(LinkId l, int c) const {
    return c == 0 ? ports_[static_cast<size_t>(l)].q : classes_[static_cast<size_t>(l) * (tc_ - 1) + static_cast<size_t>(c - 1)];
  }
  // Pause frames and packets of class c on link l (with one class, the port's own counts).
  ClassStats class_stats(LinkId l, int c) const {
    if (tc_ == 1) return {port_stats(l).pauses, port_stats(l).packets};
    return class_stats_[per_class(l, c)];
  }
  // Time-weighted mean egress queue depth of link l in bytes over [0, now].
  double mean_queue(LinkId l, Time now) const;
  LinkFlowMode link_mode(LinkId l) const { return ports_[static_cast<size_t>(l)].mode; }
  // Per-leg completion: when each finished flow delivered its last byte (flow slot order reused,
  // so only the totals and the CompletionSink are stable ids); see totals().

 private:
  struct Pending {            // a transfer in flight, in a reused slot
    TransferId id = -1;
    std::shared_ptr<const Route> route;
    int legs_left = 0;
    std::vector<int32_t> gates;  // its in-network reduction points (gates_), freed with it
    Time started;                // when start() was called, for its completion time
  };
  // In-network reduction or multicast at a switch (NVLS on NVSwitch, SHARP on a network switch):
  // a group transfer's legs that end at switch X feed it, the legs that leave X carry its result,
  // and a result byte can leave only once every input has brought that byte: the outputs may
  // send at most `allowed` (the least fraction any input has delivered) of their bytes.
  // Flow slots are reused once a flow is done, so a gate names its flows with their generation
  // and keeps its inputs' progress itself.
  struct Gate {
    NodeId at = kNoNode;  // the switch
    std::vector<std::pair<int32_t, uint32_t>> inputs, outputs;  // (flow slot, its gen)
    std::vector<int64_t> got, total;                           // per input: payload bytes arrived, of
    double allowed = 0;
  };
  struct SendFlow {           // one leg: a sender and its receiver
    int32_t pending = -1;     // its transfer's slot
    // The transfer's route, shared: a TCP flow's spurious retransmissions and ACKs can outlive
    // the transfer (which releases its own reference when it completes), and `path` points into it.
    std::shared_ptr<const Route> route;
    const Path* path = nullptr;
    NodeId dst_nic = kNoNode; // the NIC ending the fabric segment (kNoNode: no network switch)
    int64_t total = 0;        // payload wire bytes
    int64_t to_send = 0;      // not yet handed to the first port (grows again on a drop)
    int64_t received = 0;
    int64_t acks_due = 0;     // acks still travelling back (the slot is reused only after them)
    double line_rate = 0;     // bytes/s of its slowest link
    double ps_per_payload_byte = 0;  // rate limit (0 = none): reduction cap or congestion control
    double reduce_ps_per_byte = 0;   // the reduction cap alone
    Time next_ok;             // the rate limiter's next allowed send
    Time last_sent;
    Time latency;             // the path's propagation (the ack path's delay)
    uint64_t key = 0;         // hash seed for ECMP / spray / flowlet choices
    uint32_t seq = 0;
    uint32_t flowlet = 0;
    bool injecting = false;   // listed in its first port's injection list (of its class)
    uint8_t tc = 0;           // traffic class (ModelTransfer::traffic_class)
    // TCP (lossy paths): the connection lives in the hooks; packets are numbered 0..packets-1.
    bool tcp = false;
    bool complete = false;    // delivered every byte (its transfer has been told)
    bool freed = false;       // back in free_flows_
    bool timer_pending = false;
    int32_t in_network = 0;   // its packets not yet delivered or dropped
    int32_t gate_in = -1;     // the reduction point it feeds (gates_), -1: none
    int32_t gate_pos = -1;    // its position among that gate's inputs
    int32_t gate_out = -1;    // the reduction point whose result it carries, -1: none
    uint32_t gen = 0;         // bumped when the slot is reused: a stale timer event is ignored
    Time timer_at;            // the pending timer event's time
    // Go-back-N under random loss (set_link_loss): the chance a packet of it is corrupted on its
    // path, the receiver's next expected packet, arrivals so far (each draws once), the packets
    // sent at most so far (a lower one is a retransmission), its episode (bumped at each go-back)
    // and the NAK outstanding (for which episode).
    double loss = 0;
    uint32_t expect = 0, arrivals = 0, sent_high = 0;
    uint8_t episode = 0, nak_episode = 0;
    bool nak_out = false;
    // The chance a NAK back over the path's reverse links is lost, NAKs drawn so far, the retries
    // since the receiver last moved on, and where it stood then (the retry counter).
    double nak_loss = 0;
    uint32_t naks = 0, back_expect = 0;
    int32_t retries = 0;
    // A slow GPU it reduces on (set_gpu_compute), kNoNode: none; and that GPU's time per wire byte.
    NodeId slow_gpu = kNoNode;
    double gpu_ps_per_byte = 0;
    int32_t conn = -1;        // its connection (connections_), -1: none
    bool admitted = false;    // its connection let it send (released to it, or it was idle)
    bool holds_conn = false;  // it is its connection's sender and has not released it yet
  };

  int32_t new_flow();
  void activate(int32_t f, Time now);
  // Link l's queue of class c: class 0 inside the port, the others in classes_.
  ClassQueue& cls(LinkId l, int c) { return const_cast<ClassQueue&>(class_queue(l, c)); }
  // Index of (link l, class c) in the arrays kept per link and class (ingress_, class_stats_).
  size_t per_class(LinkId l, int c) const { return static_cast<size_t>(l) * static_cast<size_t>(tc_) + static_cast<size_t>(c); }
  void try_start(LinkId l, Time now);
  // Puts flow fi in its first port's injection round robin unless it is there already; returns
  // that port, which the caller then tries to start.
  LinkId list_for_injection(int32_t fi);
  // true: it sent a packet. Inlined into try_start, so a one-class run pays no call per try.
  [[gnu::always_inline]] inline bool try_class(LinkId l, Port& p, ClassQueue& q, Time now, Time& wake_at);
  bool pick_injection(ClassQueue& q, Time now, int32_t& flow, Time& wake);
  PacketId make_packet(int32_t f, LinkId l, Time now);
  void transmit(LinkId l, PacketId pk, Time now);
  void tx_done(LinkId l, Time now);
  void arrive(PacketId pk, Time now);
  void release_ingress(Packet& pk, NodeId at, Time now);
  void deliver(PacketId pk, Time now);
  void ack(int32_t f, uint32_t arg, bool ecn, Time now);
  void tcp_timer(int32_t f, uint32_t gen, Time now);
  void tcp_progress(int32_t f, Time now);
  void arm_timer(int32_t f);  // after an ACK or timeout: inject if allowed, re-arm the timer
  bool can_inject(const SendFlow& f, int32_t fi);
  void finish_flow(int32_t f, Time now);
  void maybe_free(int32_t f);
  // Cold (run once, on failure): it must not use the inlining budget the hot paths need.
  [[noreturn, gnu::cold]] void report_stuck() const;
  void wake(LinkId l, Time at);
  LinkId choose(const Packet& pk, const SendFlow& f, NodeId at);
  void apply_pause(LinkId l, int c, PauseAction a, Time now);
  bool any_paused(LinkId l) const;  // a class of port l is paused
  void build_gates(Pending& pend);
  // Before port l's queue changes: its mean and its series. Inlined: it runs twice per packet-hop.
  [[gnu::always_inline]] inline void note_queue(LinkId l, Time now);
  int64_t fct_percentile(double q) const;
  void open_gate(int32_t g, int32_t pos, int64_t payload, Time now);
  // Flow fi is done with its connection: the next leg waiting on it activates at `now`.
  void release_connection(int32_t fi, Time now);
  // Go-back-N (random loss): the receiver takes packet k of flow fi or drops it (corrupted, or out
  // of sequence after a loss, NAKing the first such of an episode); the sender goes back to the
  // receiver's next expected packet when the NAK (or its ACK timeout) arrives.
  bool receive_in_order(int32_t fi, const Packet& k, Time now);
  // `timer`: the requester's ACK timeout standing in for a NAK (a lost last packet), never lost.
  void send_nak(int32_t fi, Time at, bool timer);
  void go_back(int32_t fi, Time now);
  [[noreturn, gnu::cold]] void abort_connection(int32_t fi, Time now) const;

  TransferCost cost_;
  PacketParams pp_;
  LoadBalance lb_;            // Auto resolved: Auto means "follow the leg's path"
  NextHops next_hops_;
  EventQueue events_;
  PacketPool pool_;
  std::vector<Port> ports_;               // by LinkId
  int tc_ = 1;                            // traffic classes per port
  bool strict_ = false;                   // class_scheduling: strict (else round robin)
  std::vector<ClassQueue> classes_;       // by LinkId x (tc_ - 1) + class - 1: classes 1 and up
  std::vector<ClassStats> class_stats_;   // by LinkId x tc_ + class, only when tc_ > 1
  std::vector<PacketId> on_wire_;         // by LinkId: the packet being serialized
  std::vector<int64_t> shared_used_;      // by NodeId: shared buffer bytes in use (switches)
  std::vector<int64_t> ingress_;          // by LinkId x tc_ + class: bytes held at its receiver (hooks only)
  std::vector<Pending> pending_;
  std::vector<int32_t> free_pending_;
  std::vector<SendFlow> flows_;
  std::vector<int32_t> free_flows_;
  std::vector<Gate> gates_;
  std::vector<int32_t> free_gates_;
  std::vector<int32_t> started_;          // scratch: the flows start() made for one transfer
  QueueSeries series_;                    // every port's queue depth, marks and pauses over time
  std::vector<Time> paused_since_;        // by LinkId: when a class of it was last paused (infinity: none is)
  std::vector<int64_t> fct_ps_;           // each finished transfer's start-to-last-byte time
  Time clock_;                            // the last event's time
  std::vector<double> carried_;
  std::vector<TransferId> completed_;     // scratch, per instant
  std::unique_ptr<CongestionHooks> owned_hooks_;
  PacketHooks* hooks_ = nullptr;
  bool acks_ = false;
  PacketTotals totals_;
  int64_t live_flows_ = 0;                // started legs not yet complete
  // Connections by a leg's path in its shared route (one object per source, destination, channel
  // and leg), and the legs waiting on each.
  std::unordered_map<const Path*, int32_t> conn_of_;
  std::vector<double> link_loss_;         // by LinkId: random loss probability; empty: none
  SlowGpus slow_gpus_;                    // set_gpu_compute's GPUs and their reductions' turns
  ConnectionQueue connections_;
};

}  // namespace gf
