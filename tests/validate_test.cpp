// The accuracy arithmetic of `gpufabric validate` on hand-made rows (every expected number derived
// in a comment), the manifest reader, and the consistency of validation/datasets.yaml with the
// measured files it names.
#include <cmath>
#include <filesystem>

#include <gtest/gtest.h>

#include "config/cluster_yaml.hpp"
#include "core/error.hpp"
#include "shared_data.hpp"
#include "accuracy/validate.hpp"

namespace {

using gf::ComparedRow;

ComparedRow row(int64_t size, double error_pct) {
  ComparedRow r;
  r.size = size;
  r.error_pct = error_pct;
  r.measured_us = 10;
  r.predicted_us = 10;
  return r;
}

constexpr int64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

TEST(ValidateArithmetic, MedianOfOddAndEvenCounts) {
  EXPECT_FALSE(gf::median({}).has_value());
  EXPECT_DOUBLE_EQ(*gf::median({3, 1, 2}), 2);        // sorted 1 2 3: the middle one
  EXPECT_DOUBLE_EQ(*gf::median({4, 1, 3, 2}), 2.5);   // sorted 1 2 3 4: (2 + 3) / 2
}

TEST(ValidateArithmetic, MeasuredBusbwComesFromSizeAndTime) {
  gf::MeasuredRow m;
  m.size = GiB;
  m.out_of_place = {4000, 268.44, 469.76};
  // all_reduce on 8 ranks: factor 2(8-1)/8 = 1.75; algbw = 1073741824 B / 4000 us = 268.435456 GB/s;
  // busbw = 268.435456 x 1.75 = 469.762048 GB/s (the printed 469.76 without its rounding).
  EXPECT_NEAR(gf::measured_busbw(m, gf::CollectiveKind::AllReduce, 8), 469.762048, 1e-9);
  // all_gather on 16 ranks: factor 15/16 -> 268.435456 x 0.9375 = 251.65824 GB/s.
  EXPECT_NEAR(gf::measured_busbw(m, gf::CollectiveKind::AllGather, 16), 251.65824, 1e-9);
  // A prose figure has no time: the printed busbw is used as is.
  gf::MeasuredRow prose;
  prose.out_of_place.busbw_gBps = 367.5;
  EXPECT_DOUBLE_EQ(gf::measured_busbw(prose, gf::CollectiveKind::AllReduce, 8), 367.5);
}

TEST(ValidateArithmetic, ErrorIsPredictedOverMeasuredBusbw) {
  gf::MeasuredRow m;
  m.size = GiB;
  m.line = 7;
  m.out_of_place = {4000, 268.44, 469.76};
  gf::SweepRow p;
  p.size = gf::Bytes(GiB);
  // Measured busbw 469.762048 GB/s (above); a prediction 10% lower: 469.762048 x 0.9 = 422.7858432,
  // which at the same factor is a time of 4000 / 0.9 = 4444.44 us.
  p.busbw_gBps = 422.7858432;
  p.time = gf::Time::us(4000.0 / 0.9);
  p.choice.algorithm = "ring";
  p.choice.proto = gf::Protocol::Simple;
  p.choice.channels = 16;
  ComparedRow r = gf::compare_row(m, gf::CollectiveKind::AllReduce, 8, p);
  EXPECT_TRUE(r.compared());
  EXPECT_NEAR(r.error_pct, -10.0, 1e-9);
  EXPECT_NEAR(r.measured_busbw, 469.762048, 1e-9);
  EXPECT_NEAR(r.predicted_us, 4444.444444, 1e-5);
  EXPECT_EQ(r.line, 7);
  EXPECT_EQ(r.algorithm, "ring");
  EXPECT_EQ(r.protocol, "Simple");
  EXPECT_EQ(r.channels, 16);
}

TEST(ValidateArithmetic, StatisticsCountComparedRowsFrom64KiB) {
  std::vector<ComparedRow> rows = {row(8, 50),          // below 64 KiB: not counted
                                   row(64 * KiB, -20),  // |20|
                                   row(MiB, 10),        // |10|
                                   row(GiB, -5),        // |5|
                                   row(2 * GiB, 12),    // |12|
                                   row(4 * GiB, 90),    // skipped below: not counted
                                   row(8 * GiB, 90)};   // failed below: not counted
  rows[5].skipped = "documented outlier";
  rows[6].failed = "no algorithm";
  gf::ErrorSummary s = gf::summarize_errors(rows);
  // Counted |error|: 20, 10, 5, 12 -> sorted 5 10 12 20: median (10 + 12) / 2 = 11, max 20 at 64 KiB.
  EXPECT_EQ(s.counted, 4);
  EXPECT_DOUBLE_EQ(*s.median_abs_pct, 11);
  EXPECT_DOUBLE_EQ(*s.max_abs_pct, 20);
  EXPECT_EQ(s.max_at_size, 64 * KiB);

  gf::ErrorSummary none = gf::summarize_errors({row(8, 1), row(32 * KiB, 2)});
  EXPECT_EQ(none.counted, 0);
  EXPECT_FALSE(none.median_abs_pct.has_value());
}

TEST(ValidateArithmetic, LatencyFloorIsTheSmallestComparedSize) {
  std::vector<ComparedRow> rows = {row(4, 0), row(8, 0), row(16, 0)};
  rows[0].skipped = "outlier";    // the 4 B row does not count, so the floor is at 8 B
  rows[1].measured_us = 20;
  rows[1].predicted_us = 25;      // 25 / 20 - 1 = +25%
  auto f = gf::latency_floor(rows);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->size, 8);
  EXPECT_DOUBLE_EQ(f->error_pct, 25.0);

  // A table starting at 8 KiB (above the 4 KiB limit) has no latency floor.
  EXPECT_FALSE(gf::latency_floor({row(8 * KiB, 0), row(MiB, 0)}).has_value());
}

TEST(ValidateArithmetic, TargetsAreInclusive) {
  gf::ValidationResult v;
  v.busbw.median_abs_pct = 15.0;  // at most 15% meets the target
  EXPECT_EQ(v.busbw_ok(), std::optional<bool>(true));
  v.busbw.median_abs_pct = 15.1;
  EXPECT_EQ(v.busbw_ok(), std::optional<bool>(false));
  v.floor = gf::LatencyFloor{8, 20, 15, -25.0};  // |-25%| is within 25%
  EXPECT_EQ(v.floor_ok(), std::optional<bool>(true));
  v.floor->error_pct = 25.5;
  EXPECT_EQ(v.floor_ok(), std::optional<bool>(false));
  gf::ValidationResult empty;
  EXPECT_FALSE(empty.busbw_ok().has_value());
  EXPECT_FALSE(empty.floor_ok().has_value());
}

const char* kManifest = R"(measured_dir: data
calibration:
  - {constant: net_efficiency, where: model.hpp, fitted_to: [b], note: fitted}
files:
  - file: t.txt
    cluster: c.yaml
    tables:
      - {name: a, title: Run A, collective: all_reduce, nodes: 1, gpus_per_node: 8,
         skip: [{size: 4K, reason: outlier}]}
      - {name: b, title: Run B, collective: allgather, nodes: 2, gpus_per_node: 8, algo: ring}
)";

TEST(ValidateManifest, ReadsTablesSkipsAndCalibration) {
  gf::ValidationManifest m = gf::parse_manifest(kManifest, "/x/validation/datasets.yaml");
  EXPECT_EQ(m.measured_dir, "/x/validation/data");
  ASSERT_EQ(m.datasets.size(), 2u);
  EXPECT_EQ(m.datasets[0].measured_path, "/x/validation/data/t.txt");
  EXPECT_EQ(m.datasets[0].cluster_path, "/x/validation/c.yaml");
  ASSERT_EQ(m.datasets[0].skip.size(), 1u);
  EXPECT_EQ(m.datasets[0].skip[0].size, 4096);
  EXPECT_EQ(m.datasets[1].collective, gf::CollectiveKind::AllGather);
  EXPECT_EQ(m.datasets[1].algo, "ring");
  EXPECT_TRUE(m.datasets[0].fitted.empty());  // held out
  EXPECT_EQ(m.datasets[1].fitted, std::vector<std::string>{"net_efficiency"});
  // --measured replaces the manifest's folder.
  EXPECT_EQ(gf::parse_manifest(kManifest, "/x/validation/datasets.yaml", "/m").datasets[0].measured_path, "/m/t.txt");
}

// A file entry's own `dir:` (a folder of the repository, relative to the manifest) wins over the
// manifest's measured_dir and over --measured, which name the shared folder.
TEST(ValidateManifest, AFileEntryMayKeepItsTableInTheRepository) {
  const std::string text = std::string(kManifest) +
                           "  - file: r.txt\n    cluster: c.yaml\n    dir: measured\n"
                           "    tables:\n      - {name: c, collective: all_reduce, nodes: 2, gpus_per_node: 1}\n";
  gf::ValidationManifest m = gf::parse_manifest(text, "/x/validation/datasets.yaml");
  ASSERT_EQ(m.datasets.size(), 3u);
  EXPECT_EQ(m.datasets[0].measured_path, "/x/validation/data/t.txt");
  EXPECT_EQ(m.datasets[2].measured_path, "/x/validation/measured/r.txt");
  EXPECT_EQ(gf::parse_manifest(text, "/x/validation/datasets.yaml", "/m").datasets[2].measured_path,
            "/x/validation/measured/r.txt");
}

std::string manifest_error(const std::string& text) {
  try {
    gf::parse_manifest(text, "datasets.yaml");
  } catch (const gf::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ValidateManifest, MistakesNameTheLine) {
  std::string typo = manifest_error("files:\n  - file: t.txt\n    cluster: c.yaml\n    tables:\n"
                                    "      - {name: a, colective: all_reduce}\n");
  EXPECT_NE(typo.find("datasets.yaml:5"), std::string::npos) << typo;
  EXPECT_NE(typo.find("collective"), std::string::npos) << typo;  // did you mean
  std::string twice = manifest_error("files:\n  - file: t.txt\n    cluster: c.yaml\n    tables:\n"
                                     "      - {name: a, collective: all_reduce}\n"
                                     "      - {name: a, collective: alltoall}\n");
  EXPECT_NE(twice.find("named twice"), std::string::npos) << twice;
  std::string unknown = manifest_error(
      "calibration:\n  - {constant: k, fitted_to: [nope]}\nfiles:\n  - file: t.txt\n    cluster: c.yaml\n"
      "    tables:\n      - {name: a, collective: all_reduce}\n");
  EXPECT_NE(unknown.find("no data set named 'nope'"), std::string::npos) << unknown;
}

// The repository's manifest agrees with the measured files: every table it names exists once with
// the layout it says, its cluster file loads with enough servers, and the printed busbw/algbw of
// the table's largest row is nccl-tests' factor for nodes x GPUs (this is what catches a table
// run on another rank count than its heading says, as the GB200 "2 nodes" table).
TEST(ValidateManifest, RepositoryManifestMatchesTheMeasuredFiles) {
  REQUIRE_SHARED_DATA();
  gf::ValidationManifest m = gf::load_manifest(std::string(GPUFABRIC_SOURCE_DIR) + "/validation/datasets.yaml",
                                               shared_dir() + "/validation/measured");
  EXPECT_GE(m.datasets.size(), 27u);
  for (const auto& d : m.datasets) {
    SCOPED_TRACE(d.name);
    gf::MeasuredFile f = gf::load_measured_file(d.measured_path);
    const gf::MeasuredTable& t = gf::find_table(f, d.title);
    EXPECT_EQ(t.layout, d.layout);
    gf::ClusterSpec spec = gf::load_cluster_file(d.cluster_path);
    EXPECT_GE(spec.servers, d.nodes);
    if (t.layout != gf::TableLayout::NcclTests) continue;
    const gf::MeasuredRow& big = t.rows.back();
    double ratio = big.out_of_place.busbw_gBps / big.out_of_place.algbw_gBps;
    EXPECT_NEAR(ratio / gf::busbw_factor(d.collective, d.nodes * d.gpus_per_node), 1.0, 0.01);
    for (const auto& s : d.skip) {
      bool found = false;
      for (const auto& r : t.rows) found |= r.size == s.size;
      EXPECT_TRUE(found) << "skip entry " << s.size << " matches no row";
    }
  }
}

const gf::DatasetSpec& dataset(const gf::ValidationManifest& m, const std::string& name) {
  for (const auto& d : m.datasets)
    if (d.name == name) return d;
  throw std::runtime_error("no data set " + name);
}

// End to end on one small set, checking the wiring rather than the model's accuracy: the B300
// single-node table has one row (8 GiB on 8 ranks), and its error is the ratio of the two busbws.
TEST(ValidateRun, PredictsEachRowOfATable) {
  REQUIRE_SHARED_DATA();
  gf::ValidationManifest m = gf::load_manifest(std::string(GPUFABRIC_SOURCE_DIR) + "/validation/datasets.yaml",
                                               shared_dir() + "/validation/measured");
  gf::ValidationResult v = gf::validate(dataset(m, "b300-1node-allreduce"));
  EXPECT_EQ(v.nranks, 8);
  EXPECT_TRUE(v.error.empty()) << v.error;
  ASSERT_EQ(v.rows.size(), 1u);
  const ComparedRow& r = v.rows[0];
  ASSERT_TRUE(r.compared()) << r.failed;
  EXPECT_EQ(r.size, 8 * GiB);
  // 8 GiB in 18006 us on 8 ranks: 8589934592 / 18006e3 x 1.75 = 834.85 GB/s (printed 834.84).
  EXPECT_NEAR(r.measured_busbw, 834.85, 0.01);
  EXPECT_NEAR(r.error_pct, (r.predicted_busbw / r.measured_busbw - 1) * 100, 1e-9);
  EXPECT_EQ(v.busbw.counted, 1);
  EXPECT_FALSE(v.floor.has_value());  // the table starts at 8 GiB
  EXPECT_TRUE(v.held_out());
}

// The GB200 table headed "2 nodes" was run on 64 ranks (busbw/algbw = 855.95/434.77 = 1.9688 =
// 2(n-1)/n with n = 64). Declared as 2 trays x 4 GPUs = 8 ranks (factor 1.75), validate warns.
TEST(ValidateRun, WarnsWhenTheRankCountDisagreesWithThePrintedBusbw) {
  REQUIRE_SHARED_DATA();
  gf::ValidationManifest m = gf::load_manifest(std::string(GPUFABRIC_SOURCE_DIR) + "/validation/datasets.yaml",
                                               shared_dir() + "/validation/measured");
  gf::DatasetSpec d = dataset(m, "gb200-16tray-1rack-allreduce");
  d.nodes = 2;  // (RepositoryManifestMatchesTheMeasuredFiles checks the real 16 x 4 agrees)
  gf::ValidationResult v = gf::validate(d);
  ASSERT_EQ(v.warnings.size(), 1u);
  EXPECT_NE(v.warnings[0].find("implies 64 ranks"), std::string::npos) << v.warnings[0];
}

}  // namespace
