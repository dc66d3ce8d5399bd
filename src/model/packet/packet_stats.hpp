// What the packet model counts, for reports and tests: totals over the run so far, and per port
// (one per directed link, PacketModel::port_stats).
#pragma once

#include <cstddef>
#include <cstdint>

namespace gf {

struct PacketTotals {
  int64_t packets_sent = 0;       // packets injected by senders (retransmissions included)
  int64_t packets_delivered = 0;
  int64_t packet_hops = 0;        // packets serialized onto a link (one per link crossed)
  int64_t events = 0;             // events processed (serialization ends, arrivals, wake-ups, ...)
  int64_t drops = 0;
  int64_t retransmits = 0;        // packets TCP sent again (fast retransmit, recovery, timeout)
  int64_t timeouts = 0;           // TCP retransmission timeouts that fired
  int64_t duplicates = 0;         // packets delivered again (a spurious retransmission's copy)
  int64_t pauses = 0;             // pause frames received by sending ports
  int64_t ecn_marks = 0;
  int64_t transfers_completed = 0;
  size_t peak_packets = 0;        // most packets alive at once (the pool's size)
};

}  // namespace gf
