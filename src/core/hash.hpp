// A deterministic 64-bit mixer (splitmix64 finalizer, Steele et al., OOPSLA 2014): the same
// inputs give the same hash on every platform and run, so ECMP choices are reproducible.
#pragma once

#include <cstdint>

namespace gf {

inline uint64_t mix_hash(uint64_t a, uint64_t b) {
  uint64_t z = a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace gf
