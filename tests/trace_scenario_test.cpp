// `run --trace`: a scenario's timeline follows the Trace Event Format (slice starts never go back
// in time on a track, each process named once) and shows each job's ring as the algorithm runs it.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include "report/scenario_trace.hpp"
#include "workload/scenario.hpp"
#include "workload/scenario_yaml.hpp"

namespace gf {
namespace {

nlohmann::json scenario_trace(const std::string& yaml, ScenarioResult* result = nullptr) {
  nlohmann::json file;
  ScenarioOptions o;
  o.on_run = [&file](const ScenarioView& v) {
    TraceWriter w(v.cluster, v.router, {});
    trace_scenario(w, v);
    file = w.finish();
  };
  ScenarioResult r = run_scenario(parse_scenario_yaml(yaml, "t.yaml"), o);
  if (result) *result = std::move(r);
  return file;
}

// Two jobs, each inside its own DGX H100 (NVLink only, so they share nothing), ring all-reduce
// on 4 GPUs with 2 channels (NCCL_MIN/MAX_NCHANNELS), Simple protocol, 1 MiB, repeated twice.
const char* kTwoJobs =
    "cluster: dgx-h100-2node\nmodel: analytical\njobs:\n"
    "  - {name: a, servers: 0, gpus_per_server: 4, repeat: 2, env: {NCCL_MIN_NCHANNELS: 2, NCCL_MAX_NCHANNELS: 2},"
    " calls: [{collective: all_reduce, size: 1M, algo: ring, proto: simple}]}\n"
    "  - {name: b, servers: 1, gpus_per_server: 4, repeat: 2, env: {NCCL_MIN_NCHANNELS: 2, NCCL_MAX_NCHANNELS: 2},"
    " calls: [{collective: all_reduce, size: 1M, algo: ring, proto: simple}]}\n";

TEST(ScenarioTrace, OneProcessPerJobAndServerAndTheRingsStepsByHand) {
  ScenarioResult r;
  const nlohmann::json t = scenario_trace(kTwoJobs, &r);
  ASSERT_EQ(r.jobs.size(), 2u);
  std::map<int64_t, std::string> processes;
  std::map<std::pair<int64_t, int64_t>, std::vector<nlohmann::json>> sends, steps, calls;
  for (const auto& e : t["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "process_name") {
      ASSERT_FALSE(processes.count(e["pid"].get<int64_t>()));
      processes[e["pid"].get<int64_t>()] = e["args"]["name"];
    }
    if (e["ph"] != "X") continue;
    const auto key = std::make_pair(e["pid"].get<int64_t>(), e["tid"].get<int64_t>());
    const std::string name = e["name"];
    (name.rfind("send", 0) == 0 ? sends : name.rfind("step ", 0) == 0 ? steps : calls)[key].push_back(e);
  }
  // Job a on server 0 (pid 0), job b on server 1 (pid 2^20 + 1), and the link counters' process.
  ASSERT_EQ(processes.size(), 3u);
  EXPECT_EQ(processes[0], "job a: server0");
  EXPECT_EQ(processes[(1 << 20) + 1], "job b: server1");
  // Each of the 4 ranks of each job: a call track with both repetitions, back to back from 0.
  ASSERT_EQ(calls.size(), 8u);
  for (const auto& [key, slices] : calls) {
    ASSERT_EQ(slices.size(), 2u);
    EXPECT_NEAR(slices[0]["ts"].get<double>(), 0, 1e-9);
    EXPECT_NEAR(slices[1]["ts"].get<double>(), slices[0]["dur"].get<double>(), 1e-6);
  }
  // Ring all-reduce, n = 4, C = 2, S = 1 MiB: per (rank, channel) 2(n - 1) = 6 sends of
  // S / (n C) = 128 KiB each, back to back, inside the last repetition's call.
  ASSERT_EQ(sends.size(), 2u * 4 * 2);
  for (const auto& [key, slices] : sends) {
    ASSERT_EQ(slices.size(), 6u);
    const double call_start = calls[{key.first, (key.second / 1024) * 1024}][1]["ts"].get<double>();
    double at = call_start;
    for (const auto& e : slices) {
      EXPECT_EQ(e["args"]["bytes"].get<int64_t>(), 128 * 1024);
      EXPECT_NEAR(e["ts"].get<double>(), at, 1e-6);
      at = e["ts"].get<double>() + e["dur"].get<double>();
    }
    // One step slice per send on the same track (a ring step is one send per channel), over it
    // exactly, in order.
    const std::vector<nlohmann::json>& st = steps[key];
    ASSERT_EQ(st.size(), 6u);
    for (size_t k = 0; k < 6; ++k) {
      const nlohmann::json& step = st[k];
      EXPECT_EQ(step["name"].get<std::string>(), "step " + std::to_string(k));
      EXPECT_NEAR(step["ts"].get<double>(), slices[k]["ts"].get<double>(), 1e-6);
      EXPECT_NEAR(step["dur"].get<double>(), slices[k]["dur"].get<double>(), 1e-6);
    }
  }
  EXPECT_EQ(steps.size(), sends.size());
}

TEST(ScenarioTrace, TimestampsNeverGoBackOnATrack) {
  // The two jobs of examples/two-jobs-oversubscribed.yaml share the spine: transfers slow each
  // other, yet on every track slices start in time order, and counters only move forward.
  const nlohmann::json t = scenario_trace(std::string("cluster: ") + GPUFABRIC_SOURCE_DIR +
                                          "/examples/leafspine-4to1.yaml\nseed: 1\njobs:\n"
                                          "  - {name: a, servers: [0, 1, 4, 5], repeat: 2, calls: [{collective: all_reduce, size: 16M, algo: ring}]}\n"
                                          "  - {name: b, servers: [2, 3, 6, 7], start: 20us, calls: [{collective: all_reduce, size: 16M, algo: ring}]}\n");
  std::map<std::pair<int64_t, int64_t>, double> track_at;
  std::map<std::string, double> counter_at;
  size_t slices = 0;
  for (const auto& e : t["traceEvents"]) {
    const std::string ph = e["ph"];
    ASSERT_TRUE(ph == "X" || ph == "M" || ph == "s" || ph == "f" || ph == "C") << ph;
    if (ph == "X") {
      ++slices;
      const auto key = std::make_pair(e["pid"].get<int64_t>(), e["tid"].get<int64_t>());
      const double ts = e["ts"].get<double>();
      EXPECT_GE(e["dur"].get<double>(), 0);
      // Starts in order on each track (a pipelined ring's chunks may overlap on a channel's track).
      if (track_at.count(key)) {
        EXPECT_GE(ts + 1e-6, track_at[key]) << e.dump();
      }
      track_at[key] = ts;
    }
    if (ph == "C") {
      const std::string name = e["name"];
      ASSERT_TRUE(e["args"]["rate"].is_number());
      if (counter_at.count(name)) {
        EXPECT_GT(e["ts"].get<double>(), counter_at[name]);
      }
      counter_at[name] = e["ts"].get<double>();
    }
  }
  EXPECT_GT(slices, 0u);
  EXPECT_FALSE(counter_at.empty());
}

}  // namespace
}  // namespace gf
