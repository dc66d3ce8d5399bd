// The switch side of DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments",
// SIGCOMM 2015, section 3.1, the congestion point): RED-style ECN marking (Floyd and Jacobson,
// "Random Early Detection Gateways", 1993) on the instantaneous egress queue depth q, not RED's
// average, as DCQCN's switches do:
//
//   p(q) = 0                                   q <= Kmin
//        = Pmax x (q - Kmin) / (Kmax - Kmin)   Kmin < q <= Kmax
//        = 1                                   q > Kmax
//
// The draw is a pure function of (seed, key): the engine passes a key that names the packet and
// the port (e.g. its packet id mixed with the port id), so a run marks the same packets whatever
// order events of equal time are handled in.
#pragma once

#include <cstdint>

#include "core/units.hpp"
#include "model/packet/packet_params.hpp"

namespace gf {

class EcnMarker {
 public:
  EcnMarker(const EcnParams& params, uint64_t seed) : p_(params), seed_(seed) {}

  // The marking probability at queue depth `queued` (the bytes in the queue the packet joins).
  double probability(Bytes queued) const;
  // Whether the packet named by `key` is marked at depth `queued`.
  bool mark(Bytes queued, uint64_t key) const;
  // The uniform draw in [0, 1) that `mark` compares against the probability.
  double draw(uint64_t key) const;

 private:
  EcnParams p_;
  uint64_t seed_;
};

}  // namespace gf
