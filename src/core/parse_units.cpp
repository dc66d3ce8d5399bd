#include "core/parse_units.hpp"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <string>

#include "core/error.hpp"

namespace gf {
namespace {

std::string trim(std::string_view s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}

// Splits "12.5 GB/s" into 12.5 and "GB/s". Throws when there is no leading number.
std::pair<double, std::string> split_number(std::string_view text, const char* expected) {
  std::string s = trim(text);
  const char* begin = s.c_str();
  char* end = nullptr;
  double v = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(v)) {
    throw UnitError("'" + s + "' is not a number with a unit; expected " + expected);
  }
  return {v, trim(std::string_view(end))};
}

// What a unit string may denote at all, whatever the key (ranges per key: core/physical_ranges).
// Chosen so that no product of them leaves int64 picoseconds or bytes: the largest size over the
// slowest rate, 2^50 B / 125,000 B/s = 9.0e9 s, would not fit, but sizes of collectives are capped
// at 1 TiB (8.8e6 s = 8.8e18 ps < 9.22e18), and Time saturates beyond (core/units.hpp).
constexpr double kMinBytesPerS = 1e6 / 8;      // 1 Mb/s: below any link a GPU cluster uses
constexpr double kMaxBytesPerS = 1e18;         // 1 EB/s: past the widest key range (physical_ranges)
constexpr double kMaxPs = 1e18;                // 1e6 s, 11.6 days: a simulated run, not a datacenter's life
constexpr double kMaxBytes = 1125899906842624;  // 2^50 B = 1 PiB: exact in a double, far inside int64

}  // namespace

Bandwidth parse_bandwidth(std::string_view text) {
  static const char* kExpected = "a bandwidth like 400Gbps, 400 Gb/s, 50GB/s or 900GB/s bidirectional";
  auto [v, unit] = split_number(text, kExpected);
  bool bidirectional = false;
  for (const char* word : {"bidirectional", "bidir", "bi-directional"}) {
    size_t pos = unit.find(word);
    if (pos != std::string::npos) {
      bidirectional = true;
      unit = trim(std::string_view(unit).substr(0, pos));
      break;
    }
  }
  // Bits per second: the letter 'b' in lower case; bytes per second: 'B'.
  struct Suffix { const char* text; double bytes_per_unit; };
  static const Suffix kSuffixes[] = {
      {"bps", 1.0 / 8}, {"b/s", 1.0 / 8}, {"Kbps", 1e3 / 8}, {"Kb/s", 1e3 / 8}, {"kbps", 1e3 / 8},
      {"Mbps", 1e6 / 8}, {"Mb/s", 1e6 / 8}, {"Gbps", 1e9 / 8}, {"Gb/s", 1e9 / 8},
      {"Tbps", 1e12 / 8}, {"Tb/s", 1e12 / 8}, {"B/s", 1.0}, {"Bps", 1.0}, {"KB/s", 1e3}, {"kB/s", 1e3},
      {"MB/s", 1e6}, {"MBps", 1e6}, {"GB/s", 1e9}, {"GBps", 1e9}, {"TB/s", 1e12}, {"TBps", 1e12},
      {"GiB/s", 1073741824.0}, {"MiB/s", 1048576.0}};
  for (const auto& s : kSuffixes) {
    if (unit == s.text) {
      if (v <= 0) throw UnitError("bandwidth must be greater than zero, got '" + trim(text) + "'");
      double bytes = v * s.bytes_per_unit;
      if (bidirectional) bytes /= 2;
      if (bytes < kMinBytesPerS || bytes > kMaxBytesPerS)
        throw UnitError("bandwidth '" + trim(text) + "' is outside 1Mbps..1EB/s, the range gpufabric models");
      return Bandwidth::bytes_per_s(bytes);
    }
  }
  std::string hint = unit.empty() ? "no unit given" : "unknown unit '" + unit + "'";
  if (unit == "G" || unit == "g") hint += " ('G' alone is ambiguous: write Gbps for bits or GB/s for bytes)";
  throw UnitError(hint + "; expected " + kExpected);
}

Time parse_time(std::string_view text) {
  static const char* kExpected = "a time like 1.5us, 100ns, 2ms, 1s or 500ps";
  auto [v, unit] = split_number(text, kExpected);
  double ps_per_unit = 0;
  if (unit == "ps") ps_per_unit = 1;
  else if (unit == "ns") ps_per_unit = 1e3;
  else if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") ps_per_unit = 1e6;
  else if (unit == "ms") ps_per_unit = 1e9;
  else if (unit == "s") ps_per_unit = 1e12;
  else throw UnitError((unit.empty() ? std::string("no unit given") : "unknown unit '" + unit + "'") +
                       "; expected " + kExpected);
  if (v < 0) throw UnitError("time must not be negative, got '" + trim(text) + "'");
  if (v * ps_per_unit > kMaxPs)
    throw UnitError("time '" + trim(text) + "' is past 1000000s (11.6 days), the longest gpufabric accepts");
  return Time::ps_rounded(v * ps_per_unit);
}

Bytes parse_size(std::string_view text) {
  static const char* kExpected = "a size like 8, 1K, 128M, 8G or 64KiB";
  auto [v, unit] = split_number(text, kExpected);
  double mult = 0;
  if (unit.empty() || unit == "B") mult = 1;
  else if (unit == "K" || unit == "k" || unit == "KB" || unit == "KiB") mult = 1024.0;
  // One letter in either case, as nccl-tests' parsesize reads -b/-e/-i (src/common.cu: 1g = 1G).
  else if (unit == "M" || unit == "m" || unit == "MB" || unit == "MiB") mult = 1024.0 * 1024;
  else if (unit == "G" || unit == "g" || unit == "GB" || unit == "GiB") mult = 1024.0 * 1024 * 1024;
  else if (unit == "T" || unit == "t" || unit == "TB" || unit == "TiB") mult = 1024.0 * 1024 * 1024 * 1024;
  else throw UnitError("unknown size unit '" + unit + "'; expected " + kExpected);
  if (v < 0) throw UnitError("size must not be negative, got '" + trim(text) + "'");
  double bytes = v * mult;
  if (bytes > kMaxBytes) throw UnitError("size '" + trim(text) + "' is past 1024T (2^50 bytes), the largest gpufabric accepts");
  if (bytes != std::floor(bytes)) throw UnitError("size '" + trim(text) + "' is not a whole number of bytes");
  return Bytes(static_cast<int64_t>(bytes));
}

}  // namespace gf
