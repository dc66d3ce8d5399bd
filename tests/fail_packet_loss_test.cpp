// Random packet loss in the packet model (PacketModel::set_link_loss): each packet crossing a
// lossy link is corrupted with probability p, drawn from the run's seed, and a reliable
// connection recovers by go-back-N. Link of 100 Gb/s and 1 us (packet_test_net.hpp): a full
// packet of 4096 + 64 B serializes in ser = 332.8 ns.
#include <gtest/gtest.h>

#include <cmath>

#include "packet_test_net.hpp"

namespace {

using namespace gf;
using testnet::kSerPs;

constexpr int64_t kPropPs = 1000000;  // 1 us

struct LossyRun {
  Time t;
  int64_t drops = 0, retransmits = 0;
};

LossyRun one_lossy_transfer(int packets, double p, uint64_t seed) {
  testnet::Net n(2, 0, LinkFamily::InfiniBand);
  const LinkId l = n.link(n.gpu[0], n.gpu[1]);
  n.c.finalize();
  PacketParams pp;
  pp.seed = seed;
  PacketModel m(n.c, testnet::params(), pp);
  m.set_link_loss(l, p);
  m.start(0, testnet::transfer({l}, Bytes(int64_t{4096} * packets)), Time::zero());
  const Time t = testnet::drain(m, 1)[0];
  return {t, m.totals().drops, m.totals().retransmits};
}

TEST(FailPacketLoss, GoBackNKeepsTheGoodputItsRoundTripAllows) {
  // K = 20,000 packets at loss p = 0.5 %. A packet s lost: s + 1 reaches the receiver at
  // a + 2 ser + prop (a: when s began), out of sequence, so a NAK goes back and reaches the
  // sender at a + 2 ser + 2 prop = a + 8.01 ser. The port is then sending s + 8; it ends at
  // a + 9 ser and s goes again: each go-back costs N = 9 packet times (s to s + 8). A packet is
  // taken when its first copy arrives intact, so each of the K packets needs a geometric number
  // of go-backs, G = K p / (1 - p) in all (a Poisson count, standard deviation sqrt(G)), and the
  // transfer takes (K + 9 G) ser + prop: the goodput (1 - p) / (1 + (N - 1) p) of go-back-N
  // with N packets per round trip (Stallings' ARQ utilisation, topology/faults.hpp
  // loss_efficiency). 4 standard deviations: 9 x 4 sqrt(G) ser.
  // The seed is fixed; a lost last packet would add the 4.29 s ACK timeout (chance p).
  const int K = 20000;
  const double p = 0.005;
  const double G = K * p / (1 - p);
  const LossyRun r = one_lossy_transfer(K, p, 7);
  const double expected = (K + 9 * G) * kSerPs + kPropPs;
  EXPECT_NEAR(static_cast<double>(r.t.picoseconds()), expected, 9 * 4 * std::sqrt(G) * kSerPs)
      << "goodput " << K * kSerPs / static_cast<double>(r.t.picoseconds()) << " against "
      << (1 - p) / (1 + 8 * p);
  // Every go-back resends the 8 packets after the lost one beside it: about 9 G retransmissions.
  EXPECT_NEAR(static_cast<double>(r.retransmits), 9 * G, 9 * 4 * std::sqrt(G));
  // The drops are every corrupted arrival, the resent ones included: p of K + 9 G arrivals.
  EXPECT_NEAR(static_cast<double>(r.drops), p * (K + 9 * G), 4 * std::sqrt(p * (K + 9 * G)));
}

TEST(FailPacketLoss, NoLossNoChange) {
  // p = 0 on the link: k packets over one link take k ser + prop, as without the setting.
  const LossyRun r = one_lossy_transfer(10, 0.0, 7);
  EXPECT_EQ(r.t.picoseconds(), 10 * kSerPs + kPropPs);
  EXPECT_EQ(r.drops, 0);
}

TEST(FailPacketLoss, TheSameSeedGivesTheSameRun) {
  const LossyRun a = one_lossy_transfer(5000, 0.01, 11), b = one_lossy_transfer(5000, 0.01, 11);
  EXPECT_EQ(a.t, b.t);
  EXPECT_EQ(a.drops, b.drops);
  EXPECT_EQ(a.retransmits, b.retransmits);
  EXPECT_GT(a.drops, 0);
  // Other seeds draw other losses: at least one of three differs in its drop count or time.
  bool differs = false;
  for (uint64_t s : {12u, 13u, 14u}) {
    const LossyRun c = one_lossy_transfer(5000, 0.01, s);
    differs = differs || c.t != a.t || c.drops != a.drops;
  }
  EXPECT_TRUE(differs);
}

TEST(FailPacketLoss, ALostLastPacketWaitsForTheAckTimeout) {
  // One packet at loss 0.5: a lost copy of the last (only) packet shows the receiver no gap, so no
  // NAK comes; the requester's ACK timeout (4.096 us x 2^20 = 4.295 s, counted from the copy's
  // arrival) resends it. Each lost copy so costs ser + prop + the timeout, and the copy that
  // arrives ser + prop: t = drops x (ser + prop + timeout) + ser + prop, whatever the draws.
  const LossyRun r = one_lossy_transfer(1, 0.5, 3);
  EXPECT_EQ(r.t.picoseconds(), r.drops * (kSerPs + kPropPs + (int64_t{4096000} << 20)) + kSerPs + kPropPs);
  // Seeds 3 to 10: at loss 0.5 some of the eight lose their first copy (all eight keeping it has
  // chance 1/256), and each such run pays at least one timeout.
  bool timed_out = false;
  for (uint64_t s = 3; s <= 10; ++s) timed_out = timed_out || one_lossy_transfer(1, 0.5, s).t > Time::s(4);
  EXPECT_TRUE(timed_out);
}

}  // namespace
