// Numbers as the reports write them: fixed decimals, microseconds, byte sizes in binary units
// (as nccl-tests writes sizes: 1G = 2^30). One place, so every page and table agrees.
#pragma once

#include <cstdio>
#include <string>

#include "core/units.hpp"

namespace gf {

inline std::string fixed_text(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

inline std::string us_text(Time t) { return fixed_text(t.to_s() * 1e6, 2); }

inline std::string binary_size_text(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) bytes /= 1024, ++u;
  return fixed_text(bytes, u == 0 ? 0 : 2) + " " + units[u];
}

}  // namespace gf
