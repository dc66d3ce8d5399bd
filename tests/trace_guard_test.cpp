// The trace's size guard (TraceOptions::max_events, issue 22: "a size guard that says what was
// left out rather than writing gigabytes"): slices over the limit are counted, not written, and
// the file says how many.
#include <gtest/gtest.h>

#include <sstream>

#include "collective/algorithm.hpp"
#include "config/presets.hpp"
#include "engine/executor.hpp"
#include "model/model_factory.hpp"
#include "report/trace.hpp"

namespace gf {
namespace {

TEST(TraceGuard, ALimitOfZeroLeavesOutEveryTransferSliceAndSaysHowMany) {
  // Ring all-reduce on n = 8 GPUs of one server, C = 2 channels: each (rank, channel) sends
  // 2(n - 1) = 14 times, so 8 x 2 x 14 = 224 transfer slices, all over a limit of 0.
  static const Cluster cluster = build_cluster(resolve_cluster("dgx-h100", 1));
  Router router(cluster);
  const Communicator comm = make_communicator(cluster, router, 1, 8);
  CollectiveCall call;
  call.kind = CollectiveKind::AllReduce;
  call.bytes = Bytes::mib(1);
  const Schedule s = find_algorithm("ring")->build(comm, call, {Protocol::Simple, 2});
  std::unique_ptr<Model> model = make_model("analytical", cluster);
  const ScheduleRun run = run_schedule(s, comm, router, *model, 0, RoutingPolicy::Ecmp);
  TraceOptions o;
  o.max_events = 0;
  TraceWriter w(comm, router, o);
  w.add_call("all_reduce 1 MiB", s, run, Time::zero(), 0, RoutingPolicy::Ecmp);
  EXPECT_EQ(w.left_out(), 224u);
  const nlohmann::json file = w.finish();
  EXPECT_EQ(file["otherData"]["transfer_slices_left_out"].get<size_t>(), 224u);
  for (const auto& e : file["traceEvents"]) {
    EXPECT_NE(e["ph"], "s");  // no slice, so no arrow either
    if (e["ph"] == "X") {
      EXPECT_EQ(e["name"], "all_reduce 1 MiB");  // only the call's own slices
    }
  }
}

}  // namespace
}  // namespace gf
