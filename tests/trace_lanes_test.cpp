// `--trace`'s transfer lanes (issue 22): a transfer slice that would partially overlap another on
// its channel track goes to a lane beside it, the first where it nests, so that every track's
// slices nest as the Trace Event Format wants (viewers drop slices that do not:
// google/perfetto#4280), and arrows follow the slices they join.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "collective/algorithm.hpp"
#include "config/presets.hpp"
#include "engine/executor.hpp"
#include "model/model_factory.hpp"
#include "report/trace.hpp"
#include "trace_well_formed.hpp"
#include "workload/sweep.hpp"

namespace gf {
namespace {

const Cluster& one_server() {
  static const Cluster keep = build_cluster(resolve_cluster("dgx-h100", 1));
  return keep;
}

TEST(TraceLanes, ATransferOverlappingAnotherPartlyGoesToTheFirstLaneWhereItNests) {
  // Rank 0, channel 0 (flow model, one NVSwitch server):
  //   A (step 0, 8 MiB to rank 1) starts at 0;
  //   C (rank 2 -> 3, 64 KiB) starts at 0 and ends first;
  //   B (step 1, 8 MiB to rank 1) waits for C: it starts inside A and, sharing rank 0's link with
  //     A, ends after it (asserted below): A and B overlap partly;
  //   D (step 2, 8 MiB to rank 1) waits for A: it starts at A's end, inside B.
  // Taken by start: A (0) opens the channel track; B (fin C) is inside A there and ends after it,
  // so it goes to lane 2, "rank 0 channel 0 (2)"; D (fin A) starts when A has ended, so the
  // channel track is free again and D goes back to it, though it overlaps B (on another track).
  // The arrow C -> B ends on B's lane at B's start; A -> D, on one channel, has none.
  Router router(one_server());
  const Communicator comm = make_communicator(one_server(), router, 1, 4);
  Schedule s("hand", 4, 1, Protocol::Simple);
  const TransferId a = s.add(Transfer{0, 1, Bytes::mib(8), Bytes(0), 0, 0});
  const TransferId c = s.add(Transfer{2, 3, Bytes::kib(64), Bytes(0), 0, 0});
  const TransferId b = s.add(Transfer{0, 1, Bytes::mib(8), Bytes(0), 0, 1}, {c});
  s.add(Transfer{0, 1, Bytes::mib(8), Bytes(0), 0, 2}, {a});  // D
  std::unique_ptr<Model> model = make_model("flow", one_server());
  const ScheduleRun run = run_schedule(s, comm, router, *model, 0);
  const auto fin = [&](TransferId id) { return run.finish[static_cast<size_t>(id)]; };
  ASSERT_LT(fin(c), fin(a));  // B starts inside A ...
  ASSERT_GT(fin(b), fin(a));  // ... and ends after it, so D (from fin A) starts inside B
  TraceWriter w(comm, router, {});
  w.add_call("hand", s, run, Time::zero(), 0, RoutingPolicy::Ecmp);
  const nlohmann::json file = w.finish();
  expect_well_formed(file);
  std::map<int64_t, std::string> names;
  std::map<int, int64_t> send_tid;  // rank 0's sends by step
  std::map<int, double> send_at;
  int64_t arrow_head = -1;
  double arrow_at = -1;
  for (const auto& e : file["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") names[e["tid"].get<int64_t>()] = e["args"]["name"];
    if (e["ph"] == "f") {
      arrow_head = e["tid"];
      arrow_at = e["ts"];
    }
    if (e["ph"] == "X" && e["name"] == "send rank 0 -> rank 1") {
      send_tid[e["args"]["step"].get<int>()] = e["tid"];
      send_at[e["args"]["step"].get<int>()] = e["ts"];
    }
  }
  ASSERT_EQ(send_tid.size(), 3u);
  EXPECT_EQ(names[send_tid[0]], "rank 0 channel 0");
  EXPECT_EQ(names[send_tid[1]], "rank 0 channel 0 (2)");
  EXPECT_EQ(send_tid[2], send_tid[0]);
  EXPECT_NEAR(send_at[2], fin(a).to_s() * 1e6, 1e-6);  // D from A's end
  EXPECT_EQ(arrow_head, send_tid[1]);  // the one arrow, C -> B
  EXPECT_NEAR(arrow_at, fin(c).to_s() * 1e6, 1e-6);
  EXPECT_EQ(file["otherData"]["transfer_slices_left_out"], 0);
}

TEST(TraceLanes, EveryTrackOfARingSweepNests) {
  // Ring all-reduce on two 8-GPU servers under the flow model, LL and Simple, 64 KiB to 256 MiB:
  // the inter-server sends of consecutive steps overlap as pipelined chunks, which on one track
  // would partially overlap (the main sweep's 15.6 % of transfer slices, docs/reports.md). Every
  // track of the file must nest, and the lanes must have been needed (else the test shows nothing).
  static const Cluster keep = build_cluster(resolve_cluster("dgx-h100", 2));
  Router router(keep);
  const Communicator comm = make_communicator(keep, router, 2, 8);
  for (const char* proto : {"ll", "simple"}) {
    SweepOptions o;
    o.call.kind = CollectiveKind::AllReduce;
    o.min_bytes = Bytes::kib(64);
    o.max_bytes = Bytes::mib(256);
    o.factor = 16;
    o.algo = "ring";
    o.proto = proto;
    TraceWriter w(comm, router, {});
    Time at = Time::zero();
    o.on_run = [&](const SweepRow& row, const Schedule& sched, const ScheduleRun& run, RouteCache& routes) {
      w.add_call("all_reduce " + to_string(row.size), sched, run, at, o.seed, o.routing, &routes);
      at = at + run.duration + Time::us(10);
    };
    run_sweep(comm, router, o);
    const nlohmann::json file = w.finish();
    expect_well_formed(file);
    size_t lanes = 0;
    for (const auto& e : file["traceEvents"])
      if (e["ph"] == "M" && e["name"] == "thread_name" && e["args"]["name"].get<std::string>().ends_with(" (2)") &&
          e["args"]["name"].get<std::string>().find("steps") == std::string::npos)
        ++lanes;
    EXPECT_GT(lanes, 0u) << proto;
  }
}

}  // namespace
}  // namespace gf
