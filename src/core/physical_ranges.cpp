#include "core/physical_ranges.hpp"

#include <fmt/format.h>

namespace gf {

const std::vector<PhysicalRange>& physical_ranges() {
  using U = RangeUnit;
  static const std::vector<PhysicalRange> k = {
      // Per lane and direction. The fastest single links of 2025: an NVLink 5 link 50 GB/s, a
      // 1.6T NIC port 200 GB/s, a whole NVLink 5 GPU 900 GB/s each way. The examples write a join
      // that should cost nothing (a host's GPU to its NICs) as 10 PB/s; 100 PB/s admits that and
      // still refuses a 1e30 Gb/s typo. 1 Mb/s is below any cluster's link.
      {"bandwidth", U::BytesPerSecond, 1e6 / 8, 1e17, "links of 2025 reach 1 TB/s; 10PB/s is the examples' cost-free join"},
      // HBM: B200 8 TB/s (NVIDIA B200 datasheet); a GPU with less than 1 GB/s has no memory to speak of.
      {"memory_bw", U::BytesPerSecond, 1e9, 1e14, "B200's HBM3e gives 8 TB/s"},
      // A link's one-way latency: cable and PHY, ~5 ns/m; 10 ms is 2,000 km of fibre.
      {"latency", U::Picoseconds, 0, 1e10, "10 ms is 2,000 km of fibre"},
      // A NIC transport's per-step cost: EFA's is 23 us (aws-ofi-nccl); a TCP stack's 10s of us; 1 ms is a stalled host.
      {"transport_latency", U::Picoseconds, 0, 1e9, "NIC transports cost 0-100 us a step"},
      // A switch's port-to-port latency: 100s of ns (Quantum-2 ~130 ns); 1 ms is a store-and-forward router's worst.
      {"switch_latency", U::Picoseconds, 0, 1e9, "switches forward in 100s of ns"},
      // Scenario times: up to the parser's 1e6 s (11.6 days), far inside int64 picoseconds (106 days).
      {"start", U::Picoseconds, 0, 1e18, "int64 picoseconds end at 106 days"},
      {"gap", U::Picoseconds, 0, 1e18, "int64 picoseconds end at 106 days"},
      // A per-rank buffer, as nccl-tests -b/-e: beyond any GPU's memory (B200: 192 GB) by 5x.
      {"size", U::Bytes, 0, 1099511627776.0, "a GPU holds at most 192 GB (B200)"},
      // Down:up ports of a leaf: a radix-R switch can be at most :1; the largest radix sold is 512.
      {"oversubscription", U::Ratio, 1, 511, "a radix-512 switch is at most 511:1"},
      {"spine_oversubscription", U::Ratio, 1, 511, "a radix-512 switch is at most 511:1"},
      {"bf16_tflops", U::Ratio, 0, 1e5, "B200 dense BF16 is 2,250 TFLOPS"},
      // Links of one technology bundled between two devices: NVLink tops out at 18 per GPU
      // (H100, B200); 64 leaves room for bundles of slower lanes (PCIe, Ethernet).
      {"lanes", U::Count, 1, 64, "a GPU has at most 18 NVLinks"},
      // Each repetition of a job is simulated, so the count is the run's cost.
      {"repeat", U::Count, 1, 1e6, "every repetition is simulated"},
  };
  return k;
}

const PhysicalRange* physical_range(std::string_view key) {
  const size_t dot = key.rfind('.');
  const std::string_view last = dot == std::string_view::npos ? key : key.substr(dot + 1);
  for (const auto& r : physical_ranges())
    if (r.key == last) return &r;
  return nullptr;
}

std::string format_bound(RangeUnit unit, double v) {
  switch (unit) {
    case RangeUnit::BytesPerSecond:
      if (v < 1e9) return fmt::format("{:g}Mbps", v * 8 / 1e6);
      if (v < 1e12) return fmt::format("{:g}GB/s", v / 1e9);
      if (v < 1e15) return fmt::format("{:g}TB/s", v / 1e12);
      return fmt::format("{:g}PB/s", v / 1e15);
    case RangeUnit::Picoseconds:
      if (v == 0) return "0s";
      if (v < 1e6) return fmt::format("{:g}ns", v / 1e3);
      if (v < 1e9) return fmt::format("{:g}us", v / 1e6);
      if (v < 1e12) return fmt::format("{:g}ms", v / 1e9);
      return fmt::format("{:g}s", v / 1e12);
    case RangeUnit::Bytes:
      if (v >= 1099511627776.0) return fmt::format("{:g}T", v / 1099511627776.0);
      if (v >= 1073741824.0) return fmt::format("{:g}G", v / 1073741824.0);
      return fmt::format("{:g}", v);
    case RangeUnit::Ratio:
    case RangeUnit::Count: return fmt::format("{:g}", v);
  }
  return fmt::format("{:g}", v);
}

std::string range_violation(std::string_view key, double value) {
  const PhysicalRange* r = physical_range(key);
  if (!r || (value >= r->min && value <= r->max)) return "";
  return fmt::format("{} is outside {}..{}, the range gpufabric accepts ({})", format_bound(r->unit, value),
                     format_bound(r->unit, r->min), format_bound(r->unit, r->max), r->why);
}

}  // namespace gf
