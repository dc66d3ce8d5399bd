// Per-packet path choice inside the fabric: at a network switch, the equal-cost next hops toward
// the packet's destination NIC (the out-links one hop closer to it, from FabricDistances), and the
// load-balancing rule that picks one:
//  - Ecmp: hash(flow, switch) mod count, the same port for every packet of a flow (RFC 2992,
//    hash-threshold ECMP; the Router's per-flow hash does the same per hop);
//  - Spray: hash(flow, switch, packet number) mod count, a fresh draw per packet. Not round robin:
//    senders that start together and send at the same rate would step through the ports in
//    lockstep, and two whose rotations start on the same port would collide on every packet;
//  - Flowlet: hash(flow, flowlet number, switch): a flow moves to a new (hashed) path only after a
//    gap of `flowlet_gap` between its packets (Kandula et al., "Dynamic load balancing without
//    packet reordering", CCR 2007; LetFlow, NSDI 2017 picks a flowlet's port at random as here;
//    CONGA, SIGCOMM 2014 picks the least congested);
//  - Adaptive: the candidate whose egress queue holds the fewest bytes, ties broken by rotating
//    from the ECMP hash (InfiniBand adaptive routing and Spectrum-X: each switch looks at its own
//    egress queues only, per packet).
// Candidate lists are computed once per (switch, destination NIC) and kept in one flat array.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "model/packet/packet_params.hpp"
#include "routing/fabric_distances.hpp"
#include "topology/cluster.hpp"

namespace gf {

class NextHops {
 public:
  explicit NextHops(const Cluster& c) : c_(c), distances_(c) {}
  // The out-links of switch `at` that lie on a shortest fabric route to NIC `dst_nic` (in the
  // Cluster's link order); empty when none is known (the caller then keeps the leg's own path).
  std::span<const LinkId> candidates(NodeId at, NodeId dst_nic);

 private:
  struct Range {
    uint32_t begin = 0, count = 0;
  };
  const Cluster& c_;
  FabricDistances distances_;
  std::unordered_map<uint64_t, Range> ranges_;
  std::vector<LinkId> links_;
};

}  // namespace gf
