#include "core/units.hpp"

#include <fmt/format.h>

namespace gf {

std::string to_string(Time t) {
  if (t.is_infinite()) return "inf";
  double ps = static_cast<double>(t.picoseconds());
  if (ps < 1e3) return fmt::format("{} ps", t.picoseconds());
  if (ps < 1e6) return fmt::format("{:.3g} ns", ps / 1e3);
  if (ps < 1e9) return fmt::format("{:.3g} us", ps / 1e6);
  if (ps < 1e12) return fmt::format("{:.3g} ms", ps / 1e9);
  return fmt::format("{:.3g} s", ps / 1e12);
}

std::string to_string(Bytes b) {
  int64_t v = b.count();
  if (v >= (int64_t{1} << 30) && v % (int64_t{1} << 30) == 0) return fmt::format("{} GiB", v >> 30);
  if (v >= (int64_t{1} << 20) && v % (int64_t{1} << 20) == 0) return fmt::format("{} MiB", v >> 20);
  if (v >= 1024 && v % 1024 == 0) return fmt::format("{} KiB", v >> 10);
  return fmt::format("{} B", v);
}

std::string to_string_gbps(Bandwidth bw) { return fmt::format("{:.4g} Gb/s", bw.to_gbps()); }
std::string to_string_gBps(Bandwidth bw) { return fmt::format("{:.4g} GB/s", bw.to_gBps()); }

}  // namespace gf
