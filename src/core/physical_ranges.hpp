// The physical range of every numeric key a user writes, in one table: a value outside it parses
// but describes no machine (a 1e30 Gb/s link, a 1e9:1 oversubscription), and the arithmetic on it
// stops meaning anything. The readers (YAML fields, command-line flags) look a key up here by its
// last name ("bandwidth" for `link_technologies[2].bandwidth`); docs/limits.md prints the table.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gf {

enum class RangeUnit { BytesPerSecond, Picoseconds, Bytes, Ratio, Count };

struct PhysicalRange {
  std::string_view key;  // the key's last name, e.g. "memory_bw"
  RangeUnit unit;
  double min, max;        // inclusive, in `unit`
  std::string_view why;   // where the bounds come from
};

// Every range, in the order docs/limits.md lists them.
const std::vector<PhysicalRange>& physical_ranges();
// The range for `key` (its last dotted component is looked up), or nullptr when it has none.
const PhysicalRange* physical_range(std::string_view key);
// "" when `value` lies in the key's range (or the key has none); else the message for the error,
// with both bounds written in the key's unit ("must lie in 1Mbps..10TB/s (...)").
std::string range_violation(std::string_view key, double value);
// A bound written as a user would write it: "10TB/s", "1ms", "1T", "64".
std::string format_bound(RangeUnit unit, double value);

}  // namespace gf
