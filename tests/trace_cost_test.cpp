// What `perf --trace` keeps while staying cheap (issue 22: at most 20 % of the run): arrows only
// where a transfer waits for one on another track, the run's own routes drawn without routing the
// call again, and link counters for the chosen links only.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "collective/algorithm.hpp"
#include "config/presets.hpp"
#include "engine/executor.hpp"
#include "engine/transfer_routes.hpp"
#include "model/model_factory.hpp"
#include "report/trace.hpp"

namespace gf {
namespace {

const Cluster& one_server() {
  static const Cluster keep = build_cluster(resolve_cluster("dgx-h100", 1));
  return keep;
}

struct Ring {
  Router router{one_server()};
  Communicator comm;
  Schedule s;
  std::optional<RouteCache> routes;  // the run's, when it is handed one
  ScheduleRun run;
  explicit Ring(int gpus, bool share_routes = false)
      : comm(make_communicator(one_server(), router, 1, gpus)),
        s(find_algorithm("ring")->build(comm, call(), {Protocol::Simple, 2})) {
    if (share_routes) routes.emplace(s, comm, router, 0, RoutingPolicy::Ecmp);
    std::unique_ptr<Model> model = make_model("analytical", one_server());
    run = run_schedule(s, comm, router, *model, 0, RoutingPolicy::Ecmp, routes ? &*routes : nullptr);
  }
  static CollectiveCall call() {
    CollectiveCall c;
    c.kind = CollectiveKind::AllReduce;
    c.bytes = Bytes::mib(1);
    return c;
  }
};

std::string text_of(const TraceWriter& w) {
  std::ostringstream out;
  w.write(out);
  return out.str();
}

TEST(TraceCost, RingArrowsJoinEachSendToTheNextRanksSendOnly) {
  // Ring all-reduce on n = 8 GPUs, C = 2 channels: 2(n - 1) = 14 steps per (rank, channel) track.
  // A send of step k >= 1 waits for the send it receives (the previous rank's step k - 1: another
  // track), and from step 8 on also for its own step k - 8 (NCCL_STEPS = 8 slots reused; same
  // track, which the track's order already shows). Arrows: n C (2(n - 1) - 1) = 8 x 2 x 13 = 208,
  // none of them within one track.
  Ring r(8);
  TraceWriter w(r.comm, r.router, {});
  w.add_call("all_reduce 1 MiB", r.s, r.run, Time::zero(), 0, RoutingPolicy::Ecmp);
  const nlohmann::json file = w.finish();
  std::map<uint64_t, std::pair<int64_t, int64_t>> from;  // flow id -> (pid, tid) of its start
  size_t finishes = 0;
  for (const auto& e : file["traceEvents"]) {
    if (e["ph"] == "s") from[e["id"].get<uint64_t>()] = {e["pid"].get<int64_t>(), e["tid"].get<int64_t>()};
    if (e["ph"] != "f") continue;
    ++finishes;
    const auto it = from.find(e["id"].get<uint64_t>());
    ASSERT_NE(it, from.end());
    EXPECT_NE(it->second.second / 1024, e["tid"].get<int64_t>() / 1024) << e.dump();  // another rank
  }
  EXPECT_EQ(from.size(), 208u);
  EXPECT_EQ(finishes, 208u);
}

TEST(TraceCost, TheRunsRouteCacheDrawsTheSameFileAsRoutingAgain) {
  // Handing the trace the cache the run routed with must change nothing in the file.
  Ring plain(4);
  TraceWriter a(plain.comm, plain.router, {});
  a.add_call("all_reduce 1 MiB", plain.s, plain.run, Time::zero(), 0, RoutingPolicy::Ecmp);
  Ring shared(4, true);
  TraceWriter b(shared.comm, shared.router, {});
  b.add_call("all_reduce 1 MiB", shared.s, shared.run, Time::zero(), 0, RoutingPolicy::Ecmp, &*shared.routes);
  EXPECT_EQ(text_of(a), text_of(b));
}

TEST(TraceCost, OneLinkCounterCarriesBothChannelsRates) {
  // --trace-links top:1: one counter track. On one DGX H100 every GPU sends one 128 KiB chunk per
  // channel per step (ring all-reduce, n = 4, C = 2: S / (n C) each), both channels in step
  // together. A GPU's 18 NVLinks reach the 4 NVSwitch chips as 5 + 4 + 4 + 5 (DGX H100 user
  // guide; board_hgx8.cpp), so a send is spread over them in those shares and the busiest link,
  // a 5-lane one, carries 5/18 of each: its counter is 5/18 x 2 x 131072 B over one step's
  // duration from 0 until the 6 steps end, then 0.
  Ring r(4);
  TraceOptions o;
  o.top_links = 1;
  TraceWriter w(r.comm, r.router, o);
  w.add_call("all_reduce 1 MiB", r.s, r.run, Time::zero(), 0, RoutingPolicy::Ecmp);
  const nlohmann::json file = w.finish();
  double step_us = -1;
  std::set<std::string> names;
  std::vector<std::pair<double, double>> samples;  // (ts us, GB/s)
  for (const auto& e : file["traceEvents"]) {
    if (e["ph"] == "X" && e["name"].get<std::string>().rfind("send", 0) == 0) step_us = e["dur"].get<double>();
    if (e["ph"] == "C") {
      names.insert(e["name"].get<std::string>());
      samples.push_back({e["ts"].get<double>(), e["args"]["rate"].get<double>()});
    }
  }
  ASSERT_EQ(names.size(), 1u);
  ASSERT_GT(step_us, 0);
  ASSERT_GE(samples.size(), 2u);
  const double expect = 5.0 / 18.0 * 2 * 131072 / (step_us * 1e-6) / 1e9;
  EXPECT_NEAR(samples.front().first, 0, 1e-6);
  for (size_t i = 0; i + 1 < samples.size(); ++i) EXPECT_NEAR(samples[i].second, expect, expect * 1e-9) << i;
  EXPECT_NEAR(samples.back().first, 6 * step_us, 1e-3);
  EXPECT_EQ(samples.back().second, 0);
  EXPECT_EQ(file["otherData"]["link_counters"], 1);
}

}  // namespace
}  // namespace gf
