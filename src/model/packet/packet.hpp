// The packet model's unit: a small POD living in a reusable pool, so a run allocates packets only
// while the number in flight grows, never once per packet sent. Packets are named by their index
// in the pool; queues chain them through `next` (an intrusive FIFO), so a queue is two indices.
#pragma once

#include <cstdint>
#include <vector>

#include "topology/node.hpp"

namespace gf {

using PacketId = int32_t;
constexpr PacketId kNoPacket = -1;

struct Packet {
  int32_t flow = -1;       // the sending flow (PacketModel's flow slot): its leg, path and receiver
  uint32_t payload = 0;    // wire bytes of the transfer this packet carries (protocol-inflated)
  uint32_t size = 0;       // bytes on the wire: payload + header (serialization and buffers)
  uint32_t seq = 0;        // the flow's packet number (spraying rotates over it)
  int16_t hop = 0;         // index in the leg's path of the link it is on or queued for
  LinkId link = -1;        // that link (differs from path[hop] where a switch chose another equal-cost port)
  uint8_t ecn = 0;         // congestion experienced (set by an egress hook, read at the receiver)
  uint8_t shared = 0;      // its buffer space at the current switch came from the shared pool
  uint8_t tc = 0;          // its traffic class (PFC priority / virtual lane): its queue, credits and pauses
  uint8_t episode = 0;     // its flow's go-back-N episode when sent (mod 256): a stale copy sends no NAK
  LinkId in_link = -1;     // the link it arrived on (its credits return when it leaves this node)
  PacketId next = kNoPacket;  // the next packet in the queue holding it
};

class PacketPool {
 public:
  PacketId take() {
    if (free_ != kNoPacket) {
      const PacketId p = free_;
      free_ = packets_[static_cast<size_t>(p)].next;
      packets_[static_cast<size_t>(p)] = Packet{};
      ++live_;
      return p;
    }
    packets_.emplace_back();
    ++live_;
    peak_ = packets_.size();
    return static_cast<PacketId>(packets_.size() - 1);
  }
  void give(PacketId p) {
    packets_[static_cast<size_t>(p)].next = free_;
    free_ = p;
    --live_;
  }
  Packet& operator[](PacketId p) { return packets_[static_cast<size_t>(p)]; }
  const Packet& operator[](PacketId p) const { return packets_[static_cast<size_t>(p)]; }
  size_t live() const { return live_; }
  size_t peak() const { return peak_; }  // most packets ever alive at once (pool size)

 private:
  std::vector<Packet> packets_;
  PacketId free_ = kNoPacket;
  size_t live_ = 0, peak_ = 0;
};

}  // namespace gf
