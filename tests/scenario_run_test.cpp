// Scenarios end to end: jobs on one fabric, per-call statistics and the link report.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "workload/scenario_yaml.hpp"
#include "report/scenario_report.hpp"
#include "workload/scenario.hpp"

using namespace gf;

namespace {

ScenarioResult run_text(const std::string& text, const ScenarioOptions& o = {}) {
  return run_scenario(parse_scenario_yaml(text, "t.yaml"), o);
}

const char* kJobA = "  - {name: a, servers: 0, repeat: 2, calls: [{collective: all_reduce, size: 32M}]}\n";
const char* kJobB = "  - {name: b, servers: 1, repeat: 2, calls: [{collective: all_reduce, size: 32M}]}\n";

}  // namespace

TEST(ScenarioRun, JobsOnSeparateServersRunAtTheirSoloSpeed) {
  // Each job stays inside its own DGX H100 (NVLink only): no shared link, so with both jobs each
  // takes exactly the time it takes alone, and the repetitions of one job all take the same time.
  const std::string head = "cluster: dgx-h100-2node\nmodel: flow\njobs:\n";
  ScenarioResult alone = run_text(head + kJobA);
  ScenarioResult both = run_text(head + kJobA + kJobB);
  ASSERT_EQ(both.jobs.size(), 2u);
  const ScenarioCallResult& solo = alone.jobs[0].calls[0];
  EXPECT_EQ(solo.min, solo.max);
  for (const ScenarioJobResult& j : both.jobs) {
    EXPECT_EQ(j.calls[0].mean, solo.mean);
    EXPECT_EQ(j.calls[0].spans.size(), 2u);
    EXPECT_EQ(j.end, solo.mean * 2);  // two back-to-back repetitions from time 0
  }
  // busbw = size / time x 2(n-1)/n with n = 8 ranks.
  const double algbw = 32.0 * 1024 * 1024 / solo.mean.to_s() / 1e9;
  EXPECT_NEAR(solo.algbw_gBps, algbw, algbw * 1e-9);
  EXPECT_NEAR(solo.busbw_gBps, algbw * 2 * 7 / 8, algbw * 1e-9);
  EXPECT_EQ(both.makespan, solo.mean * 2);
}

TEST(ScenarioRun, MostLoadedLinkCarriesWhatTheRingSends) {
  // Ring all-reduce on n = 2 ranks (one GPU on each of two servers), Simple protocol (no wire
  // overhead): each rank sends 2(n-1)/n x S = S bytes in all, every byte through its GPU's own
  // PCIe link to the NICs, so the busiest links carry exactly S = 8 MiB.
  ScenarioOptions all_links;
  all_links.top_links = 1 << 30;
  ScenarioResult r = run_text(
      "cluster: dgx-h100-2node\njobs:\n  - servers: 0-1\n    gpus_per_server: 1\n    calls:\n"
      "      - {collective: all_reduce, size: 8M, algo: ring, proto: simple}\n",
      all_links);
  ASSERT_EQ(r.top_links.size(), r.links_used);
  const double S = 8.0 * 1024 * 1024;
  double most = 0;
  for (size_t i = 0; i < r.top_links.size(); ++i) {
    const LinkUse& l = r.top_links[i];
    most = std::max(most, l.bytes);
    EXPECT_NEAR(l.utilisation, l.bytes / (l.bandwidth.bytes_per_second() * r.makespan.to_s()), 1e-12);
    EXPECT_LE(l.utilisation, 1.0);  // no link carries more than its catalog bandwidth allows
    if (i > 0) {
      EXPECT_LE(l.utilisation, r.top_links[i - 1].utilisation);  // busiest first
    }
    EXPECT_FALSE(l.from.empty());
  }
  EXPECT_NEAR(most, S, 1e-3);
  // --top K keeps the K busiest.
  ScenarioOptions three;
  three.top_links = 3;
  ScenarioResult r3 = run_text(
      "cluster: dgx-h100-2node\njobs:\n  - servers: 0-1\n    gpus_per_server: 1\n    calls:\n"
      "      - {collective: all_reduce, size: 8M, algo: ring, proto: simple}\n",
      three);
  ASSERT_EQ(r3.top_links.size(), 3u);
  EXPECT_EQ(r3.top_links[0].link, r.top_links[0].link);
  EXPECT_EQ(r.jobs[0].calls[0].choice.algorithm, "ring");
}

TEST(ScenarioRun, ReportsInTextAndJson) {
  ScenarioResult r = run_text(std::string("name: demo\ncluster: dgx-h100-2node\nmodel: analytical\njobs:\n") + kJobA);
  const std::string text = scenario_text(r);
  EXPECT_NE(text.find("# scenario demo"), std::string::npos) << text;
  EXPECT_NE(text.find("Most loaded links"), std::string::npos) << text;
  EXPECT_NE(text.find("all_reduce"), std::string::npos) << text;
  nlohmann::json j = scenario_json(r);
  EXPECT_EQ(j["jobs"][0]["name"], "a");
  EXPECT_EQ(j["jobs"][0]["calls"][0]["repetitions"].size(), 2u);
  EXPECT_EQ(j["model"], "analytical");
  EXPECT_TRUE(j["top_links"].is_array());
  // Same input, same output.
  EXPECT_EQ(scenario_text(run_text(std::string("name: demo\ncluster: dgx-h100-2node\nmodel: analytical\njobs:\n") + kJobA)),
            text);
}

TEST(ScenarioRun, SeveralJobsShowTheirTimeAloneAndTheSlowdown) {
  // Two identical jobs on the same 8 GPUs (share_gpus) at the same time: every flow of one has a
  // twin on exactly the same links, so max-min sharing halves each flow's rate and the
  // bandwidth-bound part of the call takes twice as long; the latency part does not double. At
  // 1 GiB the ring's latency terms are under 1% of the time, so the slowdown is 2 within 1%.
  // The alone time is the time of the same job run from a file holding only it.
  const std::string head = "cluster: dgx-h100-2node\nmodel: flow\nshare_gpus: true\njobs:\n";
  const char* a = "  - {name: a, servers: 0, calls: [{collective: all_reduce, size: 1G, algo: ring}]}\n";
  const char* b = "  - {name: b, servers: 0, calls: [{collective: all_reduce, size: 1G, algo: ring}]}\n";
  ScenarioResult solo = run_text(head + a);
  ScenarioResult both = run_text(head + a + b);
  ASSERT_EQ(both.jobs.size(), 2u);
  EXPECT_EQ(solo.jobs[0].calls[0].alone_mean, Time::zero());  // one job: nothing to compare against
  for (const ScenarioJobResult& j : both.jobs) {
    const ScenarioCallResult& k = j.calls[0];
    EXPECT_EQ(k.alone_mean, solo.jobs[0].calls[0].mean);
    EXPECT_NEAR(k.slowdown, 2.0, 0.02);
    EXPECT_NEAR(k.slowdown, k.mean.to_s() / k.alone_mean.to_s(), 1e-12);
  }
  const std::string text = scenario_text(both);
  EXPECT_NE(text.find("alone_us"), std::string::npos);
  EXPECT_NE(text.find("slowdown"), std::string::npos);
  EXPECT_EQ(scenario_text(solo).find("alone_us"), std::string::npos);
}
