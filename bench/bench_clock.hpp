// What every benchmark here measures the same way: wall seconds since a point, and the process's
// peak resident memory.
#pragma once

#include <sys/resource.h>

#include <chrono>

namespace gfbench {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

inline double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // Linux reports KiB
}

}  // namespace gfbench
