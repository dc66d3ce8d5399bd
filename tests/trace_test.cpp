// `perf --trace`: the Trace Event Format file follows the format (slices never go back in time on
// a track, every flow start has its finish, counters are numbers) and shows a ring all-reduce as
// the algorithm runs it.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "collective/algorithm.hpp"
#include "config/presets.hpp"
#include "core/error.hpp"
#include "engine/executor.hpp"
#include "model/model_factory.hpp"
#include "report/trace.hpp"

namespace gf {
namespace {

struct Traced {
  nlohmann::json file;
  Time duration;
};

Traced ring_trace(const TraceOptions& o) {
  // The communicator points at the cluster, so it lives as long as the test binary.
  static const Cluster keep = build_cluster(resolve_cluster("dgx-h100", 1));
  Router router(keep);
  const Communicator comm = make_communicator(keep, router, 1, 4);
  CollectiveCall call;
  call.kind = CollectiveKind::AllReduce;
  call.bytes = Bytes::mib(1);
  const Schedule s = find_algorithm("ring")->build(comm, call, {Protocol::Simple, 2});
  std::unique_ptr<Model> model = make_model("analytical", keep);
  const ScheduleRun run = run_schedule(s, comm, router, *model, 0);
  TraceWriter w(comm, router, o);
  w.add_call("all_reduce 1 MiB", s, run, Time::zero(), 0, RoutingPolicy::Ecmp);
  return {w.finish(), run.duration};
}

TEST(Trace, RingAllReduceOnFourGpusIsSixEqualBackToBackStepsPerChannel) {
  // Ring all-reduce, n = 4 ranks, C = 2 channels, S = 1 MiB: each channel carries S / C and sends
  // it as n chunks of S / (n C) = 128 KiB, in 2(n - 1) = 6 steps (n - 1 reduce-scatter, n - 1
  // all-gather). On one NVSwitch server nothing is shared unevenly, so on each (rank, channel)
  // track the 6 sends take equal time, each starting when the previous one ends, and all of
  // them fit inside the call.
  const Traced t = ring_trace({});
  std::map<int64_t, std::vector<nlohmann::json>> tracks;
  for (const auto& e : t.file["traceEvents"])
    if (e["ph"] == "X" && e["name"].get<std::string>().rfind("send", 0) == 0) tracks[e["tid"].get<int64_t>()].push_back(e);
  ASSERT_EQ(tracks.size(), 4u * 2u);
  for (const auto& [tid, slices] : tracks) {
    ASSERT_EQ(slices.size(), 6u) << tid;
    double at = 0;
    for (const auto& e : slices) {
      EXPECT_EQ(e["args"]["bytes"].get<int64_t>(), 128 * 1024);
      EXPECT_NEAR(e["ts"].get<double>(), at, 1e-6);  // back to back, never earlier than the last
      EXPECT_NEAR(e["dur"].get<double>(), slices[0]["dur"].get<double>(), 1e-6);
      at = e["ts"].get<double>() + e["dur"].get<double>();
    }
    EXPECT_LE(at, t.duration.to_us() + 1e-6);
  }
}

TEST(Trace, EachChannelTrackHasTheRingsSixStepsAroundItsSends) {
  // The same ring: on each (rank, channel) track one slice per algorithm step, 2(n - 1) = 6 of
  // them ("step 0" .. "step 5": n - 1 = 3 reduce-scatter, then 3 all-gather), each holding that
  // step's one send (a rank sends once per step on a channel), so each step spans its send
  // exactly: 6 equal steps back to back, and the sends nest inside them on the same track.
  const Traced t = ring_trace({});
  std::map<int64_t, std::vector<nlohmann::json>> sends, steps;
  for (const auto& e : t.file["traceEvents"]) {
    if (e["ph"] != "X") continue;
    const std::string name = e["name"];
    if (name.rfind("send", 0) == 0) sends[e["tid"].get<int64_t>()].push_back(e);
    if (name.rfind("step ", 0) == 0) steps[e["tid"].get<int64_t>()].push_back(e);
  }
  ASSERT_EQ(steps.size(), 4u * 2u);
  for (auto& [tid, v] : steps) {
    ASSERT_TRUE(sends.count(tid)) << "steps on a track of their own: " << tid;  // the channel's track
    ASSERT_EQ(v.size(), 6u) << tid;
    std::sort(v.begin(), v.end(), [](const nlohmann::json& a, const nlohmann::json& b) { return a["ts"].get<double>() < b["ts"].get<double>(); });
    double at = 0;
    for (size_t k = 0; k < v.size(); ++k) {
      const auto& e = v[k];
      EXPECT_EQ(e["name"], "step " + std::to_string(k));
      EXPECT_EQ(e["args"]["step"].get<int>(), static_cast<int>(k));
      EXPECT_EQ(e["args"]["transfers"].get<int>(), 1);
      EXPECT_EQ(e["args"]["payload"].get<int64_t>(), 128 * 1024);  // S / (n C), as its send
      EXPECT_NEAR(e["ts"].get<double>(), at, 1e-6);
      EXPECT_NEAR(e["ts"].get<double>(), sends[tid][k]["ts"].get<double>(), 1e-6);
      EXPECT_NEAR(e["dur"].get<double>(), sends[tid][k]["dur"].get<double>(), 1e-6);
      at = e["ts"].get<double>() + e["dur"].get<double>();
    }
    EXPECT_LE(at, t.duration.to_us() + 1e-6);
  }
}

TEST(Trace, FollowsTheTraceEventFormat) {
  const Traced t = ring_trace({});
  std::map<uint64_t, double> starts, finishes;
  std::map<std::string, double> counter_at;
  for (const auto& e : t.file["traceEvents"]) {
    const std::string ph = e["ph"];
    ASSERT_TRUE(ph == "X" || ph == "M" || ph == "s" || ph == "f" || ph == "C") << ph;
    if (ph == "X") {
      EXPECT_GE(e["dur"].get<double>(), 0);
    }
    if (ph == "s") starts[e["id"].get<uint64_t>()] = e["ts"].get<double>();
    if (ph == "f") finishes[e["id"].get<uint64_t>()] = e["ts"].get<double>();
    if (ph == "C") {
      const std::string name = e["name"];
      ASSERT_TRUE(e["args"]["rate"].is_number());
      EXPECT_GE(e["args"]["rate"].get<double>(), 0);
      if (counter_at.count(name)) {
        EXPECT_GT(e["ts"].get<double>(), counter_at[name]);  // time goes forward
      }
      counter_at[name] = e["ts"].get<double>();
    }
  }
  ASSERT_FALSE(starts.empty());
  ASSERT_EQ(starts.size(), finishes.size());
  for (const auto& [id, ts] : starts) {
    ASSERT_TRUE(finishes.count(id)) << id;
    EXPECT_LE(ts, finishes[id] + 1e-9);  // an arrow points forward in time
  }
  EXPECT_FALSE(counter_at.empty());
}

TEST(Trace, RankFilterKeepsOnlyThoseTracks) {
  TraceOptions o;
  o.ranks = {{0, 0}};
  o.top_links = 0;
  const Traced t = ring_trace(o);
  for (const auto& e : t.file["traceEvents"]) {
    if (e["ph"] == "X") {
      EXPECT_LT(e["tid"].get<int64_t>(), 1024) << e.dump();  // rank 0's block of track ids
    }
    EXPECT_NE(e["ph"], "C");
  }
}

TEST(Trace, RankAndLinkSpecsAreCheckedWithTheFlagNamed) {
  EXPECT_EQ(parse_rank_ranges("0-15,32", "--trace-ranks"), (std::vector<std::pair<int, int>>{{0, 15}, {32, 32}}));
  EXPECT_THROW(parse_rank_ranges("5-2", "--trace-ranks"), InputError);
  EXPECT_THROW(parse_rank_ranges("a", "--trace-ranks"), InputError);
  EXPECT_EQ(parse_top_links("top:8", "--trace-links"), 8);
  try {
    parse_top_links("8", "--trace-links");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "--trace-links");
  }
}

}  // namespace
}  // namespace gf
