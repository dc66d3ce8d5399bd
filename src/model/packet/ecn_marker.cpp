// RED-style ECN marking for DCQCN's congestion point (see ecn_marker.hpp for the formula).
#include "model/packet/ecn_marker.hpp"

#include "core/hash.hpp"

namespace gf {

double EcnMarker::probability(Bytes queued) const {
  if (queued <= p_.kmin) return 0.0;
  if (queued > p_.kmax) return 1.0;
  // Kmin < q <= Kmax, so Kmax > Kmin here and the division is safe.
  const double span = static_cast<double>(p_.kmax.count() - p_.kmin.count());
  return p_.pmax * static_cast<double>(queued.count() - p_.kmin.count()) / span;
}

double EcnMarker::draw(uint64_t key) const {
  // The top 53 bits of the hash as a double in [0, 1): every value is exactly representable.
  return static_cast<double>(mix_hash(seed_, key) >> 11) * 0x1.0p-53;
}

bool EcnMarker::mark(Bytes queued, uint64_t key) const {
  const double p = probability(queued);
  if (p <= 0.0) return false;
  if (p >= 1.0) return true;
  return draw(key) < p;
}

}  // namespace gf
