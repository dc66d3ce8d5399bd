// The trace writer keeps transfer slices and arrows as records and formats them in write()
// (src/report/trace.hpp): the text must not depend on when or how often it is written, and an
// arrow's head must land on the slice it was recorded after.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <tuple>

#include "collective/algorithm.hpp"
#include "config/presets.hpp"
#include "engine/executor.hpp"
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
  ScheduleRun run;
  explicit Ring(int gpus)
      : comm(make_communicator(one_server(), router, 1, gpus)), s(find_algorithm("ring")->build(comm, call(), {Protocol::Simple, 2})) {
    std::unique_ptr<Model> model = make_model("analytical", one_server());
    run = run_schedule(s, comm, router, *model, 0, RoutingPolicy::Ecmp);
  }
  static CollectiveCall call() {
    CollectiveCall c;
    c.kind = CollectiveKind::AllReduce;
    c.bytes = Bytes::mib(1);
    return c;
  }
};

TEST(TraceRecords, WritingTwiceGivesTheSameTextAndCount) {
  // Two calls, the second 1 ms later on the timeline: write() formats the same records each time.
  Ring r(8);
  TraceWriter w(r.comm, r.router, {});
  w.add_call("all_reduce 1 MiB", r.s, r.run, Time::zero(), 0, RoutingPolicy::Ecmp);
  w.add_call("all_reduce 1 MiB", r.s, r.run, Time::us(1000), 0, RoutingPolicy::Ecmp);
  std::ostringstream a, b;
  const size_t na = w.write(a), nb = w.write(b);
  EXPECT_EQ(a.str(), b.str());
  EXPECT_EQ(na, nb);
  EXPECT_EQ(nlohmann::json::parse(a.str())["traceEvents"].size(), na);
}

TEST(TraceRecords, EachArrowEndsAtTheStartOfTheSliceItWaitsOn) {
  // Ring all-reduce, n = 8, C = 2: 208 arrows a call (trace_cost_test.cpp derives it), so two
  // calls give flow ids 1..416, each once as "s" and once as "f", and each "f" sits at the
  // (pid, tid, ts) of a transfer slice: the slice that waits.
  Ring r(8);
  TraceWriter w(r.comm, r.router, {});
  w.add_call("all_reduce 1 MiB", r.s, r.run, Time::zero(), 0, RoutingPolicy::Ecmp);
  w.add_call("all_reduce 1 MiB", r.s, r.run, Time::us(1000), 0, RoutingPolicy::Ecmp);
  const nlohmann::json file = w.finish();
  std::map<std::tuple<int64_t, int64_t, double>, int> slice_starts;
  std::map<uint64_t, int> starts, finishes;
  std::map<uint64_t, std::tuple<int64_t, int64_t, double>> heads;
  for (const auto& e : file["traceEvents"]) {
    if (e["ph"] == "X" && e["args"].contains("bytes"))
      ++slice_starts[{e["pid"].get<int64_t>(), e["tid"].get<int64_t>(), e["ts"].get<double>()}];
    if (e["ph"] == "s") ++starts[e["id"].get<uint64_t>()];
    if (e["ph"] == "f") {
      ++finishes[e["id"].get<uint64_t>()];
      heads[e["id"].get<uint64_t>()] = {e["pid"].get<int64_t>(), e["tid"].get<int64_t>(), e["ts"].get<double>()};
    }
  }
  ASSERT_EQ(starts.size(), 416u);
  ASSERT_EQ(finishes.size(), 416u);
  EXPECT_EQ(starts.begin()->first, 1u);
  EXPECT_EQ(starts.rbegin()->first, 416u);
  for (const auto& [id, n] : starts) EXPECT_EQ(n, 1) << id;
  for (const auto& [id, n] : finishes) EXPECT_EQ(n, 1) << id;
  for (const auto& [id, head] : heads) EXPECT_TRUE(slice_starts.count(head)) << "arrow " << id;
}

}  // namespace
}  // namespace gf
