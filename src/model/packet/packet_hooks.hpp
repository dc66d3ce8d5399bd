// Where congestion control plugs into the packet model. The components themselves (ECN marking,
// PFC, DCQCN, TCP) are pure classes written beside this file; an adapter implementing
// PacketHooks connects them. The model calls a hook only when one is installed
// (PacketModel::set_hooks), so a run without congestion control pays nothing.
//
//  - on_enqueue: a packet joins egress port `port`'s queue, which then holds `queued` bytes;
//    `blocked` when the port holds packets it may not send now (short of credits or paused: a
//    victim of congestion further on, not its root); return true to mark it Congestion
//    Experienced (ECN, RFC 3168; DCQCN's RED-like Kmin/Kmax/Pmax; InfiniBand's FECN).
//  - on_ingress: the bytes of traffic class `cls` buffered at link `in_link`'s receiving node that
//    arrived over it changed to `bytes`; return Pause / Resume to pause or resume that class at the
//    sending port of `in_link` (IEEE 802.1Qbb PFC at Xoff / Xon, per priority). The model applies
//    it after the link's latency (the pause frame's flight) and counts pause frames on the paused
//    port.
//  - on_flow_start: a sending flow (one leg of a transfer) starts (FlowStart says how fast its
//    path is, how many packets it sends, whether it crosses a lossy link); return its initial rate
//    limit in bytes per second of payload (0 = line rate, no limit).
//  - connection: the TCP connection (tcp.hpp) the hook keeps for `flow`, or nullptr when the flow
//    is not windowed. For a windowed flow the engine asks the sender which packet to send and
//    when its window allows one, feeds the receiver every arrival and the sender every cumulative
//    ACK, and fires its retransmission timer; a dropped packet is the transport's to recover.
//  - on_ack: a delivered packet's acknowledgement reaches the sender, one path latency after the
//    packet arrived (the ack path: ACKs for TCP, CNPs for DCQCN and BECNs for InfiniBand congestion
//    control when `ecn`); return the flow's new
//    rate limit (0 = none).
//  - on_flow_end: the flow has delivered its last byte.
//  - on_flow_freed: nothing names the flow any more (its last packet and ACK are gone); its slot
//    will be reused. Per-connection state may now carry over to the next flow between the same
//    endpoints (FlowStart::endpoints), as a NIC's queue pair carries its DCQCN rate and TCP window
//    from one message to the next.
//  - wants_acks: whether on_ack is wanted at all (each ack is an event; runs without an end-to-end
//    controller skip them).
#pragma once

#include <cstdint>

#include "core/units.hpp"
#include "topology/node.hpp"

namespace gf {

enum class PauseAction : uint8_t { Keep, Pause, Resume };

struct TcpConnection;

struct FlowStart {
  double line_rate = 0;  // bytes per second of the path's slowest link
  int64_t packets = 0;   // packets of at most one MTU the flow sends
  bool lossy = false;    // its path crosses a link that drops on overflow
  uint64_t endpoints = 0;  // names the (source, destination) pair: flows with equal values may share a connection
};

class PacketHooks {
 public:
  virtual ~PacketHooks() = default;
  virtual bool on_enqueue(LinkId /*port*/, int64_t /*queued*/, bool /*blocked*/, Time /*now*/) { return false; }
  virtual PauseAction on_ingress(LinkId /*in_link*/, int /*cls*/, int64_t /*bytes*/, Time /*now*/) { return PauseAction::Keep; }
  virtual double on_flow_start(int32_t /*flow*/, const FlowStart& /*start*/, Time /*now*/) { return 0; }
  virtual TcpConnection* connection(int32_t /*flow*/) { return nullptr; }
  virtual double on_ack(int32_t /*flow*/, uint32_t /*bytes*/, bool /*ecn*/, Time /*now*/) { return 0; }
  virtual void on_flow_end(int32_t /*flow*/, Time /*now*/) {}
  virtual void on_flow_freed(int32_t /*flow*/) {}
  virtual bool wants_acks() const { return true; }
};

}  // namespace gf
