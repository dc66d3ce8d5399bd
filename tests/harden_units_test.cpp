// Numbers past what int64 picoseconds and bytes hold, and values that parse but describe no
// machine: each is refused where it is read, naming the key, and any computed time that would
// leave the int64 range saturates to "infinity" instead of wrapping negative.
#include <gtest/gtest.h>

#include <limits>

#include "config/cluster_yaml.hpp"
#include "core/error.hpp"
#include "core/parse_units.hpp"
#include "core/physical_ranges.hpp"
#include "workload/scenario_yaml.hpp"
#include "workload/sweep.hpp"

using namespace gf;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

TEST(HardenUnits, SizesPastTwoToTheFiftyAreRefused) {
  // 2^63 B and more once wrapped to -9,223,372,036,854,775,808 B.
  for (const char* s : {"99999999999999999999", "1e19", "8589934592G", "1025T"}) EXPECT_THROW(parse_size(s), UnitError) << s;
  EXPECT_EQ(parse_size("1024T").count(), int64_t{1} << 50);  // 2^10 x 2^40: the largest accepted
}

TEST(HardenUnits, TimesAndBandwidthsOutsideTheModelledRange) {
  EXPECT_THROW(parse_time("1e30s"), UnitError);      // once a negative time
  EXPECT_THROW(parse_time("1000001s"), UnitError);   // just past 1e6 s
  EXPECT_EQ(parse_time("1000000s").picoseconds(), int64_t{1000000} * 1000000000000);
  EXPECT_THROW(parse_bandwidth("1bps"), UnitError);
  EXPECT_THROW(parse_bandwidth("1e-30Gbps"), UnitError);
  EXPECT_THROW(parse_bandwidth("1e30Gbps"), UnitError);
  EXPECT_DOUBLE_EQ(parse_bandwidth("1Mbps").bytes_per_second(), 125000.0);  // 1e6 bits / 8
}

TEST(HardenUnits, TimeArithmeticSaturates) {
  const Time big = Time::ps(kMax - 10);
  EXPECT_TRUE((big + Time::ps(11)).is_infinite());
  EXPECT_TRUE((big * 2).is_infinite());
  EXPECT_TRUE((Time::infinity() + Time::ps(1)).is_infinite());
  Time t = big;
  t += big;
  EXPECT_TRUE(t.is_infinite());
  EXPECT_EQ((Time::ps(5) + Time::ps(7)).picoseconds(), 12);  // in range: exact as before
  // 1 TiB at 1 b/s: 2^40 x 8 s = 8.8e12 s = 8.8e24 ps, past int64: infinity, not a wrapped number.
  EXPECT_TRUE(transfer_time(Bytes(int64_t{1} << 40), Bandwidth::bytes_per_s(1.0 / 8)).is_infinite());
  EXPECT_TRUE(Time::s(1e30).is_infinite());
  // 1 MiB at 1 GB/s: 1,048,576 / 1e9 s = 1,048,576,000 ps exactly.
  EXPECT_EQ(transfer_time(Bytes::mib(1), Bandwidth::gBps(1)).picoseconds(), 1048576000);
}

InputError cluster_error(const std::string& text) {
  try {
    parse_cluster_yaml(text, "c.yaml");
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an InputError for:\n" << text;
  return InputError({}, "", "");
}

TEST(HardenUnits, PhysicalRangesNameTheKey) {
  InputError link = cluster_error(
      "name: x\nlink_technologies:\n  - {name: warp, family: roce, bandwidth: 10EB/s}\nserver: dgx-h100\n");
  EXPECT_EQ(link.key(), "link_technologies[0].bandwidth");
  InputError fast = cluster_error(
      "name: x\nlink_technologies:\n  - {name: warp, family: roce, bandwidth: 200000TB/s}\nserver: dgx-h100\n");
  EXPECT_EQ(fast.key(), "link_technologies[0].bandwidth");
  EXPECT_NE(fast.message().find("outside 1Mbps..100PB/s"), std::string::npos) << fast.what();
  InputError over = cluster_error("name: x\nserver: dgx-h100\nservers: 4\nfabric: {kind: leaf_spine, oversubscription: 1e9}\n");
  EXPECT_EQ(over.key(), "fabric.oversubscription");
  EXPECT_EQ(over.where().line, 4);
  InputError lat = cluster_error(
      "name: x\nlink_technologies:\n  - {name: slow, family: roce, bandwidth: 400Gbps, latency: 1e30s}\nserver: dgx-h100\n");
  EXPECT_EQ(lat.key(), "link_technologies[0].latency");
  InputError nvlink_nic = cluster_error("name: x\nserver: {base: dgx-h100, nic_tech: nvlink4}\n");
  EXPECT_NE(nvlink_nic.message().find("not a network port technology"), std::string::npos) << nvlink_nic.what();
  // Bounds print as a user writes them, not as 1.000000.
  InputError low = cluster_error("name: x\nserver: dgx-h100\nfabric: {kind: leaf_spine, oversubscription: 0.5}\n");
  EXPECT_NE(low.message().find("at least 1, got 0.5"), std::string::npos) << low.what();
}

TEST(HardenUnits, ScenarioTimesAndSizes) {
  auto error_of = [](const std::string& text) {
    try {
      parse_scenario_yaml(text, "s.yaml", ".");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string head = "cluster: dgx-h100-2node\njobs:\n  - name: a\n    servers: 0\n";
  EXPECT_NE(error_of(head + "    start: 1e30s\n    calls: [{collective: all_reduce, size: 1M}]\n").find("'jobs[0].start'"),
            std::string::npos);
  EXPECT_NE(error_of(head + "    calls: [{collective: all_reduce, size: 1M, gap: 1e30s}]\n").find("'jobs[0].calls[0].gap'"),
            std::string::npos);
  EXPECT_NE(error_of(head + "    calls: [{collective: all_reduce, size: 1e19}]\n").find("'jobs[0].calls[0].size'"),
            std::string::npos);
  EXPECT_NE(error_of(head + "    calls: [{collective: all_reduce, size: 2T}]\n").find("'jobs[0].calls[0].size'"),
            std::string::npos);
}

TEST(HardenUnits, SweepRowsAreCountedAndCapped) {
  SweepOptions o;
  o.min_bytes = Bytes(4);
  o.max_bytes = Bytes::gib(1);
  o.step_bytes = 4;
  // (2^30 - 4) / 4 + 1 = 2^28 = 268,435,456 rows: counted, not listed.
  EXPECT_EQ(sweep_row_count(o), int64_t{1} << 28);
  EXPECT_THROW(sweep_sizes(o), InputError);
  o.step_bytes = 0;
  o.factor = 2;
  // 4, 8, ..., 2^30: 29 rows.
  EXPECT_EQ(sweep_row_count(o), 29);
  EXPECT_EQ(sweep_sizes(o).size(), 29u);
}

TEST(HardenUnits, ServersAndCatalogsAreBounded) {
  // 129 GPUs on one PCIe switch: one past kMaxGpusPerServer (128), whose tables grow as the square.
  std::string big = "name: x\nserver:\n  nodes:\n    - {name: sw, kind: pcie_switch}\n    - {name: nic0, kind: nic, rail: 0, tech: ib-ndr}\n";
  std::string links = "  links:\n    - {a: sw, b: nic0, tech: pcie-gen5-x16}\n";
  for (int g = 0; g < 129; ++g) {
    big += "    - {name: gpu" + std::to_string(g) + ", kind: gpu}\n";
    links += "    - {a: gpu" + std::to_string(g) + ", b: sw, tech: pcie-gen5-x16}\n";
  }
  InputError e = cluster_error(big + links);
  EXPECT_EQ(e.key(), "server");
  EXPECT_NE(e.message().find("has 129 GPUs"), std::string::npos) << e.what();
  // 1,001 added technologies: one past the cap on a list searched linearly per name.
  std::string techs = "name: x\nlink_technologies:\n";
  for (int i = 0; i < 1001; ++i) techs += "  - {name: t" + std::to_string(i) + ", family: roce, bandwidth: 400Gbps}\n";
  InputError t = cluster_error(techs + "server: dgx-h100\n");
  EXPECT_EQ(t.key(), "link_technologies");
  EXPECT_NE(t.message().find("1001 technologies"), std::string::npos) << t.what();
}

TEST(HardenUnits, RangeTableIsConsistent) {
  for (const auto& r : physical_ranges()) {
    EXPECT_LE(r.min, r.max) << r.key;
    EXPECT_EQ(range_violation(r.key, r.min), "") << r.key;
    EXPECT_EQ(range_violation(r.key, r.max), "") << r.key;
    EXPECT_NE(range_violation(std::string("a.") + std::string(r.key), r.max * 2 + 1), "") << r.key;
  }
  EXPECT_EQ(range_violation("not_a_key", 1e300), "");
}

}  // namespace
