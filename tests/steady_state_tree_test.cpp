// Steady-state tree, NVLS tree and CollNet forms (steady_tree.cpp, steady_collnet.cpp) against
// their step-by-step schedules at small n: the same bytes rank by rank, and run times within the
// pipeline-fill bound of collective/steady_state.hpp on both models.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "algorithm_check.hpp"
#include "collective/steady_state.hpp"
#include "collective/trees.hpp"
#include "model/analytical/analytical_model.hpp"
#include "model/flow/flow_model.hpp"
#include "engine/executor.hpp"

using namespace gf;
using algocheck::call;
using algocheck::channels;

namespace {

// The algorithms whose steady form this file checks (ring's is steady_state_ring_test.cpp).
struct Form {
  const char* name;
  Schedule steady(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt) const {
    return algocheck::algo(name).build_steady(comm, call, opt);
  }
};
const Form kForms[] = {{"tree"}, {"nvlstree"}, {"collnet_direct"}, {"collnet_chain"}};

double run_us(const Schedule& s, const algocheck::Setup& env, bool flow) {
  AnalyticalModel analytical(env.cluster);
  FlowModel flowm(env.cluster);
  Model& m = flow ? static_cast<Model&>(flowm) : static_cast<Model&>(analytical);
  return run_schedule(s, env.comm, env.router, m).duration.to_us();
}

// Bytes rank r reduces on arrival, over every transfer into it.
int64_t reduced_into(const Schedule& s, Rank r) {
  int64_t b = 0;
  for (const Transfer& t : s.transfers()) b += t.dst == r ? t.reduce.count() : 0;
  return b;
}

}  // namespace

TEST(SteadyStateTree, EveryRankSendsReceivesAndReducesWhatTheStepByStepFormDoes) {
  auto env = algocheck::setup("dgx-h100", 4, 8);
  // 64 MiB - 4,112 bytes: uneven over channels, slices, halves and chunks (and below 8 NCCL NVLS
  // chunks per half-slice, where nvlstree's build() is still step by step).
  const auto c = call(CollectiveKind::AllReduce, (int64_t{64} << 20) - 4112);
  for (const Form& f : kForms) {
    Schedule step = algocheck::algo(f.name).build(env->comm, c, channels(4));
    Schedule steady = f.steady(env->comm, c, channels(4));
    EXPECT_LT(steady.size(), step.size()) << f.name;
    EXPECT_EQ(steady.depth(), 1) << f.name;
    for (Rank r = 0; r < env->comm.nranks; ++r) {
      EXPECT_EQ(steady.bytes_sent(r), step.bytes_sent(r)) << f.name << " rank " << r;
      EXPECT_EQ(steady.bytes_received(r), step.bytes_received(r)) << f.name << " rank " << r;
      EXPECT_EQ(reduced_into(steady, r), reduced_into(step, r)) << f.name << " rank " << r;
    }
  }
}

TEST(SteadyStateTree, EstimatesAreTheStepByStepSizes) {
  auto env = algocheck::setup("dgx-h100", 4, 8);
  const auto c = call(CollectiveKind::AllReduce, int64_t{64} << 20);
  EXPECT_EQ(algocheck::algo("tree").step_transfers(env->comm, c, 4), static_cast<int64_t>(algocheck::algo("tree").build(env->comm, c, channels(4)).size()));
  EXPECT_EQ(algocheck::algo("nvlstree").step_transfers(env->comm, c, 4), static_cast<int64_t>(algocheck::algo("nvlstree").build(env->comm, c, channels(4)).size()));
  EXPECT_EQ(algocheck::algo("collnet_direct").step_transfers(env->comm, c, 4), static_cast<int64_t>(algocheck::algo("collnet_direct").build(env->comm, c, channels(4)).size()));
  EXPECT_EQ(algocheck::algo("collnet_chain").step_transfers(env->comm, c, 4), static_cast<int64_t>(algocheck::algo("collnet_chain").build(env->comm, c, channels(4)).size()));
}

TEST(SteadyStateTree, RunTimeIsWithinThePipelineFillOfTheStepByStepForm) {
  // Step by step, K chunks cross a critical path of d hops in (K + d - 1) chunk-steps: the first
  // chunk's trip fills the pipeline. The steady form charges the same latency but moves each
  // edge's K chunks back to back, so its bandwidth term leaves out the (d - 1) fill chunk-steps:
  // it is faster by at most (d - 1) / (K + d - 1) of the step-by-step time, and not slower by
  // more than rounding its latency up to whole steps (< one step: 1 / (K + d - 1)).
  // 4 DGX H100, 64 MiB, 4 channels: K = 8 chunks on every form here (each chunk >= 8 KiB).
  auto env = algocheck::setup("dgx-h100", 4, 8);
  const auto c = call(CollectiveKind::AllReduce, int64_t{64} << 20);
  const int K = 8;
  // Critical-path hops d: tree: up and down the rank tree (7 chain hops + 2 server-tree levels);
  // nvlstree: switch reduce, 2 x 2 tree levels, multicast; collnet_direct: scatter, network,
  // broadcast; collnet_chain: 7 hops up, network, 7 down.
  const int height = tree_height(tree_rank_parents(env->comm, 0, 0));
  const std::pair<const char*, int> depth[] = {
      {"tree", 2 * height}, {"nvlstree", 2 + 2 * 2}, {"collnet_direct", 3}, {"collnet_chain", 2 * 7 + 1}};
  for (const Form& f : kForms) {
    int d = 0;
    for (const auto& [name, hops] : depth)
      if (std::string(name) == f.name) d = hops;
    const double faster = static_cast<double>(d - 1) / (K + d - 1), slower = 1.0 / (K + d - 1);
    for (bool flow : {false, true}) {
      const double step = run_us(algocheck::algo(f.name).build(env->comm, c, channels(4)), *env, flow);
      const double steady = run_us(f.steady(env->comm, c, channels(4)), *env, flow);
      EXPECT_GE(steady, step * (1 - faster)) << f.name << (flow ? " flow" : " analytical");
      // CollNet direct breaks the premise: its steady form adds the whole latency path (2 NVLink
      // steps of 3.7 us + 8 network steps of 31 us = 255 us) to the bandwidth time, while step by
      // step the 4 channels' chunks hide one's latency behind another's transfer on the head
      // GPU's NVLink; measured +20.6 % here (docs/models.md, steady-state forms), held to 25 %.
      const double over = std::string(f.name) == "collnet_direct" ? 0.25 : slower;
      EXPECT_LE(steady, step * (1 + over)) << f.name << (flow ? " flow" : " analytical");
      std::printf("[ steady ] %-15s %-10s step %10.1f us steady %10.1f us (%+.1f%%), fill bound -%.0f%%\n", f.name,
                  flow ? "flow" : "analytical", step, steady, 100.0 * (steady - step) / step, 100 * faster);
    }
  }
}
