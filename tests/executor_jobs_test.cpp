// Several jobs on one model (engine/job_runner): contention between jobs is real, jobs that share
// nothing do not disturb each other, start times and repetitions shift time as stated.
#include <gtest/gtest.h>

#include <vector>

#include "collective/algorithm.hpp"
#include "config/presets.hpp"
#include "model/flow/flow_model.hpp"
#include "model/model_factory.hpp"
#include "model/transfer_cost.hpp"
#include "test_clusters.hpp"
#include "engine/executor.hpp"
#include "engine/job_runner.hpp"
#include "engine/transfer_routes.hpp"

using namespace gf;

namespace {

// Two GPUs and one NDR NIC under one PCIe Gen5 switch; servers on one network switch. Nodes in
// order: gpu0, gpu1, pcie0, nic0.
ServerTemplate two_gpu_server() {
  ServerTemplate t = gftest::small_server(1);
  t.name = "test-2gpu";
  t.nodes.insert(t.nodes.begin() + 1, {"gpu1", NodeKind::Gpu, 0, -1, "", "", ""});
  // Indices after the insert: gpu0 0, gpu1 1, pcie0 2, nic0 3.
  t.links = {{0, 2, "pcie-gen5-x16", 1}, {1, 2, "pcie-gen5-x16", 1}, {3, 2, "pcie-gen5-x16", 1}};
  return t;
}

// One transfer of `bytes` from rank 0 to rank 1, with no NCCL latencies: its time is the path's
// latency plus its wire time.
Schedule one_transfer(Bytes bytes) {
  Schedule s("test", 2, 1, Protocol::Simple);
  Transfer t;
  t.src = 0;
  t.dst = 1;
  t.bytes = bytes;
  s.add(t);
  return s;
}

Job job_of(const std::string& name, const Schedule& s, const Communicator& c, Time start = Time::zero(), int repeat = 1,
           Time gap = Time::zero()) {
  Job j;
  j.name = name;
  j.calls.push_back({&s, &c, gap, name});
  j.start = start;
  j.repeat = repeat;
  return j;
}

}  // namespace

TEST(ExecutorJobs, DisjointJobsTakeTheirSoloTime) {
  // Two DGX H100, one 8-GPU all-reduce inside each server: the two jobs' routes stay inside their
  // own servers (NVLink through each server's NVSwitch chips), so no link is shared, the flow
  // model's max-min sharing splits into independent components and each job's rates -- hence its
  // time, to the picosecond -- are exactly those it has alone.
  Cluster c = build_cluster(resolve_cluster("dgx-h100-2node"));
  Router router(c);
  const std::vector<int64_t> s0{0}, s1{1};
  const std::vector<int> all{0, 1, 2, 3, 4, 5, 6, 7};
  Communicator a = make_communicator(c, router, s0, all), b = make_communicator(c, router, s1, all);
  CollectiveCall call;
  call.bytes = Bytes::mib(64);
  Schedule sa = find_algorithm("ring")->build(a, call, {Protocol::Simple, 4});
  Schedule sb = find_algorithm("ring")->build(b, call, {Protocol::Simple, 4});
  for (const char* model_name : {"flow", "analytical"}) {
    SCOPED_TRACE(model_name);
    auto solo_model = make_model(model_name, c);
    const Time solo = run_schedule(sa, a, router, *solo_model).duration;
    auto model = make_model(model_name, c);
    std::vector<Job> jobs{job_of("a", sa, a), job_of("b", sb, b)};
    JobsRun r = run_jobs(jobs, router, *model);
    EXPECT_EQ(r.jobs[0].calls[0][0].duration(), solo);
    EXPECT_EQ(r.jobs[1].calls[0][0].duration(), solo);
    EXPECT_EQ(r.makespan, solo);
  }
}

TEST(ExecutorJobs, TwoJobsOnOneSharedLinkTakeTwiceTheWireTime) {
  // Two servers of two GPUs and one NIC. Job a sends S from gpu0 of server 0 to gpu0 of server 1,
  // job b from gpu1 to gpu1. Each route: gpu -> pcie0 -> nic0 -> switch -> nic0 -> pcie0 -> gpu;
  // the two share every link but the first and last (their GPUs' own PCIe links).
  // Capacities (ModelParams defaults): NDR NIC 400 Gb/s = 50 GB/s x net efficiency 0.92 = 46 GB/s;
  // PCIe Gen5 x16 16 x 3.938 = 63.0 GB/s x NCCL's 24/31.5 = 48.0 GB/s. The NIC links are the
  // bottleneck: alone a flow gets 46 GB/s, together max-min gives each 23 GB/s. Latency (alpha:
  // the path's, as no NCCL step latency is set) is not shared, so
  //   solo   = alpha + S / 46e9,   shared = alpha + S / 23e9 = alpha + 2 (solo - alpha).
  Cluster c = build_cluster(gftest::spec_of(two_gpu_server(), 2, "single_switch"));
  Router router(c);
  const std::vector<int64_t> servers{0, 1};
  const std::vector<int> first{0}, second{1};
  Communicator a = make_communicator(c, router, servers, first), b = make_communicator(c, router, servers, second);
  const Bytes S = Bytes::mib(64);
  Schedule sa = one_transfer(S), sb = one_transfer(S);
  const Time alpha = TransferCost(c, {}).alpha(to_model_transfer(sa, 0, a, router, 0));

  FlowModel solo_model(c);
  const Time solo = run_schedule(sa, a, router, solo_model).duration;
  const double wire_s = static_cast<double>(S.count()) / 46e9;
  EXPECT_NEAR((solo - alpha).to_s(), wire_s, 1e-12);

  FlowModel model(c);
  std::vector<Job> jobs{job_of("a", sa, a), job_of("b", sb, b)};
  JobsRun r = run_jobs(jobs, router, model);
  for (int j = 0; j < 2; ++j) {
    EXPECT_NEAR((r.jobs[static_cast<size_t>(j)].calls[0][0].duration() - alpha).to_s(), 2 * wire_s, 2e-12);
  }
  // Sequential instead of together (b starts when a would have ended): no contention, solo times.
  FlowModel later_model(c);
  std::vector<Job> apart{job_of("a", sa, a), job_of("b", sb, b, solo)};
  JobsRun r2 = run_jobs(apart, router, later_model);
  EXPECT_EQ(r2.jobs[0].calls[0][0].duration(), solo);
  EXPECT_EQ(r2.jobs[1].calls[0][0].duration(), solo);
  EXPECT_EQ(r2.makespan, solo + solo);
}

TEST(ExecutorJobs, LateStartAndRepetitionsShiftBySoloTimes) {
  // On an otherwise idle fabric a job starting at t0 with R repetitions and gap g runs call r over
  // [t0 + r (solo + g), t0 + r (solo + g) + solo]: ends at t0 + R solo + (R - 1) g.
  Cluster c = build_cluster(resolve_cluster("dgx-h100-2node"));
  Router router(c);
  Communicator comm = make_communicator(c, router, 2, 8);
  CollectiveCall call;
  call.bytes = Bytes::mib(16);
  Schedule s = find_algorithm("ring")->build(comm, call, {Protocol::Simple, 8});
  FlowModel solo_model(c);
  const Time solo = run_schedule(s, comm, router, solo_model).duration;
  const Time t0 = Time::us(250), gap = Time::us(7);
  const int R = 3;
  FlowModel model(c);
  std::vector<Job> jobs{job_of("a", s, comm, t0, R, gap)};
  JobsRun r = run_jobs(jobs, router, model);
  ASSERT_EQ(r.jobs[0].calls[0].size(), static_cast<size_t>(R));
  for (int k = 0; k < R; ++k) {
    const CallSpan& span = r.jobs[0].calls[0][static_cast<size_t>(k)];
    EXPECT_EQ(span.start, t0 + (solo + gap) * k);
    EXPECT_EQ(span.duration(), solo);
  }
  EXPECT_EQ(r.jobs[0].end, t0 + solo * R + gap * (R - 1));
  EXPECT_EQ(r.makespan, r.jobs[0].end);
}

TEST(ExecutorJobs, RunsAreBitIdenticalAndRejectEmptyJobs) {
  Cluster c = build_cluster(resolve_cluster("dgx-h100-2node"));
  Router router(c);
  Communicator comm = make_communicator(c, router, 2, 8);
  CollectiveCall call;
  call.bytes = Bytes::mib(4);
  Schedule s = find_algorithm("ring")->build(comm, call, {Protocol::Simple, 4});
  std::vector<Job> jobs{job_of("a", s, comm, Time::zero(), 2), job_of("b", s, comm, Time::us(3), 2)};
  FlowModel m1(c), m2(c);
  JobsRun r1 = run_jobs(jobs, router, m1), r2 = run_jobs(jobs, router, m2);
  for (size_t j = 0; j < 2; ++j)
    for (size_t k = 0; k < 2; ++k) {
      EXPECT_EQ(r1.jobs[j].calls[0][k].start, r2.jobs[j].calls[0][k].start);
      EXPECT_EQ(r1.jobs[j].calls[0][k].end, r2.jobs[j].calls[0][k].end);
    }
  EXPECT_EQ(m1.carried_bytes(), m2.carried_bytes());
  Job empty;
  empty.name = "empty";
  std::vector<Job> bad{empty};
  FlowModel m3(c);
  EXPECT_THROW(run_jobs(bad, router, m3), std::invalid_argument);
}
