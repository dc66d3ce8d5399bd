// One NCCL connection's steps sent in order: a connection (source rank, destination rank,
// channel) is an InfiniBand/RoCE reliable-connected queue pair, or NCCL's P2P/SHM FIFO inside a
// server, and delivers what is posted to it first in, first out (IBTA spec vol. 1, chapter 9: a
// reliable connection executes its queue pair's messages in order; NCCL's proxy advances one
// connection's posted, transmitted and done step counters in step order, sendProxyProgress in
// NVIDIA/nccl src/transport/net.cc). So the flow model lets one step of a connection move bytes
// at a time: a step whose latency has passed while the step before it on the same connection is
// still sending waits behind it and starts when it has drained, at the connection's max-min rate.
// Latencies still overlap (up to NCCL_STEPS steps in flight), only the wire is served in order.
//
// Why it matters: with every step its own flow, the steps a late rank releases at once share the
// edge and the first of them arrives late, so the chain behind it starts late (docs/failures.md,
// "Stragglers and jitter"). Served in order, the first arrives after one step time.
//
// A connection is named by its route's pin (route_pins.hpp): the engine shares one Route object
// among every transfer of one (source, destination, channel) of a call (engine/transfer_routes.hpp
// RouteCache), so the route's address is the connection. Routes made per start (adaptive routing,
// a rerouted rest) are connections of their own, and are not ordered.
//
// Cost: a vector read and a branch per activation and per completion; the queue is a list threaded
// through the transfers' slots, so it allocates only when slots or pins grow.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gf {

class ConnectionQueue {
 public:
  // Transfer slot `slot` of connection `conn` has passed its latency: true when it may send now
  // (the connection was idle; it is now the sender), false when it waits behind the sender.
  bool admit(int32_t conn, int32_t slot) {
    if (static_cast<size_t>(conn) >= conns_.size()) conns_.resize(static_cast<size_t>(conn) + 1);
    Conn& c = conns_[static_cast<size_t>(conn)];
    if (!c.busy) {
      c.busy = true;
      return true;
    }
    if (static_cast<size_t>(slot) >= next_.size()) next_.resize(static_cast<size_t>(slot) + 1, -1);
    next_[static_cast<size_t>(slot)] = -1;
    if (c.tail < 0) c.head = slot;
    else next_[static_cast<size_t>(c.tail)] = slot;
    c.tail = slot;
    return false;
  }
  // The sender of `conn` has drained: the slot that sends next (now the sender), -1 when none waits.
  int32_t release(int32_t conn) {
    Conn& c = conns_[static_cast<size_t>(conn)];
    const int32_t next = c.head;
    if (next < 0) {
      c.busy = false;
      return -1;
    }
    c.head = next_[static_cast<size_t>(next)];
    if (c.head < 0) c.tail = -1;
    return next;
  }

 private:
  struct Conn {
    int32_t head = -1, tail = -1;  // waiting slots, oldest first (linked by next_)
    bool busy = false;             // a slot of it is sending
  };
  std::vector<Conn> conns_;   // by route pin
  std::vector<int32_t> next_; // by transfer slot: the slot queued after it on its connection
};

}  // namespace gf
