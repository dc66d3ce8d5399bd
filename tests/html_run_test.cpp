// The run and doctor pages' pieces: the heatmap's colour scale, buckets and cells, the link tiers
// and per-job shared links a scenario's run gives, and hostile names on both pages. The browser
// test (tests/browser/) loads the same pages in Chromium.
#include <gtest/gtest.h>

#include <string>

#include "doctor/doctor.hpp"
#include "report/html/doctor_html.hpp"
#include "report/html/heatmap.hpp"
#include "report/html/run_html.hpp"
#include "report/run_links.hpp"
#include "workload/scenario.hpp"
#include "workload/scenario_yaml.hpp"

namespace gf::html {
namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

const std::string kHostile = "<script>alert(1)</script><img src=x onerror=\"alert(2)\">";

TEST(Heatmap, ColourScaleIsGreyWhenIdleThenYlOrRd) {
  EXPECT_EQ(heat_colour(0), "#eeeeee");
  EXPECT_EQ(heat_colour(-1), "#eeeeee");
  // The scale's stops, at 0+, 0.5 and 1 (ColorBrewer YlOrRd #ffffb2, #fd8d3c, #bd0026).
  EXPECT_EQ(heat_colour(1e-12), "#ffffb2");
  EXPECT_EQ(heat_colour(0.5), "#fd8d3c");
  EXPECT_EQ(heat_colour(1), "#bd0026");
  EXPECT_EQ(heat_colour(3), "#bd0026");  // clamped
  // Half way between the first two stops: (255+253)/2 = 254, (255+141)/2 = 198, (178+60)/2 = 119.
  EXPECT_EQ(heat_colour(0.25), "#fec677");
}

TEST(Heatmap, TooManyCellsAreBucketed) {
  EXPECT_EQ(heat_bucket(4096, 4096), 1u);
  EXPECT_EQ(heat_bucket(4097, 4096), 2u);
  EXPECT_EQ(heat_bucket(32768, 4096), 8u);  // 16,384 GPUs' NIC links, both directions
  Heatmap h{"h", "tier", {}, 4, 3};
  for (int i = 0; i < 7; ++i) h.cells.push_back({i / 6.0, "link " + std::to_string(i)});
  // 7 cells over at most 3 squares: ceil(7/3) = 3 per square, so squares of 3, 3 and 1 cells.
  const std::string svg = svg_heatmap(h);
  EXPECT_NE(svg.find("data-cells=\"3\""), std::string::npos);
  EXPECT_EQ(count(svg, "<rect class=\"cell\""), 3u);
  // The middle square holds cells 3..5: coloured by its largest, 5/6.
  EXPECT_NE(svg.find("fill=\"" + heat_colour(5 / 6.0) + "\"><title>link 3 ... link 5"), std::string::npos);
}

TEST(Heatmap, TipsAndTitleAreEscaped) {
  Heatmap h{"h", kHostile, {{0.5, kHostile}}};
  const std::string svg = svg_heatmap(h);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("<img"), std::string::npos);
  EXPECT_EQ(count(svg, "<rect class=\"cell\""), 1u);
}

struct Captured {
  RunLinks links;
  std::vector<double> bandwidth;  // per link, bytes/s
  std::vector<LinkTier> tier;
};

ScenarioResult run_with_links(const std::string& yaml, Captured& c) {
  ScenarioOptions o;
  o.on_run = [&c](const ScenarioView& v) {
    c.links = run_links(v);
    for (size_t l = 0; l < v.cluster.links().size(); ++l) {
      c.bandwidth.push_back(v.cluster.link(static_cast<LinkId>(l)).bandwidth.bytes_per_second());
      c.tier.push_back(link_tier(v.cluster, static_cast<LinkId>(l)));
    }
  };
  return run_scenario(parse_scenario_yaml(yaml, "t.yaml"), o);
}

TEST(RunLinks, RingOnTwoServersLoadsFourNicLinks) {
  // Ring all-reduce on n = 2 ranks, GPU 0 of each of two DGX H100 on a rail-optimized fabric,
  // Simple protocol (no wire overhead): each rank sends 2(n-1)/n x S = S bytes to the other, out
  // through its NIC to the rail's leaf and down to the other server's NIC. So in the NIC tier
  // exactly four links (two up, two down) carry S each and the rest nothing; a link's utilisation
  // is its bytes / (bandwidth x makespan).
  Captured c;
  const ScenarioResult r = run_with_links(
      "cluster: dgx-h100-2node\njobs:\n  - servers: 0-1\n    gpus_per_server: 1\n    calls:\n"
      "      - {collective: all_reduce, size: 8M, algo: ring, proto: simple}\n",
      c);
  const double S = 8.0 * 1024 * 1024;
  const auto& nic = c.links.tiers[static_cast<size_t>(LinkTier::NicLinks)];
  // 2 servers x 8 compute NICs (DGX H100 User Guide: eight ConnectX-7 400G ports for the compute
  // fabric), each joined to its leaf both ways: 32 directed links.
  ASSERT_EQ(nic.size(), 32u);
  int loaded = 0;
  for (const LinkHeat& l : nic) {
    if (l.bytes == 0) {
      EXPECT_EQ(l.utilisation, 0);
      continue;
    }
    ++loaded;
    EXPECT_DOUBLE_EQ(l.bytes, S);
    EXPECT_DOUBLE_EQ(l.utilisation, S / (c.bandwidth[static_cast<size_t>(l.link)] * r.makespan.to_s()));
  }
  EXPECT_EQ(loaded, 4);
  // Every link is in some tier.
  size_t all = 0;
  for (const auto& t : c.links.tiers) all += t.size();
  EXPECT_EQ(all, c.bandwidth.size());
  // One job shares nothing.
  ASSERT_EQ(c.links.jobs.size(), 1u);
  EXPECT_TRUE(c.links.jobs[0].shared.empty());
  EXPECT_GE(c.links.jobs[0].used, 6u);  // at least the four NIC links and each GPU's way to its NIC
}

TEST(RunLinks, JobsOnDisjointServersShareOnlyLinksAboveTheLeaves) {
  // Eight DGX H100 on a 4:1 leaf-spine (examples/leafspine-4to1.yaml: 40-port leaves, 32 down, 8
  // up, 4 servers per leaf; `topo` says one spine takes all 16 uplinks). Each of a leaf's 8
  // cables to the spine is its own link each way, so the tier has 2 leaves x 8 cables x 2
  // directions = 32 links. Jobs a and b use different servers under both leaves, so the only
  // links both can cross are those 32.
  Captured c;
  run_with_links(std::string("cluster: ") + GPUFABRIC_SOURCE_DIR +
                     "/examples/leafspine-4to1.yaml\nseed: 1\njobs:\n"
                     "  - {name: a, servers: [0, 1, 4, 5], calls: [{collective: all_reduce, size: 64M, algo: ring}]}\n"
                     "  - {name: b, servers: [2, 3, 6, 7], calls: [{collective: all_reduce, size: 64M, algo: ring}]}\n",
                 c);
  ASSERT_EQ(c.links.tiers[static_cast<size_t>(LinkTier::LeafSpine)].size(), 32u);
  ASSERT_EQ(c.links.tiers[static_cast<size_t>(LinkTier::NicLinks)].size(), 8u * 8 * 2);
  ASSERT_EQ(c.links.jobs.size(), 2u);
  for (const JobLinks& j : c.links.jobs) {
    EXPECT_GT(j.used, j.shared.size());
    for (const LinkHeat& l : j.shared) EXPECT_EQ(c.tier[static_cast<size_t>(l.link)], LinkTier::LeafSpine) << l.from;
    for (size_t i = 1; i < j.shared.size(); ++i) EXPECT_GE(j.shared[i - 1].utilisation, j.shared[i].utilisation);
  }
}

TEST(RunHtml, HostileNamesAreTextAndEveryTierIsDrawn) {
  Captured c;
  ScenarioResult r = run_with_links(
      "cluster: dgx-h100-2node\njobs:\n  - servers: 0-1\n    gpus_per_server: 1\n    calls:\n"
      "      - {collective: all_reduce, size: 8M, algo: ring, proto: simple}\n",
      c);
  r.name = kHostile;
  r.description = kHostile;
  r.jobs[0].name = kHostile;
  const std::string page = run_html(r, c.links, {kHostile, "gpufabric test"});
  EXPECT_EQ(count(page, "<script"), 1u);  // the page's own
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_EQ(page.find("onerror=\""), std::string::npos);
  // One heatmap per tier that has links, a cell per link (no tier here is large enough to bucket).
  size_t tiers = 0, cells = 0;
  for (const auto& t : c.links.tiers) {
    tiers += !t.empty();
    cells += t.size();
  }
  ASSERT_LT(cells, 4096u);
  EXPECT_EQ(count(page, "<svg class=\"heatmap\""), tiers);
  EXPECT_NE(page.find("id=\"heat-nic\""), std::string::npos);
  EXPECT_EQ(count(page, "<rect class=\"cell\""), cells);
}

TEST(DoctorHtml, FindingsWithEvidenceAndHostileTextInert) {
  DoctorReport r;
  r.cluster = kHostile;
  Finding f;
  f.rule = "nic-affinity";
  f.severity = Severity::Critical;
  f.summary = kHostile;
  f.evidence = {"gpu0 crosses the CPU to reach nic0", kHostile};
  f.fix = "move nic0 under pcie0";
  f.predicted = Prediction{"all_reduce", Bytes::gib(1), 16, 40, 80};
  r.findings.push_back(f);
  const std::string page = doctor_html(r, {"gpufabric doctor x", "gpufabric test"});
  EXPECT_EQ(count(page, "<script"), 1u);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_EQ(count(page, "<li>"), 2u);
  EXPECT_NE(page.find("data-severity=\"critical\""), std::string::npos);
  // The after bar is the full 420 px; the before bar half of it (40 of 80 GB/s).
  EXPECT_NE(page.find("width=\"210\" height=\"14\""), std::string::npos);
  EXPECT_NE(page.find("width=\"420\" height=\"14\""), std::string::npos);
  EXPECT_NE(page.find("(2.00x)"), std::string::npos);
}

}  // namespace
}  // namespace gf::html
