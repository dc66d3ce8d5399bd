// Rings over a direct GPU mesh (8x MI355X, xGMI, no switch): Communicator::ring's link-disjoint
// rings (Walecki's decomposition) and what they give the analytical model.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <utility>

#include "collective/algorithm.hpp"
#include "config/presets.hpp"
#include "model/analytical/analytical_model.hpp"
#include "model/flow/flow_model.hpp"
#include "engine/executor.hpp"
#include "nccl/tuner.hpp"

using namespace gf;

namespace {

struct Mesh {
  Cluster c;
  Router router;
  Communicator comm;
  explicit Mesh(int ppn) : c(build_cluster(resolve_cluster("mi355x"))), router(c), comm(make_communicator(c, router, 1, ppn)) {}
};

// Directed GPU pairs (a, b) that ring `r` steps over, as local positions, closing the ring.
std::set<std::pair<int, int>> ring_edges(const Communicator& comm, int channel) {
  std::vector<Rank> order = comm.ring(channel);
  std::set<std::pair<int, int>> e;
  for (size_t i = 0; i < order.size(); ++i)
    e.insert({comm.local_of[static_cast<size_t>(order[i])], comm.local_of[static_cast<size_t>(order[(i + 1) % order.size()])]});
  return e;
}

}  // namespace

TEST(MeshRing, EightGpusGetSixLinkDisjointRingsCoveringSixOfSevenLinks) {
  // K_8 less a perfect matching splits into 3 Hamiltonian cycles (Walecki); each runs both ways,
  // so R = 6 directed rings of 8 edges each, no directed edge shared: 48 of the 56 directed links,
  // 6 of each GPU's 7 outgoing ones.
  Mesh m(8);
  ASSERT_EQ(m.comm.distinct_rings(), 6);
  std::set<std::pair<int, int>> all;
  for (int r = 0; r < 6; ++r) {
    std::set<std::pair<int, int>> e = ring_edges(m.comm, r);
    ASSERT_EQ(e.size(), 8u) << "ring " << r << " is not a Hamiltonian cycle";
    for (const auto& x : e) EXPECT_TRUE(all.insert(x).second) << "ring " << r << " reuses " << x.first << "->" << x.second;
  }
  EXPECT_EQ(all.size(), 48u);
  std::map<int, int> out;
  for (const auto& [a, b] : all) ++out[a];
  for (int g = 0; g < 8; ++g) EXPECT_EQ(out[g], 6) << "gpu " << g;
}

TEST(MeshRing, SevenGpusUseEveryLink) {
  // Odd count: K_7 splits into 3 Hamiltonian cycles, both ways 6 rings = all 42 directed links.
  Mesh m(7);
  ASSERT_EQ(m.comm.distinct_rings(), 6);
  std::set<std::pair<int, int>> all;
  for (int r = 0; r < 6; ++r)
    for (const auto& x : ring_edges(m.comm, r)) all.insert(x);
  EXPECT_EQ(all.size(), 42u);
}

TEST(MeshRing, TunerGivesTwoChannelsPerRingOnOneServer) {
  Mesh m(8);
  EXPECT_EQ(default_channels(m.comm, "ring"), 12);  // 2 x R, R = 6
}

TEST(MeshRing, AllReduceBandwidthIsSixLinksOfSeven) {
  // One MI355X server, ring all-reduce, Simple, 12 channels = 2 per ring. Each channel's ring has
  // its own 8 directed links; a channel carries S/12 and moves 2(n-1)/n of it over each of its
  // links. Two channels share each link: per link 2 x (2 x 7/8 x S/12) = 7/24 S at the xGMI link's
  // 76.8 GB/s x 0.80 (ModelParams::xgmi_efficiency) = 61.44 GB/s. busbw = 2(n-1)/n x S / t, with
  // t -> (7/24 S) / 61.44 GB/s for large S: busbw -> (7/4) x 61.44 x 24/7 / 2 = 6 x 61.44
  // = 368.6 GB/s, i.e. 6 of the GPU's 7 links; the earlier stride rings (1, 3, 5, 7) used 4 and
  // gave 4 x 61.44 = 245.8.
  Mesh m(8);
  CollectiveCall call;
  call.kind = CollectiveKind::AllReduce;
  call.bytes = Bytes::gib(1);
  // On the flow model: the ring's steps in flight on one link (NCCL_STEPS slots) share it there as
  // on the wire, where the analytical model charges each the load it met at its start.
  Schedule s = find_algorithm("ring")->build(m.comm, call, {Protocol::Simple, 12});
  FlowModel model(m.c);
  const double t = run_schedule(s, m.comm, m.router, model).duration.to_s();
  const double busbw = 1024.0 * 1024 * 1024 / t * 2 * 7 / 8 / 1e9;
  EXPECT_GT(busbw, 0.97 * 6 * 61.44);  // latencies (2 x 7 steps of a few us) cost < 3 % at 1 GiB
  EXPECT_LT(busbw, 6 * 61.44);
}
