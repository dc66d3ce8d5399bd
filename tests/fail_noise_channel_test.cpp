// The channel named as the holder of a collective over iterations (workload/noise.hpp
// last_channel, count_held_channels): the one whose last transfer ended last.
#include <gtest/gtest.h>

#include <algorithm>

#include <gpufabric/simulation.hpp>

#include "collective/algorithm.hpp"
#include "engine/transfer_routes.hpp"
#include "topology/faults.hpp"
#include "workload/noise.hpp"
#include "workload/sweep.hpp"

namespace {

using gf::Time;

TEST(FailNoiseChannel, TheLastChannelIsTheOneWhoseLastTransferEndsLast) {
  // Transfers 0..5 on channels {0, 1, 2, 0, 1, 2}: channel ends are max(1, 4) = 4, max(2, 9) = 9,
  // max(3, 5) = 5 us, so channel 1 ended last.
  const std::vector<int> channel_of{0, 1, 2, 0, 1, 2};
  EXPECT_EQ(gf::last_channel({Time::us(1), Time::us(2), Time::us(3), Time::us(4), Time::us(9), Time::us(5)}, channel_of), 1);
  // Channels 1 and 2 both end at 9 us: the lower is named.
  EXPECT_EQ(gf::last_channel({Time::us(1), Time::us(9), Time::us(3), Time::us(4), Time::us(2), Time::us(9)}, channel_of), 1);
  // Every channel ends at 9 us: none held the call up.
  EXPECT_EQ(gf::last_channel({Time::us(9), Time::us(2), Time::us(9), Time::us(4), Time::us(9), Time::us(5)}, channel_of), -1);
}

TEST(FailNoiseChannel, TheMostFrequentLastChannelIsTheHolder) {
  // Iterations ended last on channels 3, 1, 3, none, 1, 3: channel 3 in 3 of them.
  gf::IterationStats s;
  gf::count_held_channels(s, {3, 1, 3, -1, 1, 3});
  EXPECT_EQ(s.held_channel, 3);
  EXPECT_EQ(s.held_channel_count, 3);
  gf::count_held_channels(s, {-1, -1});
  EXPECT_EQ(s.held_channel, -1);
  EXPECT_EQ(s.held_channel_count, 0);
}

TEST(FailNoiseChannel, ADegradedRailHoldsUpTheChannelsThatCrossIt) {
  // Two DGX H100 with server0/nic3 at half speed: a ring all-reduce's channels that cross that
  // NIC move their inter-server bytes at half the rate of the others, so they end last in every
  // iteration (a zero straggler delay turns the iterations on), and the channel named must be one
  // of those whose transfers are routed over the NIC's link.
  const auto sim = gf::Simulation::load("dgx-h100-2node", {}, {gf::parse_fault("--degrade", "server0/nic3=0.5")});
  const gf::Communicator comm = sim.communicator();
  gf::SweepOptions o;
  o.call.kind = gf::CollectiveKind::AllReduce;
  o.min_bytes = o.max_bytes = gf::Bytes::mib(64);
  o.algo = "ring";
  o.proto = "simple";
  o.noise.iterations = 2;
  o.noise.stragglers = {{"server1/gpu0", Time::zero()}};
  const gf::SweepRow row = sim.sweep(comm, o).at(0);
  ASSERT_GE(row.iterations.held_channel, 0);
  EXPECT_EQ(row.iterations.held_channel_count, 2);
  gf::CollectiveCall call = o.call;
  call.bytes = row.size;
  const gf::Schedule s = gf::find_algorithm("ring")->build(comm, call, {gf::Protocol::Simple, row.choice.channels});
  const std::vector<gf::LinkId>& nic = sim.faults().front().links;
  ASSERT_FALSE(nic.empty());
  bool crosses = false;
  for (gf::TransferId id = 0; id < static_cast<gf::TransferId>(s.size()) && !crosses; ++id) {
    if (s.transfer(id).channel != row.iterations.held_channel) continue;
    for (const gf::Leg& leg : gf::transfer_legs(s, id, comm, sim.router(), o.seed))
      for (gf::LinkId l : leg.path.links)
        crosses = crosses || std::find(nic.begin(), nic.end(), std::min(l, sim.cluster().link(l).reverse)) != nic.end();
  }
  EXPECT_TRUE(crosses) << "channel " << row.iterations.held_channel << " does not cross server0/nic3";
}

}  // namespace
