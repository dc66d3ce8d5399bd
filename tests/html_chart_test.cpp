// The HTML reports' pieces: escaping, the log-axis ticks and labels, the SVG chart's marks, and
// the perf page's handling of a hostile cluster name. The browser test (tests/browser/) checks the
// same pages in Chromium.
#include <gtest/gtest.h>

#include <string>

#include "report/html/html_escape.hpp"
#include "report/html/html_page.hpp"
#include "report/html/perf_html.hpp"
#include "report/html/svg_chart.hpp"

namespace gf::html {
namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

const std::string kHostile = "<script>alert(1)</script><img src=x onerror=\"alert(2)\">";

TEST(HtmlEscape, EscapesTheFiveSpecialCharacters) {
  EXPECT_EQ(escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(escape("plain text"), "plain text");
  EXPECT_EQ(escape(kHostile).find('<'), std::string::npos);
}

TEST(SvgChart, ByteTicksArePowersOfTwoAtMostNine) {
  // 8 B .. 8 GiB is 2^3 .. 2^33: 30 octaves, a step of ceil(30 / 8) = 4 octaves, from 2^3 to the
  // first tick at or above 2^33, 2^35: 2^3, 2^7, ..., 2^35 is 9 ticks.
  const std::vector<double> t = log_ticks(8, 8.0 * (1 << 30), AxisKind::Bytes);
  ASSERT_EQ(t.size(), 9u);
  EXPECT_EQ(t.front(), 8);
  EXPECT_EQ(t.back(), 34359738368.0);  // 2^35
  EXPECT_EQ(tick_label(8, AxisKind::Bytes), "8");
  EXPECT_EQ(tick_label(2048, AxisKind::Bytes), "2K");
  EXPECT_EQ(tick_label(2.0 * (1 << 30), AxisKind::Bytes), "2G");
}

TEST(SvgChart, DecadeTicksCoverTheData) {
  // 3.2 .. 410 lies in the decades 1 .. 1000.
  const std::vector<double> t = log_ticks(3.2, 410, AxisKind::Plain);
  EXPECT_EQ(t, (std::vector<double>{1, 10, 100, 1000}));
  EXPECT_EQ(tick_label(0.01, AxisKind::Plain), "0.01");
  EXPECT_EQ(tick_label(1000, AxisKind::Microseconds), "1 ms");
  EXPECT_EQ(tick_label(1e7, AxisKind::Microseconds), "10 s");
  EXPECT_EQ(tick_label(0.1, AxisKind::Microseconds), "100 ns");
  // One value still gets an axis: one decade above it.
  EXPECT_EQ(log_ticks(5, 5, AxisKind::Plain), (std::vector<double>{1, 10}));
}

TEST(SvgChart, OneMarkPerPlottablePointAndNamesEscaped) {
  Chart c;
  c.id = "t";
  c.title = "title " + kHostile;
  ChartSeries a{kHostile, {{8, 1, "tip <b>"}, {16, 2, ""}, {32, 4, ""}}, 0, "", false};
  // Log axes cannot show 0 or a negative value: those two points are left out.
  ChartSeries b{"b", {{8, 0, ""}, {16, -1, ""}, {32, 3, ""}}, 1, "2 3", true};
  c.series = {a, b};
  const std::string svg = svg_chart(c);
  EXPECT_EQ(count(svg, "<circle class=\"mark\""), 4u);
  EXPECT_NE(svg.find("data-points=\"3\""), std::string::npos);
  EXPECT_NE(svg.find("data-points=\"1\""), std::string::npos);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("<img"), std::string::npos);
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  EXPECT_NE(svg.find("&lt;script&gt;"), std::string::npos);
}

TEST(SvgChart, NothingToPlotSaysSo) {
  Chart c;
  c.id = "empty";
  c.series = {ChartSeries{"zero", {{0, 1, ""}}, 0, "", false}};
  EXPECT_NE(svg_chart(c).find("no point to plot"), std::string::npos);
}

TEST(HtmlPage, OneScriptHashedInThePolicyAndUserTextEscaped) {
  const std::string p =
      page(kHostile, {kHostile, "gpufabric test"}, {{"s", kHostile, facts_table({{kHostile, kHostile}})}});
  EXPECT_EQ(count(p, "<script"), 1u);
  EXPECT_EQ(count(p, "<img"), 0u);
  EXPECT_NE(p.find("script-src 'sha256-" + selfcheck_script_hash() + "'"), std::string::npos);
  EXPECT_NE(p.find("default-src 'none'"), std::string::npos);
  // The script is the one the hash was made of (the browser test recomputes the hash itself).
  EXPECT_NE(p.find("<script>" + selfcheck_script() + "</script>"), std::string::npos);
}

TEST(PerfHtml, ChartsHaveOneMarkPerSizeForTheChoice) {
  SweepOptions o;
  PerfContext ctx;
  ctx.cluster = kHostile;
  ctx.nranks = 8;
  ctx.nnodes = 1;
  ctx.ppn = 8;
  ctx.notes = {kHostile};
  std::vector<SweepRow> rows;
  for (int64_t size : {0, 8, 16, 32}) {  // the zero-byte row has no place on a log axis
    SweepRow r;
    r.size = Bytes(size);
    r.time = Time::us(10 + size);
    r.busbw_gBps = size ? 1.0 * size : 0;
    r.choice.algorithm = "ring";
    r.choice.note = kHostile;
    if (size) r.others = {{"tree", Protocol::LL, Time::us(20)}};
    rows.push_back(r);
  }
  const std::string p = perf_html(o, ctx, rows, {"gpufabric perf all_reduce", "gpufabric test"});
  EXPECT_EQ(count(p, "<script"), 1u);
  EXPECT_EQ(count(p, "<img"), 0u);
  // Two charts, each with the choice (3 sizes) and two options (ring/Simple, tree/LL; 3 each).
  EXPECT_EQ(count(p, "<svg class=\"chart\""), 2u);
  EXPECT_EQ(count(p, "<circle class=\"mark\""), 2u * 3u * 3u);
  EXPECT_EQ(count(p, "data-points=\"3\""), 6u);
  // The table: a row per size, the zero-byte one included.
  EXPECT_EQ(count(p, "<tr><td class=\"num\">"), 4u);
}

}  // namespace
}  // namespace gf::html
