// The time breakdowns' stacked bars (report/html/svg_bars) and what the perf, run and train pages
// draw with them: each segment's width derived by hand from the chart's geometry, zero parts left
// out, hostile labels escaped. The browser test (tests/browser/) checks the same pages in Chromium.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "report/html/perf_html.hpp"
#include "report/html/run_html.hpp"
#include "report/html/svg_bars.hpp"
#include "report/html/train_html.hpp"
#include "report/run_links.hpp"
#include "workload/scenario.hpp"

namespace gf::html {
namespace {

const std::string kHostile = "<script>alert(1)</script><img src=x onerror=\"alert(2)\">";

// The plot is 760 - kBarsLeft (230) - kBarsRight (110) = 420 px wide at the default width.
constexpr double kPlot = 420;

struct Seg {
  std::string name;
  double x, width;
};

// The segments of the chart whose id is `id`, in document order.
std::vector<Seg> segments(const std::string& html, const std::string& id) {
  const size_t from = html.find("<svg class=\"bars\" id=\"" + id + "\"");
  if (from == std::string::npos) return {};
  const std::string svg = html.substr(from, html.find("</svg>", from) - from);
  std::vector<Seg> out;
  const std::regex rect(R"re(<rect class="seg" x="([0-9.]+)" y="[0-9]+" width="([0-9.]+)"[^>]*data-name="([^"]*)")re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), rect); it != std::sregex_iterator(); ++it)
    out.push_back({(*it)[3], std::stod((*it)[1]), std::stod((*it)[2])});
  return out;
}

TEST(SvgBars, AbsoluteBarsShareOneScale) {
  // Bar A is 3 + 1 = 4 s, bar B 2 s: the longest (A) fills the 420 px plot, so 3 s is
  // 3/4 x 420 = 315 px, 1 s 105 px, and B's 2 s 210 px. Segments follow each other from x = 230.
  BarChart c{"t", "two", {{"A", {{"a", 3, 0}, {"b", 1, 1}}}, {"B", {{"a", 2, 0}, {"zero", 0, 2}}}}, false};
  EXPECT_DOUBLE_EQ(segment_width(c, 3, 4), 315);
  const std::vector<Seg> s = segments(svg_bars(c), "t");
  ASSERT_EQ(s.size(), 3u);  // B's zero part is not drawn
  EXPECT_DOUBLE_EQ(s[0].x, 230);
  EXPECT_DOUBLE_EQ(s[0].width, 315);
  EXPECT_DOUBLE_EQ(s[1].x, 545);
  EXPECT_DOUBLE_EQ(s[1].width, 105);
  EXPECT_DOUBLE_EQ(s[2].x, 230);
  EXPECT_DOUBLE_EQ(s[2].width, 210);
  const std::string svg = svg_bars(c);
  EXPECT_NE(svg.find("data-label=\"B\" data-total=\"2\" data-segments=\"1\""), std::string::npos);
  EXPECT_EQ(svg.find("zero"), std::string::npos);  // nor named in the legend
}

TEST(SvgBars, SharesFillThePlotEach) {
  // As shares, B's 2 s alone is its whole bar: 420 px; A's 3 s of 4 s still 315 px.
  BarChart c{"t", "two", {{"A", {{"a", 3, 0}, {"b", 1, 1}}}, {"B", {{"a", 2, 0}}}}, true};
  const std::vector<Seg> s = segments(svg_bars(c), "t");
  ASSERT_EQ(s.size(), 3u);
  EXPECT_DOUBLE_EQ(s[0].width, 315);
  EXPECT_DOUBLE_EQ(s[2].width, kPlot);
}

TEST(SvgBars, LabelsAndNamesAreEscapedAndEmptyChartsSaySo) {
  BarChart c{"t", kHostile, {{kHostile, {{kHostile, 1, 0}}}}, false};
  const std::string svg = svg_bars(c);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("<img"), std::string::npos);
  BarChart empty{"e", "nothing", {{"A", {{"a", 0, 0}}}}, false};
  EXPECT_NE(svg_bars(empty).find("nothing to draw"), std::string::npos);
  EXPECT_EQ(seconds_text(0.0123), "12.3 ms");
  EXPECT_EQ(seconds_text(3.2e-6), "3.2 us");
}

TEST(TrainHtml, StepBarIsTheBreakdownsPhases) {
  // forward 0.2 + backward 0.4 + bubble 0.1 + DP exposed 0.05 + optimizer 0.05 = a 0.8 s step.
  // One bar, so it fills the plot: forward 0.2/0.8 x 420 = 105 px, backward 210, bubble 52.5,
  // DP and optimizer 26.25 each; the zero phases (recompute, TP, CP, EP, ...) are not drawn.
  TrainResult r;
  r.model = kHostile;
  r.step_time_s = 0.8;
  r.breakdown.forward_s = 0.2;
  r.breakdown.backward_s = 0.4;
  r.breakdown.pp_bubble_s = 0.1;
  r.breakdown.dp_exposed_s = 0.05;
  r.breakdown.optimizer_s = 0.05;
  r.comm.push_back({"dp", "all_reduce", "ring", 1e9, 0.01, 1, 0.2, 0.05, 1});
  const std::string p = train_html(r, "c", {"gpufabric train", "gpufabric test"});
  const std::vector<Seg> s = segments(p, "bars-step");
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s[0].name, "forward");
  EXPECT_DOUBLE_EQ(s[0].width, 105);
  EXPECT_DOUBLE_EQ(s[1].width, 210);
  EXPECT_EQ(s[2].name, "pipeline bubble");
  EXPECT_DOUBLE_EQ(s[2].width, 52.5);
  EXPECT_DOUBLE_EQ(s[3].width, 26.25);
  EXPECT_DOUBLE_EQ(s[4].width, 26.25);
  // The DP reduction: 0.2 s per step, 0.05 s exposed: 0.05/0.2 x 420 = 105 px, the rest 315 px.
  const std::vector<Seg> c = segments(p, "bars-comm");
  ASSERT_EQ(c.size(), 2u);
  EXPECT_DOUBLE_EQ(c[0].width, 105);
  EXPECT_DOUBLE_EQ(c[1].width, 315);
  EXPECT_EQ(p.find("<script>alert"), std::string::npos);
}

TEST(RunHtml, JobsSpanAndSharingBars) {
  // Job a: 0 .. 100 us, one call twice (0-30 and 40-70 us): 60 us in the call, 40 us of gaps;
  // job b: 0 .. 50 us, one call once (0-50). The longest span (a's 100 us) fills the plot:
  // 60 us is 252 px, 40 us 168 px, b's 50 us 210 px. Sharing: a's call averages 30 us against
  // 20 us alone: 20 us alone and 10 us added (of the longest bar, b's 50 us: 168 and 84 px).
  ScenarioResult r;
  r.name = kHostile;
  ScenarioJobResult a, b;
  a.name = kHostile;
  a.end = Time::us(100);
  ScenarioCallResult ca;
  ca.call.kind = CollectiveKind::AllReduce;
  ca.spans = {{Time::us(0), Time::us(30)}, {Time::us(40), Time::us(70)}};
  ca.mean = Time::us(30);
  ca.alone_mean = Time::us(20);
  a.calls = {ca};
  b.name = "b";
  b.end = Time::us(50);
  ScenarioCallResult cb = ca;
  cb.spans = {{Time::us(0), Time::us(50)}};
  cb.mean = cb.alone_mean = Time::us(50);
  b.calls = {cb};
  r.jobs = {a, b};
  const std::string p = run_html(r, RunLinks{}, {"gpufabric run", "gpufabric test"});
  const std::vector<Seg> j = segments(p, "bars-jobs");
  ASSERT_EQ(j.size(), 3u);
  EXPECT_NEAR(j[0].width, 252, 0.01);
  EXPECT_NEAR(j[1].width, 168, 0.01);
  EXPECT_EQ(j[1].name, "between calls (gaps)");
  EXPECT_NEAR(j[2].width, 210, 0.01);
  const std::vector<Seg> s = segments(p, "bars-sharing");
  ASSERT_EQ(s.size(), 3u);  // b's call added nothing: one segment
  EXPECT_NEAR(s[0].width, 168, 0.01);
  EXPECT_EQ(s[1].name, "added by sharing");
  EXPECT_NEAR(s[1].width, 84, 0.01);
  EXPECT_NEAR(s[2].width, 420, 0.01);
  EXPECT_EQ(p.find("<script>alert"), std::string::npos);
}

TEST(PerfHtml, EachSizeSplitsIntoFixedLatencyAndTransfers) {
  // As shares: a 1 us fixed latency of a 4 us call is 1/4 x 420 = 105 px, its transfers 315 px.
  SweepOptions o;
  PerfContext ctx;
  std::vector<SweepRow> rows(1);
  rows[0].size = Bytes(1024);
  rows[0].time = Time::us(4);
  const std::string p = perf_html(o, ctx, rows, {"gpufabric perf", "gpufabric test"}, nullptr,
                                  {{Bytes(1024), Time::us(1), Time::us(3)}});
  const std::vector<Seg> s = segments(p, "bars-perf");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_DOUBLE_EQ(s[0].width, 105);
  EXPECT_DOUBLE_EQ(s[1].width, 315);
}

}  // namespace
}  // namespace gf::html
