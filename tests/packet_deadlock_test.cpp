// PFC deadlock: a run whose packets can no longer move is reported, naming the ports of the
// cycle, instead of returning idle with transfers unfinished (issue 5, "Bad input").
#include <gtest/gtest.h>

#include <string>

#include "packet_test_net.hpp"

using namespace gf;
using namespace gf::testnet;

namespace {

// Three switches in a ring s0 -> s1 -> s2 -> s0, a GPU on each. Flow i goes from g_i two hops
// round the ring to g_(i+2): every ring link carries two flows, and every flow's packets wait at
// a switch for the next ring link. That is the cyclic buffer dependency of Hu et al. (HotNets
// 2016, figure 1): ingress s0->s1 at s1 waits on port s1->s2, whose packets wait at s2 on port
// s2->s0, whose packets wait at s0 on port s0->s1.
struct Ring {
  Net n{3, 3, LinkFamily::RoCE};
  LinkId ring[3], up[3], down[3];
  Ring() {
    for (int i = 0; i < 3; ++i) {
      ring[i] = n.link(n.sw[static_cast<size_t>(i)], n.sw[static_cast<size_t>((i + 1) % 3)]);
      up[i] = n.link(n.gpu[static_cast<size_t>(i)], n.sw[static_cast<size_t>(i)]);
      down[i] = n.link(n.sw[static_cast<size_t>(i)], n.gpu[static_cast<size_t>(i)]);
    }
    n.c.finalize();
  }
  std::vector<LinkId> path(int i) const {
    return {up[i], ring[i], ring[(i + 1) % 3], down[(i + 2) % 3]};
  }
};

PacketParams pfc_params(Bytes xon) {
  PacketParams p;
  p.congestion_control = find_congestion_control("none");  // PFC alone: no DCQCN to slow the senders
  p.pfc.xoff = Bytes(8 * 4160);
  p.pfc.xon = xon;
  p.pfc.headroom = Bytes(8 * 4160);
  return p;
}

}  // namespace

TEST(PacketDeadlock, APfcCycleIsReportedWithItsPorts) {
  // Each ring link is offered two flows at line rate, so every ring ingress queue passes Xoff
  // and pauses its ring port. With Xon = 0 a paused port resumes only when its ingress queue at
  // the next switch is empty; those packets wait on the next ring port, itself paused: once all
  // three ring ports are paused together, nothing can move (the flows are long enough, 2,000
  // packets each, for that to happen while they still have data queued).
  Ring r;
  PacketModel m(r.n.c, params(), pfc_params(Bytes(0)));
  for (int i = 0; i < 3; ++i) m.start(i, transfer(r.path(i), Bytes(4096 * 2000)), Time::zero());
  try {
    drain(m, 3);
    FAIL() << "the run finished; expected a deadlock";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("deadlock"), std::string::npos) << what;
    EXPECT_NE(what.find("cycle of 3 ports"), std::string::npos) << what;
    for (const char* port : {"s0 -> s1", "s1 -> s2", "s2 -> s0"}) EXPECT_NE(what.find(port), std::string::npos) << what;
    EXPECT_NE(what.find("[paused]"), std::string::npos) << what;
  }
  EXPECT_EQ(m.totals().drops, 0);  // lossless to the end: it stopped, it did not drop
}

TEST(PacketDeadlock, TheSameRingWithoutACycleOfWaitsFinishes) {
  // Control: the same ring, flows of one hop round it (g_i -> s_i -> s_(i+1) -> g_(i+1)). No
  // packet waits for a second ring link, so there is no dependency cycle and every flow ends.
  Ring r;
  PacketModel m(r.n.c, params(), pfc_params(Bytes(0)));
  for (int i = 0; i < 3; ++i)
    m.start(i, transfer({r.up[i], r.ring[i], r.down[(i + 1) % 3]}, Bytes(4096 * 2000)), Time::zero());
  for (Time t : drain(m, 3)) EXPECT_FALSE(t.is_infinite());
}
