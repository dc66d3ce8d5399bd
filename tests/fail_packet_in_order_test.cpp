// The packet model sends one connection's steps in order, as the flow model does
// (model/flow/connection_queue.hpp): transfers started with the same Route object are one
// connection's steps, and a step's packets leave only after the step before it has handed its
// last packet to the wire. Link of 100 Gb/s and 1 us (packet_test_net.hpp): a full packet of
// 4096 + 64 B serializes in kSerPs = 332.8 ns.
#include <gtest/gtest.h>

#include <memory>

#include "packet_test_net.hpp"

namespace {

using namespace gf;
using testnet::kSerPs;

constexpr int64_t kPropPs = 1000000;  // 1 us

TEST(FailPacketInOrder, TwoStepsOfOneConnectionFollowEachOther) {
  // gpu0 -> gpu1, two steps of k packets on one route, both started at 0 (their latency passes
  // together). In order: the first step's k packets leave back to back and the last arrives at
  // k ser + prop; the second step is admitted when the first hands its last packet to the port
  // ((k - 1) ser), its first packet leaves when the port frees (k ser) and its last arrives at
  // 2k ser + prop. Sharing the port instead (round robin), the first would end one serialization
  // before the second, at (2k - 1) ser + prop.
  testnet::Net n(2, 0, LinkFamily::InfiniBand);
  const LinkId l = n.link(n.gpu[0], n.gpu[1]);
  n.c.finalize();
  PacketModel m(n.c, testnet::params());
  const int k = 10;
  const ModelTransfer step = testnet::transfer({l}, Bytes(4096 * k));
  m.start(0, step, Time::zero());
  m.start(1, step, Time::zero());  // the same Route object: the same connection
  const auto t = testnet::drain(m, 2);
  EXPECT_EQ(t[0].picoseconds(), k * kSerPs + kPropPs);
  EXPECT_EQ(t[1].picoseconds(), 2 * k * kSerPs + kPropPs);
}

TEST(FailPacketInOrder, TwoConnectionsOnOneLinkStillShareIt) {
  // The same two steps on two Route objects (two connections, e.g. two channels) are not ordered:
  // the port serves them in turn, so the first ends at (2k - 1) ser + prop and the second at
  // 2k ser + prop.
  testnet::Net n(2, 0, LinkFamily::InfiniBand);
  const LinkId l = n.link(n.gpu[0], n.gpu[1]);
  n.c.finalize();
  PacketModel m(n.c, testnet::params());
  const int k = 10;
  m.start(0, testnet::transfer({l}, Bytes(4096 * k)), Time::zero());
  m.start(1, testnet::transfer({l}, Bytes(4096 * k)), Time::zero());
  const auto t = testnet::drain(m, 2);
  EXPECT_EQ(std::min(t[0], t[1]).picoseconds(), (2 * k - 1) * kSerPs + kPropPs);
  EXPECT_EQ(std::max(t[0], t[1]).picoseconds(), 2 * k * kSerPs + kPropPs);
}

TEST(FailPacketInOrder, ALateStepWaitsOnlyWhileTheOneBeforeItSends) {
  // The second step's latency passes after the first has sent everything (started at 2k ser):
  // it finds the connection idle and sends at once, ending at 2k ser + k ser + prop.
  testnet::Net n(2, 0, LinkFamily::InfiniBand);
  const LinkId l = n.link(n.gpu[0], n.gpu[1]);
  n.c.finalize();
  PacketModel m(n.c, testnet::params());
  const int k = 10;
  const ModelTransfer step = testnet::transfer({l}, Bytes(4096 * k));
  m.start(0, step, Time::zero());
  testnet::Done d;
  const Time later = Time::ps(2 * k * kSerPs);
  m.advance_to(later, d);
  m.start(1, step, later);
  const auto t = testnet::drain(m, 2);
  EXPECT_EQ(d.order.size(), 1u);
  EXPECT_EQ(t[1].picoseconds(), 3 * k * kSerPs + kPropPs);
}

}  // namespace
