// `--trace`'s step slices and, under the packet model, its queue, PFC and ECN counters (issue 22):
// every slice nests on its track, counters are numbers going forward in time, and the counters
// carry the model's own figures for the busiest links.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "collective/algorithm.hpp"
#include "config/presets.hpp"
#include "engine/executor.hpp"
#include "model/model_factory.hpp"
#include "report/trace.hpp"
#include "trace_well_formed.hpp"

namespace gf {
namespace {

const Cluster& one_server() {
  static const Cluster keep = build_cluster(resolve_cluster("dgx-h100", 1));
  return keep;
}

TEST(TraceSteps, StepsWhoseSendsOverlapGoToLanesOfTheirOwn) {
  // Rank 0 sends A (step 0, 8 MiB) at once and B (step 1, 8 MiB) when C (rank 2 -> 3, 64 KiB)
  // ends, all on channel 0: B starts while A still runs and ends after it, so on rank 0's channel
  // track A and B overlap partly and a step slice around each could not nest there. The steps go
  // to "rank 0 channel 0 steps" (step 0) and "... steps (2)" (step 1, which overlaps step 0).
  Router router(one_server());
  const Communicator comm = make_communicator(one_server(), router, 1, 4);
  Schedule s("hand", 4, 1, Protocol::Simple);
  const TransferId a = s.add(Transfer{0, 1, Bytes::mib(8), Bytes(0), 0, 0});
  const TransferId c = s.add(Transfer{2, 3, Bytes::kib(64), Bytes(0), 0, 0});
  const TransferId b = s.add(Transfer{0, 1, Bytes::mib(8), Bytes(0), 0, 1}, {c});
  std::unique_ptr<Model> model = make_model("flow", one_server());
  const ScheduleRun run = run_schedule(s, comm, router, *model, 0);
  const auto fin = [&](TransferId id) { return run.finish[static_cast<size_t>(id)]; };
  ASSERT_LT(fin(c), fin(a));  // B starts inside A ...
  ASSERT_GT(fin(b), fin(a));  // ... and ends after it
  TraceWriter w(comm, router, {});
  w.add_call("hand", s, run, Time::zero(), 0, RoutingPolicy::Ecmp);
  // (A and B themselves overlap partly on the channel track: B goes to a lane of its own,
  // trace_lanes_test.cpp says which.)
  const nlohmann::json file = w.finish();
  expect_well_formed(file);
  std::map<int64_t, std::string> names;
  std::map<int, int64_t> step_tid;
  int64_t send_tid = -1;
  for (const auto& e : file["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") names[e["tid"].get<int64_t>()] = e["args"]["name"];
    if (e["ph"] != "X") continue;
    const std::string name = e["name"];
    if (name == "send rank 0 -> rank 1") send_tid = e["tid"];
    if (name.rfind("step ", 0) == 0 && e["args"]["payload"] == Bytes::mib(8).count())
      step_tid[e["args"]["step"].get<int>()] = e["tid"];
  }
  ASSERT_EQ(step_tid.size(), 2u);
  EXPECT_NE(step_tid[0], send_tid);
  EXPECT_NE(step_tid[1], step_tid[0]);
  EXPECT_EQ(names[step_tid[0]], "rank 0 channel 0 steps");
  EXPECT_EQ(names[step_tid[1]], "rank 0 channel 0 steps (2)");
  EXPECT_EQ(file["otherData"]["step_slices_left_out"], 0);
}

TEST(TraceSteps, TheSizeGuardCountsStepSlicesLeftOut) {
  // Ring all-reduce, n = 4, C = 2: 4 x 2 tracks x 2(n - 1) = 48 steps. A limit that every other
  // event of the file fits under (its events less those 48; no link counters) leaves out the
  // steps, which come after the call's transfers, and counts them.
  Router router(one_server());
  const Communicator comm = make_communicator(one_server(), router, 1, 4);
  CollectiveCall call;
  call.kind = CollectiveKind::AllReduce;
  call.bytes = Bytes::mib(1);
  const Schedule s = find_algorithm("ring")->build(comm, call, {Protocol::Simple, 2});
  std::unique_ptr<Model> model = make_model("analytical", one_server());
  const ScheduleRun run = run_schedule(s, comm, router, *model, 0);
  TraceOptions o;
  o.top_links = 0;
  TraceWriter all(comm, router, o);
  all.add_call("all_reduce 1 MiB", s, run, Time::zero(), 0, RoutingPolicy::Ecmp);
  const size_t n = all.finish()["traceEvents"].size();
  o.max_events = n - 48;
  TraceWriter w(comm, router, o);
  w.add_call("all_reduce 1 MiB", s, run, Time::zero(), 0, RoutingPolicy::Ecmp);
  EXPECT_EQ(w.left_out(), 0u);
  EXPECT_EQ(w.steps_left_out(), 48u);
  EXPECT_EQ(w.finish()["otherData"]["step_slices_left_out"], 48);
}

// The queue counters as written from given port timelines: a timeline for every link of the ring
// (so whichever links are busiest have one), 1 us buckets, at offset 10 us, run end 4.5 us:
//   peak     0, 4160, 8320, 8320, 0    -> (queue peak) bytes: 0 @10, 4160 @11, 8320 @12, 0 @14
//                                         (equal values are not repeated; 0 again at the end)
//   paused   0, 0.5, 1, 0, 0           -> (PFC paused share): 0 @10, 0.5 @11, 1 @12, 0 @13
//   frames   0, 1, 0, 0, 0             -> (PFC pause frames), a running total at each bucket's
//                                         end: 0 @10, 1 @12
//   marks    0, 2, 0, 3, 0             -> (ECN marks): 0 @10, 2 @12, 5 @14
TEST(TraceQueues, CountersFollowThePortTimelinesOfTheBusiestLinks) {
  Router router(one_server());
  const Communicator comm = make_communicator(one_server(), router, 1, 4);
  CollectiveCall call;
  call.kind = CollectiveKind::AllReduce;
  call.bytes = Bytes::mib(1);
  const Schedule s = find_algorithm("ring")->build(comm, call, {Protocol::Simple, 2});
  std::unique_ptr<Model> model = make_model("analytical", one_server());
  const ScheduleRun run = run_schedule(s, comm, router, *model, 0);
  TraceOptions o;
  o.top_links = 2;
  TraceWriter w(comm, router, o);
  w.add_call("all_reduce 1 MiB", s, run, Time::zero(), 0, RoutingPolicy::Ecmp);
  std::vector<PortTimeline> ports;
  for (size_t l = 0; l < one_server().links().size(); ++l) {
    PortTimeline p;
    p.link = static_cast<LinkId>(l);
    p.bucket = Time::us(1);
    p.end = Time::ns(4500);
    p.peak_queue = {0, 4160, 8320, 8320, 0};
    p.paused = {0, 0.5, 1, 0, 0};
    p.pause_frames = {0, 1, 0, 0, 0};
    p.ecn_marks = {0, 2, 0, 3, 0};
    ports.push_back(p);
  }
  w.add_ports(ports, Time::us(10));
  const nlohmann::json file = w.finish();
  expect_well_formed(file);
  // Per counter track (name without the link), the samples of each of the two links.
  std::map<std::string, std::map<std::string, std::vector<std::pair<double, double>>>> got;
  std::set<std::string> rate_links;
  for (const auto& e : file["traceEvents"]) {
    if (e["ph"] != "C") continue;
    const std::string name = e["name"];
    const size_t paren = name.rfind(" (");
    const std::string link = name.substr(0, paren), kind = name.substr(paren);
    if (kind == " (payload GB/s)") {
      rate_links.insert(link);
      continue;
    }
    got[kind][link].push_back({e["ts"].get<double>(), e["args"].begin()->get<double>()});
  }
  ASSERT_EQ(rate_links.size(), 2u);
  using S = std::vector<std::pair<double, double>>;
  const std::map<std::string, S> want = {
      {" (queue peak)", {{10, 0}, {11, 4160}, {12, 8320}, {14, 0}}},
      {" (PFC paused share)", {{10, 0}, {11, 0.5}, {12, 1}, {13, 0}}},
      {" (PFC pause frames)", {{10, 0}, {12, 1}}},
      {" (ECN marks)", {{10, 0}, {12, 2}, {14, 5}}},
  };
  ASSERT_EQ(got.size(), want.size());
  for (const auto& [kind, samples] : want) {
    ASSERT_EQ(got[kind].size(), 2u) << kind;  // the two busiest links, the rate counters' own
    for (const auto& [link, s] : got[kind]) {
      EXPECT_TRUE(rate_links.count(link)) << link;
      EXPECT_EQ(s, samples) << kind << " " << link;
    }
  }
  EXPECT_EQ(file["otherData"]["queue_counters"], 8);
}

TEST(TraceQueues, TheSizeGuardCountsCounterSamplesLeftOut) {
  // A limit of 0: every queue counter sample of the test above (per link 4 + 4 + 2 + 3 = 13, two
  // links) is left out and counted; the payload rate counters stay (they are not under the guard).
  Router router(one_server());
  const Communicator comm = make_communicator(one_server(), router, 1, 4);
  CollectiveCall call;
  call.kind = CollectiveKind::AllReduce;
  call.bytes = Bytes::mib(1);
  const Schedule s = find_algorithm("ring")->build(comm, call, {Protocol::Simple, 2});
  std::unique_ptr<Model> model = make_model("analytical", one_server());
  const ScheduleRun run = run_schedule(s, comm, router, *model, 0);
  TraceOptions o;
  o.top_links = 2;
  o.max_events = 0;
  TraceWriter w(comm, router, o);
  w.add_call("all_reduce 1 MiB", s, run, Time::zero(), 0, RoutingPolicy::Ecmp);
  PortTimeline p;
  p.bucket = Time::us(1);
  p.end = Time::ns(4500);
  p.peak_queue = {0, 4160, 8320, 8320, 0};
  p.paused = {0, 0.5, 1, 0, 0};
  p.pause_frames = {0, 1, 0, 0, 0};
  p.ecn_marks = {0, 2, 0, 3, 0};
  std::vector<PortTimeline> ports;
  for (size_t l = 0; l < one_server().links().size(); ++l) {
    p.link = static_cast<LinkId>(l);
    ports.push_back(p);
  }
  w.add_ports(ports, Time::us(10));
  const nlohmann::json file = w.finish();
  EXPECT_EQ(file["otherData"]["queue_counter_samples_left_out"], 2 * (4 + 4 + 2 + 3));
  for (const auto& e : file["traceEvents"])
    if (e["ph"] == "C") {
      EXPECT_NE(e["name"].get<std::string>().find("(payload GB/s)"), std::string::npos);
    }
}

// A packet-model run end to end: three servers' GPUs 0 send 4 MiB each to server 0's GPU 0 at
// once over 400G RoCE (PFC, DCQCN), so the ToR port into server 0's NIC takes three senders'
// packets at one line rate: it queues, marks and pauses. The trace's counters for the busiest
// links are the model's: the deepest port's queue counter peaks at its deepest level, its ECN
// total is the port's marks, and the pause-frame totals add up to at most the model's pauses.
TEST(TraceQueues, APacketIncastShowsTheModelsQueueMarksAndPauses) {
  static const Cluster cluster = build_cluster(resolve_cluster("meta-llama3-roce", 4));
  Router router(cluster);
  const Communicator comm = make_communicator(cluster, router, 4, 1);
  Schedule s("incast", 4, 1, Protocol::Simple);
  for (int r = 1; r < 4; ++r) s.add(Transfer{r, 0, Bytes::mib(4), Bytes(0), 0, 0});
  std::unique_ptr<Model> model = make_model("packet", cluster);
  ScheduleRun run = run_schedule(s, comm, router, *model, 0);
  run.ports = model->port_timelines();
  const std::vector<PortQueueReport> deepest = model->queue_report(1);
  ASSERT_EQ(deepest.size(), 1u);
  ASSERT_GT(deepest[0].max_queue, 0);
  int64_t model_pauses = 0;
  for (const auto& [k, v] : model->statistics())
    if (k == "pause_frames") model_pauses = v;
  int64_t timeline_peak = 0;
  for (const PortTimeline& p : run.ports)
    if (p.link == deepest[0].link) timeline_peak = *std::max_element(p.peak_queue.begin(), p.peak_queue.end());
  TraceOptions o;
  o.top_links = 8;
  TraceWriter w(comm, router, o);
  w.add_call("incast", s, run, Time::zero(), 0, RoutingPolicy::Ecmp);
  const nlohmann::json file = w.finish();
  expect_well_formed(file);
  const Link& l = cluster.link(deepest[0].link);
  const std::string link = cluster.node_name(l.src) + " -> " + cluster.node_name(l.dst);
  double peak = -1, marks = -1, frames = 0;
  for (const auto& e : file["traceEvents"]) {
    if (e["ph"] != "C") continue;
    const std::string name = e["name"];
    if (name == link + " (queue peak)") peak = std::max(peak, e["args"]["bytes"].get<double>());
    if (name == link + " (ECN marks)") marks = e["args"]["marks"].get<double>();  // the last: the total
    if (name.find(" (PFC pause frames)") != std::string::npos) frames = std::max(frames, e["args"]["frames"].get<double>());
  }
  EXPECT_EQ(peak, static_cast<double>(timeline_peak)) << link;  // held for a positive time
  EXPECT_LE(peak, static_cast<double>(deepest[0].max_queue));
  EXPECT_GT(peak, 0);
  if (deepest[0].ecn_marks > 0) {
    EXPECT_EQ(marks, static_cast<double>(deepest[0].ecn_marks));
  }
  EXPECT_LE(frames, static_cast<double>(model_pauses));
  EXPECT_GT(file["otherData"]["queue_counters"].get<int>(), 0);
}

}  // namespace
}  // namespace gf
