// The nccl-tests table writer, on hand-built sweep rows: cell widths, nccl-tests' number-format
// fallbacks, header/row alignment, the Avg bus bandwidth footer, N/A where nccl-tests prints it,
// JSON and CSV, and that a small reader of nccl-tests tables (as scripts parse measured logs)
// reads the output back, and reads a real measured log the same way.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "report/nccl_table.hpp"
#include "shared_data.hpp"

using namespace gf;

namespace {

// ---- A minimal nccl-tests table reader, written the way log-parsing scripts are: skip '#' lines,
// split data rows on whitespace, take the first 13 fields, read the Avg bus bandwidth footer.
struct ParsedHalf {
  double time_us = 0, algbw = 0, busbw = 0;
  std::string wrong;  // "0" or "N/A"
};
struct ParsedRow {
  int64_t size = 0, count = 0;
  std::string type, redop;
  int root = 0;
  ParsedHalf oop, ip;
  std::vector<std::string> extra;  // fields after nccl-tests' 13
};
struct ParsedTable {
  std::vector<ParsedRow> rows;
  double avg_busbw = -1;
};

ParsedTable parse_nccl_tests(const std::string& text) {
  ParsedTable t;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const std::string avg = "# Avg bus bandwidth";
    if (line.rfind(avg, 0) == 0) {
      t.avg_busbw = std::stod(line.substr(line.find(':') + 1));
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    std::vector<std::string> v;
    for (std::string w; f >> w;) v.push_back(w);
    if (v.size() < 13) continue;  // library chatter such as "NCCL version ..."
    ParsedRow r;
    r.size = std::stoll(v[0]);
    r.count = std::stoll(v[1]);
    r.type = v[2];
    r.redop = v[3];
    r.root = std::stoi(v[4]);
    r.oop = {std::stod(v[5]), std::stod(v[6]), std::stod(v[7]), v[8]};
    r.ip = {std::stod(v[9]), std::stod(v[10]), std::stod(v[11]), v[12]};
    r.extra.assign(v.begin() + 13, v.end());
    t.rows.push_back(r);
  }
  return t;
}

SweepOptions all_reduce_options() {
  SweepOptions o;
  o.call.kind = CollectiveKind::AllReduce;
  o.call.type = {"float", 4};
  o.call.redop = "sum";
  o.min_bytes = Bytes(8);
  o.max_bytes = Bytes::gib(8);
  o.factor = 2;
  return o;
}

PerfContext context16() {
  PerfContext c;
  c.cluster = "dgx-h100-2node";
  c.gpu = "H100-SXM5-80GB";
  c.nranks = 16, c.nnodes = 2, c.ppn = 8;
  return c;
}

SweepRow row(int64_t size, int64_t count, double time_us, double algbw, double busbw, std::string algo = "ring",
             Protocol p = Protocol::Simple, int channels = 16) {
  SweepRow r;
  r.size = Bytes(size);
  r.count = count;
  r.time = Time::us(time_us);
  r.algbw_gBps = algbw;
  r.busbw_gBps = busbw;
  r.choice.algorithm = std::move(algo);
  r.choice.proto = p;
  r.choice.channels = channels;
  return r;
}

// Three all-reduce rows on 16 ranks (busbw factor 2(n-1)/n = 30/16 = 1.875), numbers by hand:
//  8 B in 10 us:         algbw = 8 / 10e-6 / 1e9          = 0.0008 GB/s, busbw = 0.0015
//  1 MiB in 20 us:       algbw = 1048576 / 20e-6 / 1e9    = 52.4288,     busbw = 98.304
//  8 GiB in 40000 us:    algbw = 8589934592 / 0.04 / 1e9  = 214.7483648, busbw = 402.653184
std::vector<SweepRow> three_rows() {
  return {row(8, 2, 10, 0.0008, 0.0015, "ring", Protocol::LL, 2),
          row(1048576, 262144, 20, 52.4288, 98.304, "ring", Protocol::LL128, 16),
          row(8589934592, 2147483648, 40000, 214.7483648, 402.653184, "nvls", Protocol::Simple, 16)};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::vector<std::string> data_lines(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& l : lines_of(text))
    if (!l.empty() && l[0] != '#') out.push_back(l);
  return out;
}

// Right edges (index one past the last character) of whitespace-separated fields.
std::vector<size_t> right_edges(const std::string& s, size_t from = 0) {
  std::vector<size_t> out;
  for (size_t i = from; i < s.size(); ++i)
    if (s[i] != ' ' && (i + 1 == s.size() || s[i + 1] == ' ')) out.push_back(i + 1);
  return out;
}

}  // namespace

TEST(NcclTableNumber, TwoDecimalsThenOneThenNoneThenExponentToFitTheCell) {
  // Time cells are 7 wide: two decimals while the integer part has at most 4 digits.
  EXPECT_EQ(nccl_number(13.67, 7), "  13.67");
  EXPECT_EQ(nccl_number(123.8, 7), " 123.80");
  EXPECT_EQ(nccl_number(1112.5, 7), "1112.50");
  // 5 integer digits: one decimal; 6 or 7: none; 8: exponent with one decimal.
  EXPECT_EQ(nccl_number(15749.04, 7), "15749.0");
  EXPECT_EQ(nccl_number(123456.7, 7), " 123457");
  EXPECT_EQ(nccl_number(1234567, 7), "1234567");
  EXPECT_EQ(nccl_number(12345678, 7), "1.2e+07");
  // Bandwidth cells are 6 wide: the same steps one digit earlier, and a bare exponent at the end.
  EXPECT_EQ(nccl_number(0.004, 6), "  0.00");
  EXPECT_EQ(nccl_number(274.38, 6), "274.38");
  EXPECT_EQ(nccl_number(1234.5, 6), "1234.5");
  EXPECT_EQ(nccl_number(12345.6, 6), " 12346");
  EXPECT_EQ(nccl_number(123456, 6), "123456");
  EXPECT_EQ(nccl_number(1234567, 6), " 1e+06");
  // Rounding that would carry into a new digit takes the next form rather than overflow the cell.
  EXPECT_EQ(nccl_number(999.999, 6), "1000.0");
  EXPECT_EQ(nccl_number(9999.999, 7), "10000.0");
}

TEST(NcclTableNumber, EveryCellKeepsItsWidth) {
  for (double v = 1e-4; v < 1e12; v *= 3.7) {
    EXPECT_EQ(nccl_number(v, 7).size(), 7u) << v;
    EXPECT_EQ(nccl_number(v, 6).size(), 6u) << v;
  }
}

TEST(NcclTableText, RowsUseNcclTestsWidthsAndNumberFormats) {
  std::string text = nccl_table_text(all_reduce_options(), context16(), three_rows());
  std::vector<std::string> rows = data_lines(text);
  ASSERT_EQ(rows.size(), 3u);
  // %12li  %12li  %8s  %6s  %6s, then per half "  %7s  %6s  %6s  %6g", then algo proto nch.
  EXPECT_EQ(rows[0],
            "           8             2     float     sum      -1"
            "    10.00    0.00    0.00       0"
            "    10.00    0.00    0.00       0"
            "  ring      LL    2");
  EXPECT_EQ(rows[1],
            "     1048576        262144     float     sum      -1"
            "    20.00   52.43   98.30       0"
            "    20.00   52.43   98.30       0"
            "  ring   LL128   16");
  // 40000 us has five integer digits: one decimal in the 7-wide cell.
  EXPECT_EQ(rows[2],
            "  8589934592    2147483648     float     sum      -1"
            "  40000.0  214.75  402.65       0"
            "  40000.0  214.75  402.65       0"
            "  nvls  Simple   16");
  // nccl-tests' own columns take 52 + 2 x 33 characters on every row.
  for (const auto& r : rows) EXPECT_EQ(r.substr(0, 118).find_last_not_of(' '), 117u) << r;
}

TEST(NcclTableText, HeaderLinesAlignWithTheColumns) {
  std::vector<std::string> lines = lines_of(nccl_table_text(all_reduce_options(), context16(), three_rows()));
  size_t h = 1;
  while (h < lines.size() && lines[h].rfind("#       size", 0) != 0) ++h;
  ASSERT_LT(h + 2, lines.size());
  --h;  // the group caption line above the labels
  EXPECT_EQ(lines[h - 1], "#");
  EXPECT_EQ(lines[h], "#                                                              out-of-place"
                      "                       in-place");
  EXPECT_EQ(lines[h + 1],
            "#       size         count      type   redop    root     time   algbw   busbw  #wrong"
            "     time   algbw   busbw  #wrong  algo   proto  nch");
  EXPECT_EQ(lines[h + 2],
            "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)        "
            "     (us)  (GB/s)  (GB/s)");
  // Every label on the second header line ends where its column ends in a data row.
  std::vector<size_t> label_ends = right_edges(lines[h + 1], 1);
  std::vector<size_t> cell_ends = right_edges(lines[h + 3]);
  EXPECT_EQ(label_ends, cell_ends);
}

TEST(NcclTableText, FooterAveragesBusbwOverRowsAndBothHalves) {
  std::string text = nccl_table_text(all_reduce_options(), context16(), three_rows());
  // Both halves have the same busbw: (0.0015 + 98.304 + 402.653184) x 2 / 6 = 166.986228, which
  // nccl-tests prints with %g (six significant digits).
  EXPECT_NEAR(average_busbw(three_rows()), 166.986228, 1e-9);
  EXPECT_NE(text.find("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 166.986\n#\n"), std::string::npos) << text;
  EXPECT_EQ(average_busbw({}), 0.0);
}

TEST(NcclTableText, PreambleSaysItIsSimulated) {
  std::string text = nccl_table_text(all_reduce_options(), context16(), three_rows());
  EXPECT_EQ(text.rfind("# gpufabric perf all_reduce on dgx-h100-2node: 16 ranks = 2 servers x 8 GPUs (H100-SXM5-80GB)\n", 0),
            0u)
      << text;
  EXPECT_NE(text.find("# SIMULATED with the flow model (ecmp routing), not measured"), std::string::npos);  // defaults
  EXPECT_NE(text.find("minBytes 8 maxBytes 8589934592 step: 2(factor)"), std::string::npos);
  // No line ends in a space (nccl-tests pads some; diffs and editors are happier without).
  for (const auto& l : lines_of(text)) EXPECT_TRUE(l.empty() || l.back() != ' ') << "'" << l << "'";
}

TEST(NcclTableText, DataMovementPrintsNoneAndRootedPrintsTheRoot) {
  SweepOptions o = all_reduce_options();
  o.call.kind = CollectiveKind::AllGather;
  auto rows = data_lines(nccl_table_text(o, context16(), three_rows()));
  EXPECT_EQ(rows[0].substr(36, 16), "    none      -1");
  o.call.kind = CollectiveKind::Broadcast;
  o.call.root = 3;
  rows = data_lines(nccl_table_text(o, context16(), three_rows()));
  EXPECT_EQ(rows[0].substr(36, 16), "    none       3");
  o.call.kind = CollectiveKind::Reduce;
  o.call.redop = "max";
  rows = data_lines(nccl_table_text(o, context16(), three_rows()));
  EXPECT_EQ(rows[0].substr(36, 16), "     max       3");
}

TEST(NcclTableText, AlltoallInPlaceWrongIsNotApplicable) {
  SweepOptions o = all_reduce_options();
  o.call.kind = CollectiveKind::AllToAll;
  auto rows = data_lines(nccl_table_text(o, context16(), three_rows()));
  // nccl-tests: "  %7s  %6s  %6s    N/A" for an unchecked half (one column shorter than "  %6g").
  EXPECT_EQ(rows[1].substr(52),
            "    20.00   52.43   98.30       0"
            "    20.00   52.43   98.30    N/A"
            "  ring   LL128   16");
  auto j = nccl_table_json(o, context16(), three_rows());
  EXPECT_TRUE(j["results"][1]["in_place"]["nwrong"].is_null());
  EXPECT_EQ(j["results"][1]["out_of_place"]["nwrong"], 0);
}

TEST(NcclTableText, NotesAppearAsCommentLines) {
  std::vector<SweepRow> rows = three_rows();
  rows[0].choice.note = "nvls unavailable: PCIe only; using ring";
  rows[1].choice.note = rows[0].choice.note;
  PerfContext ctx = context16();
  ctx.notes = {"--algo auto: nvls not available here, not considered: no NVSwitch"};
  std::string text = nccl_table_text(all_reduce_options(), ctx, rows);
  EXPECT_NE(text.find("\n# note: --algo auto: nvls not available here, not considered: no NVSwitch\n"),
            std::string::npos);
  EXPECT_NE(text.find("\n# note (8 B .. 1048576 B, 2 sizes): nvls unavailable: PCIe only; using ring\n"),
            std::string::npos)
      << text;
  // Notes never become data rows.
  EXPECT_EQ(parse_nccl_tests(text).rows.size(), 3u);
}

TEST(NcclTableText, EmptyBufferRowsAreNotTuned) {
  SweepRow zero;
  zero.size = Bytes(0);
  auto rows = data_lines(nccl_table_text(all_reduce_options(), context16(), {zero}));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].substr(118), "     -       -    -");
}

TEST(NcclTableText, AReaderOfNcclTestsTablesReadsItBack) {
  std::vector<SweepRow> in = three_rows();
  ParsedTable t = parse_nccl_tests(nccl_table_text(all_reduce_options(), context16(), in));
  ASSERT_EQ(t.rows.size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const ParsedRow& r = t.rows[i];
    EXPECT_EQ(r.size, in[i].size.count());
    EXPECT_EQ(r.count, in[i].count);
    EXPECT_EQ(r.type, "float");
    EXPECT_EQ(r.redop, "sum");
    EXPECT_EQ(r.root, -1);
    for (const ParsedHalf* h : {&r.oop, &r.ip}) {
      // Printed with at least one decimal here, or as a 5-digit integer: within half a unit of the
      // last printed digit.
      EXPECT_NEAR(h->time_us, in[i].time.to_us(), 0.05);
      EXPECT_NEAR(h->algbw, in[i].algbw_gBps, 0.005);
      EXPECT_NEAR(h->busbw, in[i].busbw_gBps, 0.005);
      EXPECT_EQ(h->wrong, "0");
    }
    ASSERT_EQ(r.extra.size(), 3u);
    EXPECT_EQ(r.extra[0], in[i].choice.algorithm);
    EXPECT_EQ(r.extra[1], to_string(in[i].choice.proto));
    EXPECT_EQ(r.extra[2], std::to_string(in[i].choice.channels));
  }
  EXPECT_NEAR(t.avg_busbw, 166.986, 1e-9);
}

TEST(NcclTableText, TheReaderReadsARealMeasuredLog) {
  // The same reader on a measured nccl-tests log, to show it reads what nccl-tests prints.
  REQUIRE_SHARED_DATA();
  std::ifstream f(shared_dir() + "/validation/measured/dgx-h100-8gpu-nvswitch-1node-allreduce-full-sweep.txt");
  ASSERT_TRUE(f.good());
  std::stringstream ss;
  ss << f.rdbuf();
  ParsedTable t = parse_nccl_tests(ss.str());
  ASSERT_EQ(t.rows.size(), 32u);  // 8 B .. 16 GiB, factor 2
  EXPECT_EQ(t.rows.front().size, 8);
  EXPECT_EQ(t.rows.back().size, 17179869184);
  EXPECT_DOUBLE_EQ(t.rows.back().oop.busbw, 479.90);
  EXPECT_DOUBLE_EQ(t.avg_busbw, 159.151);
}

TEST(NcclTableJson, ShapeFollowsNcclTestsJ) {
  auto j = nccl_table_json(all_reduce_options(), context16(), three_rows());
  EXPECT_EQ(j["simulated"], true);
  EXPECT_EQ(j["config"]["collective"], "all_reduce");
  EXPECT_EQ(j["config"]["nranks"], 16);
  EXPECT_EQ(j["config"]["minimum_bytes"], 8);
  EXPECT_EQ(j["config"]["maximum_bytes"], 8589934592LL);
  EXPECT_EQ(j["config"]["step_factor"], 2.0);
  ASSERT_EQ(j["results"].size(), 3u);
  const auto& r = j["results"][1];
  EXPECT_EQ(r["size"], 1048576);
  EXPECT_EQ(r["count"], 262144);
  EXPECT_EQ(r["type"], "float");
  EXPECT_EQ(r["redop"], "sum");
  EXPECT_EQ(r["root"], -1);
  EXPECT_DOUBLE_EQ(r["out_of_place"]["time"].get<double>(), 20.0);
  EXPECT_DOUBLE_EQ(r["out_of_place"]["alg_bw"].get<double>(), 52.4288);
  EXPECT_DOUBLE_EQ(r["in_place"]["bus_bw"].get<double>(), 98.304);
  EXPECT_EQ(r["in_place"]["nwrong"], 0);
  EXPECT_EQ(r["algorithm"], "ring");
  EXPECT_EQ(r["protocol"], "LL128");
  EXPECT_EQ(r["channels"], 16);
  EXPECT_NEAR(j["average_bus_bandwidth"]["bandwidth"].get<double>(), 166.986228, 1e-9);
  EXPECT_EQ(j["out_of_bounds"]["count"], 0);
}

TEST(NcclTableCsv, HeaderAndOneLinePerSize) {
  std::vector<std::string> lines = lines_of(nccl_table_csv(all_reduce_options(), three_rows()));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0],
            "size,count,type,redop,root,time_us,algbw_GBps,busbw_GBps,nwrong,in_place_time_us,in_place_algbw_GBps,"
            "in_place_busbw_GBps,in_place_nwrong,algorithm,protocol,channels,note");
  // Full precision (shortest text that reads back to the same double), no padding.
  EXPECT_EQ(lines[2], "1048576,262144,float,sum,-1,20,52.4288,98.304,0,20,52.4288,98.304,0,ring,LL128,16,");
  // A note with a comma is quoted.
  std::vector<SweepRow> rows = three_rows();
  rows[0].choice.note = "nvls unavailable, using ring";
  lines = lines_of(nccl_table_csv(all_reduce_options(), rows));
  EXPECT_EQ(lines[1].substr(lines[1].rfind(",ring,")), ",ring,LL,2,\"nvls unavailable, using ring\"");
}
