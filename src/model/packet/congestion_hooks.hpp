// The adapter between the packet engine (PacketHooks) and the pure congestion-control components
// beside it: PFC per ingress link and traffic class (pfc.hpp) on links whose flow control is PFC,
// the run's congestion-control scheme (congestion_control.hpp: its RateControl marks at switch
// egress queues and sets each connection's rate), and TCP (tcp.hpp: NewReno sender,
// cumulative-ACK receiver) for every flow whose path crosses a lossy link. PacketModel installs
// one when the resolved settings ask for any of them.
// Every lossy flow runs TCP, whatever congestion_control says: it is the only modelled transport
// that resends a lost packet (PacketParams::validate_resolved rejects other pairings in files).
//
// State lives per connection, not per flow: when a flow's slot is freed its connection (the
// scheme's per-connection state, TCP sender) goes idle under the flow's endpoints, and the next
// flow between the same endpoints takes it over (a NIC keeps a queue pair's rate and window from
// one message to the next; NCCL keeps one per peer and channel), so a ring's successive steps do
// not restart from line rate or slow start. Concurrent flows between the same endpoints (several
// channels) each get their own.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "model/packet/congestion_control.hpp"
#include "model/packet/packet_hooks.hpp"
#include "model/packet/packet_params.hpp"
#include "model/packet/pfc.hpp"
#include "model/packet/port.hpp"
#include "model/packet/tcp.hpp"

namespace gf {

class CongestionHooks final : public PacketHooks {
 public:
  // `modes`: each link's flow-control mode (PFC queues are kept for Pfc links only).
  // `scheme`: the resolved congestion control; its RateControl (none for `none` and `tcp`) runs
  // the marking and the rates. `tcp`: flows crossing a lossy link run TCP.
  CongestionHooks(const PacketParams& params, const std::vector<LinkFlowMode>& modes, const CongestionControl& scheme,
                  bool tcp);

  bool on_enqueue(LinkId port, int64_t queued, bool blocked, Time now) override;
  PauseAction on_ingress(LinkId in_link, int cls, int64_t bytes, Time now) override;
  double on_flow_start(int32_t flow, const FlowStart& start, Time now) override;
  TcpConnection* connection(int32_t flow) override;
  void on_flow_freed(int32_t flow) override;
  double on_ack(int32_t flow, uint32_t bytes, bool ecn, Time now) override;
  bool wants_acks() const override { return rate_ || tcp_; }
  // Whether the scheme runs a RateControl (marks and rates); `none` and `tcp` do not.
  bool controls_rate() const { return rate_ != nullptr; }

  int64_t headroom_violations() const;
  // Statistic number `counter` of `scheme` (CongestionControl::counters): 0 when `scheme` is not
  // the one running.
  int64_t count(const CongestionControl& scheme, size_t counter) const;

 private:
  int traffic_classes_;
  TcpParams tcp_params_;
  const CongestionControl* scheme_;
  std::unique_ptr<RateControl> rate_;  // nullptr when the scheme controls no rate
  bool tcp_;
  std::vector<int32_t> pfc_index_;   // by LinkId: index into pfc_ of its class 0, -1 when not a PFC link
  std::vector<PfcQueue> pfc_;        // per PFC link, its traffic_classes queues in a row (802.1Qbb: per priority)
  std::vector<int64_t> held_;        // by pfc_ index: bytes last reported
  // By connection index:
  std::vector<uint64_t> conn_ends_;          // its FlowStart::endpoints
  std::vector<int32_t> flow_conn_;           // by flow slot: its connection, -1 when none
  std::unordered_map<uint64_t, std::vector<int32_t>> idle_;  // by endpoints: connections free to take
  // By connection index: its TCP connection, empty when its flow is not windowed.
  std::vector<std::unique_ptr<TcpConnection>> tcp_conn_;
};

}  // namespace gf
