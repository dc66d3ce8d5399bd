// The packet model's reliable connection past a random loss: NAKs lost on the way back (the
// requester then waits its ACK timeout) and the transport retry counter, which fails the
// connection after NCCL_IB_RETRY_CNT = 7 retries without progress (model/transport_abort.hpp).
// Link of 100 Gb/s and 1 us (packet_test_net.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "model/transport_abort.hpp"
#include "packet_test_net.hpp"

namespace {

using namespace gf;

constexpr int64_t kPropPs = 1000000;                  // 1 us
constexpr int64_t kTimeoutPs = int64_t{4096000} << 20;  // 4.096 us x 2^20 = 4.295 s

TEST(FailTransportRetry, AConnectionThatNeverGetsThroughAbortsAfterItsEighthGoBack) {
  // One packet of 1,000 B over g0 -> s0 -> g1 with s0 -> g1 at loss 0.999. Each copy is
  // serialized twice (1,064 B x 80 ps = 85.12 ns per hop) and crosses 2 x 1 us, is lost, shows
  // the receiver no gap, and the requester resends it after its ACK timeout T: copy k leaves at
  // k (d + T), d = 2 x 85.12 ns + 2 us. Retries 1..7 are NCCL_IB_RETRY_CNT's; the 8th go-back
  // exceeds it, at 8 (d + T) = 34.36 s, if the 8 copies are all lost (chance 0.999^8 = 0.992;
  // seed 1's draws do lose them: the test fixes the seed).
  testnet::Net n(2, 1, LinkFamily::InfiniBand);
  const LinkId in = n.link(n.gpu[0], n.sw[0]), out = n.link(n.sw[0], n.gpu[1]);
  n.c.finalize();
  PacketParams pp;
  pp.seed = 1;
  PacketModel m(n.c, testnet::params(), pp);
  m.set_link_loss(out, 0.999);
  m.start(0, testnet::transfer({in, out}, Bytes(1000)), Time::zero());
  const int64_t d = 2 * 1064 * 80 + 2 * kPropPs;
  try {
    testnet::drain(m, 1);
    FAIL() << "the transfer finished; every copy was expected lost";
  } catch (const TransportAbort& e) {
    EXPECT_EQ(e.at().picoseconds(), 8 * (d + kTimeoutPs));
    EXPECT_EQ(e.link(), out);
    const std::string what = e.what();
    EXPECT_NE(what.find("g0 -> g1"), std::string::npos) << what;
    EXPECT_NE(what.find("s0-g1"), std::string::npos) << what;
    EXPECT_NE(what.find("NCCL_IB_RETRY_CNT = 7"), std::string::npos) << what;
  }
}

TEST(FailTransportRetry, ProgressResetsTheRetryCounter) {
  // 2,000 packets at loss 0.3 on g0 -> g1: hundreds of go-backs. Eight in a row without progress
  // need the packet gone back to lost eight times running (0.3^8 = 6.6e-5 per go-back, a few
  // percent over the run; seed 4's draws have none); a counter that never reset would abort at
  // the 8th go-back. The run finishes, with over 100 drops.
  testnet::Net n(2, 0, LinkFamily::InfiniBand);
  const LinkId l = n.link(n.gpu[0], n.gpu[1]);
  n.c.finalize();
  PacketParams pp;
  pp.seed = 4;
  PacketModel m(n.c, testnet::params(), pp);
  m.set_link_loss(l, 0.3);
  m.start(0, testnet::transfer({l}, Bytes(int64_t{4096} * 2000)), Time::zero());
  const Time t = testnet::drain(m, 1)[0];
  EXPECT_FALSE(t.is_infinite());
  EXPECT_GT(m.totals().drops, 100);
}

// One transfer of `packets` full packets over g0 <-> g1 with data loss `p` forward and NAK loss
// `back` on the reverse link; its completion time and drops (data and NAKs).
struct NakRun {
  Time t;
  int64_t drops = 0;
};
NakRun with_nak_loss(int packets, double p, double back, uint64_t seed) {
  testnet::Net n(2, 0, LinkFamily::InfiniBand);
  const LinkId l = n.link(n.gpu[0], n.gpu[1]);
  n.c.finalize();
  PacketParams pp;
  pp.seed = seed;
  PacketModel m(n.c, testnet::params(), pp);
  m.set_link_loss(l, p);
  if (back > 0) m.set_link_loss(n.c.link(l).reverse, back);
  m.start(0, testnet::transfer({l}, Bytes(int64_t{4096} * packets)), Time::zero());
  const Time t = testnet::drain(m, 1)[0];
  return {t, m.totals().drops};
}

TEST(FailTransportRetry, ALostNakCostsTheAckTimeout) {
  // 200 packets (200 x 332.8 ns = 66.6 us on the wire) at data loss 1 %: about 2 losses. With NAKs
  // lossless each costs a go-back of ~9 packets (3 us); only a lost last packet (1 % of runs)
  // waits for the ACK timeout T = 4.295 s. With every NAK lost (reverse loss 0.999) the requester
  // hears nothing and goes back only after T each time. Either way a run's time is a whole number
  // of timeouts plus under 1 ms of wire, every timeout is a drop (a lost NAK or last packet), and
  // a run whose data lost a packet pays more timeouts with its NAKs lost. Seeds 1..6: 1 - 0.99^200
  // = 87 % of runs lose a packet.
  const int64_t T = kTimeoutPs;
  int dearer = 0;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const NakRun ok = with_nak_loss(200, 0.01, 0, seed);
    const NakRun lost = with_nak_loss(200, 0.01, 0.999, seed);
    const int64_t whole_ok = ok.t.picoseconds() / T, whole_lost = lost.t.picoseconds() / T;
    EXPECT_LT(ok.t.picoseconds() - whole_ok * T, 1000000000) << "seed " << seed;  // under 1 ms beyond
    EXPECT_LT(lost.t.picoseconds() - whole_lost * T, 1000000000) << "seed " << seed;
    EXPECT_GE(lost.drops, whole_lost) << "seed " << seed;
    if (ok.drops == 0) {
      EXPECT_EQ(lost.t, ok.t) << "seed " << seed;  // no loss, no NAK to lose
      continue;
    }
    EXPECT_GT(whole_lost, whole_ok) << "seed " << seed;
    ++dearer;
  }
  EXPECT_GE(dearer, 3);
}

}  // namespace
