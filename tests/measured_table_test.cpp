// The nccl-tests table reader: every measured file in ../shared/validation/measured parses into the
// tables and rows its header describes, launcher prefixes are stripped, and a garbled row is an
// error naming file:line.
#include <filesystem>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "shared_data.hpp"
#include "accuracy/measured_table.hpp"

namespace {

using gf::MeasuredFile;
using gf::parse_measured_text;

std::string measured(const std::string& name) { return shared_dir() + "/validation/measured/" + name; }

std::vector<size_t> row_counts(const MeasuredFile& f) {
  std::vector<size_t> out;
  for (const auto& t : f.tables) out.push_back(t.rows.size());
  return out;
}

// Expected tables and rows per file, counted from each file's header and sizes:
//  - nccl-tests with -f 2 visits every power of two from -b to -e, so a sweep 2^a..2^b has b-a+1
//    rows: 8 B..16 GiB = 2^3..2^34 -> 32; 64 B..8 GiB = 2^6..2^33 -> 28; 8 B..128 MiB = 2^3..2^27 -> 25;
//    8 MiB..8 GiB = 2^23..2^33 -> 11.
//  - the large-size-only OCI files keep the 8 GiB and 16 GiB rows (4 and 8 GiB for GB200), one or two
//    per table, as listed under each "---- title ----".
//  - the AWS file's second, partial run is commented out ('#'), so it is not a table.
TEST(MeasuredTable, EveryMeasuredFileParsesIntoItsTables) {
  REQUIRE_SHARED_DATA();
  const std::map<std::string, std::vector<size_t>> expected = {
      {"dgx-h100-8gpu-nvswitch-1node-allreduce-full-sweep.txt", {32}},
      {"oci-bm-gpu4-8-a100-1node-and-2node-roce-allreduce-full-sweep.txt", {28, 28}},  // Run A, Run B
      {"pcie-8x-rtx4090-no-nvlink-allreduce-p2p-off-vs-on.txt", {25, 25}},            // P2P off, on
      {"aws-p5-h100-2node-16gpu-efa3200g-allreduce.txt", {32}},
      {"gcp-a3mega-h100-2node-16gpu-tcpxo-allgather.txt", {11}},
      // 2..8 GPUs for RING, then the same for NVLS: 7 + 7 rows in one summary table.
      {"h100-8gpu-nvls-vs-ring-scaling-summary.txt", {14}},
      // all_reduce 1 node (8 GiB), 2 nodes (8, 16 GiB); alltoall 1 node, 2 nodes (8 GiB each).
      {"oci-b300-8gpu-allreduce-alltoall-1-and-2nodes.txt", {1, 2, 1, 1}},
      // 4 all_reduce tables (1, "2", 32, 48 nodes) and 5 alltoall (1, 2, 16, 32, 48), 2 rows each.
      {"oci-gb200-nvl72-4gpu-nodes-allreduce-alltoall-1-to-48nodes.txt", {2, 2, 2, 2, 2, 2, 2, 2, 2}},
      // all_reduce and alltoall on 1, 2 and 4 nodes, 8 and 16 GiB each.
      {"oci-mi355x-8gpu-rccl-allreduce-alltoall-1-2-4nodes.txt", {2, 2, 2, 2, 2, 2}},
  };
  size_t seen = 0;
  for (const auto& e : std::filesystem::directory_iterator(shared_dir() + "/validation/measured")) {
    std::string name = e.path().filename().string();
    SCOPED_TRACE(name);
    auto it = expected.find(name);
    ASSERT_NE(it, expected.end()) << "a new measured file: add its table and row counts here";
    MeasuredFile f = gf::load_measured_file(e.path().string());
    EXPECT_EQ(row_counts(f), it->second);
    ++seen;
  }
  EXPECT_EQ(seen, expected.size());
}

// The tables kept in this repository (validation/measured/, issue 19's public runs per transport),
// counted as above: 8 B..8 GiB = 2^3..2^33 -> 31; 8 MiB..8 GiB -> 11; 8 B..1 GiB = 2^3..2^30 -> 28;
// 4 B..1 GiB = 2^2..2^30 -> 29 in each of the g4dn file's two runs (their 0-byte rows commented out);
// 1..4 GiB -> 3 for the OCI OKE run.
TEST(MeasuredTable, EveryRepositoryMeasuredFileParsesIntoItsTables) {
  const std::map<std::string, std::vector<size_t>> expected = {
      {"gcp-a3mega-h100-2node-16gpu-tcpxo-allreduce-8b-8g.txt", {31}},
      {"gcp-a3high-h100-2node-16gpu-tcpx-allgather.txt", {11}},
      {"aws-p4d-a100-2node-16gpu-efa400g-allreduce.txt", {28}},
      {"aws-g4dn-t4-2node-2gpu-socket-vs-efa-allreduce.txt", {29, 29}},  // Run A socket, Run B EFA
      {"oci-bm-gpu4-8-a100-2node-roce-allreduce-1g-4g-oke.txt", {3}},  // 1, 2, 4 GiB
  };
  size_t seen = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(GPUFABRIC_SOURCE_DIR) + "/validation/measured")) {
    std::string name = e.path().filename().string();
    if (name == "README.md") continue;
    SCOPED_TRACE(name);
    auto it = expected.find(name);
    ASSERT_NE(it, expected.end()) << "a new measured file: add its table and row counts here";
    EXPECT_EQ(row_counts(gf::load_measured_file(e.path().string())), it->second);
    ++seen;
  }
  EXPECT_EQ(seen, expected.size());
}

TEST(MeasuredTable, ReadsSizesTimesAndBandwidthsOfARow) {
  REQUIRE_SHARED_DATA();
  MeasuredFile f = gf::load_measured_file(measured("dgx-h100-8gpu-nvswitch-1node-allreduce-full-sweep.txt"));
  ASSERT_EQ(f.tables.size(), 1u);
  const gf::MeasuredTable& t = f.tables[0];
  EXPECT_EQ(t.title, "");  // one table, no "----" separator
  // Line 16 is the first data row, after 13 header comments and the two column-header lines.
  const gf::MeasuredRow& first = t.rows.front();
  EXPECT_EQ(first.line, 16);
  EXPECT_EQ(first.size, 8);
  EXPECT_EQ(first.count, 2);
  EXPECT_EQ(first.type, "float");
  EXPECT_EQ(first.redop, "sum");
  EXPECT_DOUBLE_EQ(first.out_of_place.time_us, 13.67);
  ASSERT_TRUE(first.in_place.has_value());
  EXPECT_DOUBLE_EQ(first.in_place->time_us, 13.03);
  const gf::MeasuredRow& last = t.rows.back();  // 16 GiB = 17179869184 B
  EXPECT_EQ(last.size, int64_t{16} << 30);
  EXPECT_DOUBLE_EQ(last.out_of_place.time_us, 62648);
  EXPECT_DOUBLE_EQ(last.out_of_place.algbw_gBps, 274.23);
  EXPECT_DOUBLE_EQ(last.out_of_place.busbw_gBps, 479.90);
}

TEST(MeasuredTable, TablesTakeTheTitleOfTheSeparatorBeforeThem) {
  REQUIRE_SHARED_DATA();
  MeasuredFile a100 = gf::load_measured_file(measured("oci-bm-gpu4-8-a100-1node-and-2node-roce-allreduce-full-sweep.txt"));
  ASSERT_EQ(a100.tables.size(), 2u);
  EXPECT_EQ(a100.tables[0].title, "Run A: 1 node, 8x A100");
  EXPECT_EQ(a100.tables[1].title, "Run B: 2 nodes x 8x A100 = 16 ranks, RoCE");
  EXPECT_EQ(a100.tables[1].rows.front().line, 54);  // "# ---- Run B" is line 50, then 3 header lines
  EXPECT_EQ(&gf::find_table(a100, "run b"), &a100.tables[1]);

  MeasuredFile b300 = gf::load_measured_file(measured("oci-b300-8gpu-allreduce-alltoall-1-and-2nodes.txt"));
  const gf::MeasuredTable& a2a = gf::find_table(b300, "All-to-All - 2 Nodes");
  ASSERT_EQ(a2a.rows.size(), 1u);
  EXPECT_EQ(a2a.rows[0].line, 41);
  EXPECT_EQ(a2a.rows[0].redop, "none");
  EXPECT_DOUBLE_EQ(a2a.rows[0].out_of_place.busbw_gBps, 180.98);  // its in-place #wrong is "N/A"
}

TEST(MeasuredTable, FindTableRejectsAmbiguousAndMissingTitles) {
  REQUIRE_SHARED_DATA();
  MeasuredFile f = gf::load_measured_file(measured("oci-b300-8gpu-allreduce-alltoall-1-and-2nodes.txt"));
  EXPECT_THROW(gf::find_table(f, "Single Node"), gf::InputError);  // all_reduce and alltoall
  EXPECT_THROW(gf::find_table(f, "4 Nodes"), gf::InputError);
}

TEST(MeasuredTable, ReadsTheProseScalingSummary) {
  REQUIRE_SHARED_DATA();
  MeasuredFile f = gf::load_measured_file(measured("h100-8gpu-nvls-vs-ring-scaling-summary.txt"));
  ASSERT_EQ(f.tables.size(), 1u);
  const gf::MeasuredTable& t = f.tables[0];
  EXPECT_EQ(t.layout, gf::TableLayout::ScalingSummary);
  // Line 11: "2 RING 365-370 -": the range counts as its midpoint (365 + 370) / 2 = 367.5.
  EXPECT_EQ(t.rows[0].line, 11);
  EXPECT_EQ(t.rows[0].gpus, 2);
  EXPECT_EQ(t.rows[0].algo, "ring");
  EXPECT_DOUBLE_EQ(t.rows[0].out_of_place.busbw_gBps, 367.5);
  // Line 24: "8 NVLS ~480 ~273": "~480" reads as 480.
  EXPECT_EQ(t.rows.back().line, 24);
  EXPECT_EQ(t.rows.back().gpus, 8);
  EXPECT_EQ(t.rows.back().algo, "nvls");
  EXPECT_DOUBLE_EQ(t.rows.back().out_of_place.busbw_gBps, 480);
}

const char* kHeader =
    "#                                                              out-of-place                       in-place\n"
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw "
    "#wrong\n"
    "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n";

TEST(MeasuredTable, StripsLauncherPrefixes) {
  EXPECT_EQ(gf::strip_launcher_prefix("[1,0]<stdout>:   8  2 float"), "   8  2 float");
  EXPECT_EQ(gf::strip_launcher_prefix("node-01.example: #  Rank 0"), "#  Rank 0");
  EXPECT_EQ(gf::strip_launcher_prefix("0:         8   2"), "        8   2");
  EXPECT_EQ(gf::strip_launcher_prefix("           8             2     float"), "           8             2     float");

  // The same table as mpirun --tag-output prints it, with NCCL INFO lines interleaved.
  std::string text;
  std::istringstream in(std::string(kHeader) +
                        "          8             2     float     sum      -1    13.67    0.00    0.00      0    13.03    0.00    0.00      0\n"
                        "node1:123:123 [0] NCCL INFO Channel 00/16 : 0 1 2 3\n"
                        "        16             4     float     sum      -1    13.00    0.00    0.00      0    13.07    0.00    0.00      0\n");
  for (std::string line; std::getline(in, line);) text += "[1,0]<stdout>:" + line + "\n";
  MeasuredFile f = parse_measured_text(text, "tagged.txt");
  ASSERT_EQ(f.tables.size(), 1u);
  ASSERT_EQ(f.tables[0].rows.size(), 2u);
  EXPECT_EQ(f.tables[0].rows[1].size, 16);
  EXPECT_EQ(f.tables[0].rows[1].line, 6);  // 3 header lines, row, INFO line, row
}

TEST(MeasuredTable, OutOfPlaceOnlyRowsHaveNoInPlaceColumns) {
  MeasuredFile f = parse_measured_text(std::string(kHeader) + " 1024  256  float  sum  -1  16.94  0.06  0.11  0\n", "oop.txt");
  ASSERT_EQ(f.tables[0].rows.size(), 1u);
  EXPECT_FALSE(f.tables[0].rows[0].in_place.has_value());
}

// nccl-tests before 2.10 (NCCL 2.8's era) printed no root column and the largest error as a number
// where #wrong is now: 12 columns, 8 out-of-place only. The row is the 64 KiB one of
// validation/measured/aws-p4d-a100-2node-16gpu-efa400g-allreduce.txt.
TEST(MeasuredTable, ReadsTheLayoutBeforeNcclTests210) {
  const char* old_header = "#       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error\n";
  MeasuredFile f = parse_measured_text(
      std::string(old_header) +
          "       65536         16384   float     sum    273.9    0.24    0.45  5e-07    273.8    0.24    0.45  5e-07\n"
          "      131072         32768   float     sum    294.2    0.45    0.84  5e-07\n",
      "old.txt");
  ASSERT_EQ(f.tables[0].rows.size(), 2u);
  const auto& r = f.tables[0].rows[0];
  EXPECT_EQ(r.size, 65536);
  EXPECT_EQ(r.redop, "sum");
  EXPECT_DOUBLE_EQ(r.out_of_place.time_us, 273.9);
  EXPECT_DOUBLE_EQ(r.out_of_place.busbw_gBps, 0.45);
  ASSERT_TRUE(r.in_place.has_value());
  EXPECT_DOUBLE_EQ(r.in_place->time_us, 273.8);
  EXPECT_FALSE(f.tables[0].rows[1].in_place.has_value());
}

// The message of the InputError `text` raises.
std::string error_of(const std::string& text) {
  try {
    parse_measured_text(text, "bad.txt");
  } catch (const gf::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(MeasuredTable, GarbledRowsNameFileAndLine) {
  // Line 4: a row cut short (11 columns; 12 is the layout before nccl-tests 2.10, below).
  std::string cut = error_of(std::string(kHeader) +
                             "  8  2  float  sum  -1  13.67  0.00  0.00  0  13.03  0.00\n");
  EXPECT_NE(cut.find("bad.txt:4:"), std::string::npos) << cut;
  EXPECT_NE(cut.find("got 11"), std::string::npos) << cut;
  // Line 4: a 13-column row that lost its last column reads as the old layout, whose time column
  // then holds the root, -1: still refused, at its line.
  std::string lost = error_of(std::string(kHeader) +
                              "  8  2  float  sum  -1  13.67  0.00  0.00  0  13.03  0.00  0.00\n");
  EXPECT_NE(lost.find("bad.txt:4:"), std::string::npos) << lost;
  EXPECT_NE(lost.find("'-1'"), std::string::npos) << lost;
  // Line 5: a time that is not a number (line 4 is a good row).
  std::string word = error_of(std::string(kHeader) +
                              "  8  2  float  sum  -1  13.67  0.00  0.00  0  13.03  0.00  0.00  0\n"
                              "  16  4  float  sum  -1  fast  0.00  0.00  0  13.07  0.00  0.00  0\n");
  EXPECT_NE(word.find("bad.txt:5:"), std::string::npos) << word;
  EXPECT_NE(word.find("'fast'"), std::string::npos) << word;
  // Line 2: a data row before any column header.
  std::string early = error_of("# a comment\n  8  2  float  sum  -1  13.67  0.00  0.00  0  13.03  0.00  0.00  0\n");
  EXPECT_NE(early.find("bad.txt:2:"), std::string::npos) << early;
  // Line 2 of a scaling summary: a busbw that is not a figure.
  std::string prose = error_of("# gpus  algo  busbw_GBps\n4  RING  fast\n");
  EXPECT_NE(prose.find("bad.txt:2:"), std::string::npos) << prose;
}

}  // namespace
