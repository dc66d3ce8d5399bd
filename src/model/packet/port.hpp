// An egress port: the sending end of one directed link. Packets wait in a FIFO, leave one at a
// time at the link's rate (serialization), then travel the wire for its latency (propagation);
// the wire is the link, not the port. A port out of a sending endpoint also round-robins over the
// flows injecting there (a NIC's send queues), generating their packets only when it can send.
//
// Traffic classes (PFC priorities, IEEE 802.1Qbb; InfiniBand virtual lanes): a port keeps one
// ClassQueue per class, each with its own FIFO, injecting flows, credits and pause state, so a
// class paused or short of credits never blocks another. Class 0 lives inside the Port itself
// (a one-class run touches the same memory as before classes existed); PacketModel keeps the
// others in one flat array. Which class sends next is PacketModel::try_start's choice.
//
// Link-level flow control lives here too: under credits (InfiniBand, PCIe, NVLink), a class's
// `credits` is the free space in the downstream node's receive buffer for this link and class,
// and the head packet waits until it fits; a PFC hook may pause a class. Indexed by LinkId in
// one flat array.
#pragma once

#include <cstdint>
#include <vector>

#include "core/units.hpp"
#include "model/packet/packet.hpp"

namespace gf {

// How the link a port drives is protected against overflowing its receiver.
enum class LinkFlowMode : uint8_t {
  Lossless,  // credits: never sends what the receiver cannot hold (IB credits; PFC until it lands)
  Lossy,     // sends freely; the receiving switch drops what its buffer cannot hold
  Pfc,       // sends freely until paused; the receiver pauses it at Xoff and never drops (802.1Qbb)
};

struct PortStats {
  int64_t max_queue = 0;     // bytes, FIFO only (the packet on the wire excluded)
  double queue_byte_ps = 0;  // integral of queue bytes over picoseconds, for the mean
  int64_t drops = 0;         // packets dropped on entering this queue
  int64_t pauses = 0;        // pause frames received, every class together
  int64_t ecn_marks = 0;
  int64_t packets = 0;       // packets sent on the link
};

// One traffic class's share of an egress port.
struct ClassQueue {
  // FIFO of forwarded packets.
  PacketId head = kNoPacket, tail = kNoPacket;
  int64_t queued = 0;         // bytes in this class's FIFO
  int64_t credits = 0;        // lossless: free bytes in the downstream buffer for this link and class
  Time stalled_at;            // the last time it held a packet it could not send
  // Injecting flows of this class (sender slots), served round robin from `rr`.
  std::vector<int32_t> inject;
  size_t rr = 0;
  bool paused = false;        // PFC pause of this priority received
  bool inject_turn = false;   // alternate between forwarded packets and injection
  bool ever_stalled = false;  // has held a packet it could not send (paused, short of credits)
};

// A class's share of PortStats (kept apart, and only with more than one class: counting per
// class would cost every packet-hop of a one-class run).
struct ClassStats {
  int64_t pauses = 0;   // pause frames received for this class
  int64_t packets = 0;  // packets of this class sent on the link
};

struct Port {
  ClassQueue q;              // class 0 (the others: PacketModel's flat array)
  int64_t queued = 0;        // bytes in every class's FIFO together
  int64_t shared_used = 0;   // of which borrowed from the switch's shared buffer
  Time wake_at;
  double ps_per_byte = 0;    // serialization: picoseconds per wire byte (1e12 / capacity)
  Time latency;              // propagation (the link's latency)
  Time last_change;          // when `queued` last changed (for the time-weighted mean)
  bool busy = false;         // a packet is being serialized
  bool wake_pending = false; // a wake-up event is queued for `wake_at`
  LinkFlowMode mode = LinkFlowMode::Lossless;
  bool switch_egress = false; // leaves a switch: only switches mark ECN / FECN (a NIC's send queue does not)
  uint8_t rr_class = 0;       // round robin over classes: the class to look at first
  PortStats stats;

  void note_queue(Time now) {
    stats.queue_byte_ps += static_cast<double>(queued) * static_cast<double>((now - last_change).picoseconds());
    last_change = now;
  }
};

}  // namespace gf
