// TCP inside the packet engine (lossy links): windows, ACK clocking, loss recovery. The sender
// and receiver themselves are tested alone in packet_cc_tcp_test.cpp; here the numbers come from
// the wire: 100 Gb/s links, a full packet serializes in kSerPs = 332.8 ns.
#include <gtest/gtest.h>

#include <algorithm>

#include "packet_test_net.hpp"

using namespace gf;
using namespace gf::testnet;

TEST(PacketTcpEngine, AWindowThatOpensBeforeItFillsCostsNothing) {
  // One flow of 20 packets over one lossy 1 us link. The initial window (10 packets) lasts 10
  // serializations = 3.3 us; the first ACK returns after ser + 2 x 1 us = 2.3 us and each ACK
  // opens two more (slow start), so the sender never waits: 20 ser + 1 us, as lossless.
  Net n(2, 0, LinkFamily::EthernetTcp);
  const LinkId l = n.link(n.gpu[0], n.gpu[1]);
  n.c.finalize();
  PacketModel m(n.c, params());
  EXPECT_EQ(m.link_mode(l), LinkFlowMode::Lossy);
  m.start(0, transfer({l}, Bytes(4096 * 20)), Time::zero());
  EXPECT_EQ(drain(m, 1)[0].picoseconds(), 20 * kSerPs + Time::us(1).picoseconds());
  EXPECT_EQ(m.totals().drops, 0);
  EXPECT_EQ(m.totals().retransmits, 0);
}

TEST(PacketTcpEngine, SlowStartDoublesTheWindowEachRoundTrip) {
  // 40 packets over one lossy link of 10 us (L): RTT = ser + 2L (data one way, ACK back over the
  // path's latency). Round 1: the initial window of 10 at line rate. Its ACKs arrive from RTT on,
  // one per ser, each opening two packets: round 2 is 20 packets back to back from RTT (done by
  // RTT + 20 ser < 2 RTT). Round 2's first ACK arrives at 2 RTT; the last 10 packets leave back to
  // back from then, the last arriving at 2 RTT + 10 ser + L = 12 ser + 5L.
  const int64_t L = Time::us(10).picoseconds();
  Net n(2, 0, LinkFamily::EthernetTcp, Time::us(10));
  const LinkId l = n.link(n.gpu[0], n.gpu[1]);
  n.c.finalize();
  PacketModel m(n.c, params());
  m.start(0, transfer({l}, Bytes(4096 * 40)), Time::zero());
  EXPECT_EQ(drain(m, 1)[0].picoseconds(), 12 * kSerPs + 5 * L);
}

TEST(PacketTcpEngine, TheNextTransferBetweenTheSameEndpointsKeepsTheWindow) {
  // The slow-start case above (40 packets, L = 10 us, done at 12 ser + 5L, its last ACK back at
  // 12 ser + 6L), then a second 40-packet transfer on the same link from that instant. The
  // connection carries over: cwnd grew by one per ACK to 10 + 40 = 50, and the idle time since the
  // last send (at 2 RTT + 9 ser = 11 ser + 4L) is ser + 2L, far below the 1 ms RTO, so the window
  // stays: all 40 packets leave back to back, done 40 ser + L after the start. A fresh connection
  // would slow-start again (12 ser + 5L).
  const int64_t L = Time::us(10).picoseconds();
  Net n(2, 0, LinkFamily::EthernetTcp, Time::us(10));
  const LinkId l = n.link(n.gpu[0], n.gpu[1]);
  n.c.finalize();
  PacketModel m(n.c, params());
  Done d;
  m.start(0, transfer({l}, Bytes(4096 * 40)), Time::zero());
  while (!m.next_event_time().is_infinite()) m.advance_to(m.next_event_time(), d);
  ASSERT_EQ(d.order.size(), 1u);
  EXPECT_EQ(d.order[0].second.picoseconds(), 12 * kSerPs + 5 * L);
  const Time second = Time::ps(12 * kSerPs + 6 * L);
  m.start(1, transfer({l}, Bytes(4096 * 40)), second);
  while (!m.next_event_time().is_infinite()) m.advance_to(m.next_event_time(), d);
  ASSERT_EQ(d.order.size(), 2u);
  EXPECT_EQ((d.order[1].second - second).picoseconds(), 40 * kSerPs + L);
}

namespace {

struct IncastOut {
  Time makespan;
  PacketTotals totals;
};

// 8 senders -> s0 -> one receiver, k packets each, port buffer of 8 packets and no shared buffer.
IncastOut incast(LinkFamily family, int k) {
  const int senders = 8;
  Net n(senders + 1, 1, family);
  const LinkId out = n.link(n.sw[0], n.gpu[senders]);
  std::vector<LinkId> in;
  for (int i = 0; i < senders; ++i) in.push_back(n.link(n.gpu[static_cast<size_t>(i)], n.sw[0]));
  n.c.finalize();
  PacketParams pp;
  pp.port_buffer = Bytes(8 * 4160);
  pp.shared_buffer = Bytes(0);
  pp.congestion_control = find_congestion_control("none");  // PFC without DCQCN on RoCE
  if (family == LinkFamily::EthernetTcp) pp.congestion_control = find_congestion_control("tcp");
  pp.pfc.xoff = Bytes(4 * 4160);
  pp.pfc.xon = Bytes(2 * 4160);
  pp.pfc.headroom = Bytes(4 * 4160);
  PacketModel m(n.c, params(), pp);
  for (int i = 0; i < senders; ++i) m.start(i, transfer({in[static_cast<size_t>(i)], out}, Bytes(4096 * k)), Time::zero());
  const auto t = drain(m, senders);
  for (Time x : t) EXPECT_FALSE(x.is_infinite());
  return {*std::max_element(t.begin(), t.end()), m.totals()};
}

}  // namespace

TEST(PacketTcpEngine, LossyIncastDropsRetransmitsAndLosesGoodput) {
  // 8 x 200 packets into one 100 Gb/s port. Lower bound for any run: the receiver's link must
  // carry all 1,600 packets, so the makespan is at least 1,600 ser (goodput <= link rate). With
  // credits (InfiniBand) or PFC (RoCE) the bottleneck never idles once fed and carries each packet
  // once: about 1,600 ser + 2 hops' latency. Lossy TCP overflows the 8-packet buffer (8 senders
  // at line rate, initial windows of 10: 80 packets arrive faster than one port drains), drops,
  // and recovers by duplicate ACKs and timeouts (min_rto 1 ms, three thousand serializations):
  // the bottleneck idles while senders wait, so its makespan is longer.
  const int k = 200;
  const IncastOut tcp = incast(LinkFamily::EthernetTcp, k), credit = incast(LinkFamily::InfiniBand, k),
                  pfc = incast(LinkFamily::RoCE, k);
  const int64_t floor = 8 * k * kSerPs;
  EXPECT_GE(tcp.makespan.picoseconds(), floor);
  EXPECT_GE(credit.makespan.picoseconds(), floor);
  EXPECT_EQ(credit.totals.drops, 0);
  EXPECT_EQ(pfc.totals.drops, 0);
  EXPECT_GT(pfc.totals.pauses, 0);
  EXPECT_GT(tcp.totals.drops, 0);
  // Every dropped packet is sent again at least once (more when a timeout resends packets that
  // were only late), and every packet sent is either a first copy or a retransmission.
  EXPECT_GE(tcp.totals.retransmits, tcp.totals.drops);
  EXPECT_EQ(tcp.totals.packets_sent, 8 * k + tcp.totals.retransmits);
  // Every byte delivered exactly once: the receivers took 8k distinct packets, the rest were
  // copies, and every packet sent was delivered or dropped.
  EXPECT_EQ(tcp.totals.packets_delivered - tcp.totals.duplicates, 8 * k);
  EXPECT_EQ(tcp.totals.packets_delivered + tcp.totals.drops, tcp.totals.packets_sent);
  EXPECT_GT(tcp.makespan, credit.makespan);
  EXPECT_GT(tcp.makespan, pfc.makespan);
}

TEST(PacketTcpEngine, SameInputSameResults) {
  const IncastOut a = incast(LinkFamily::EthernetTcp, 100), b = incast(LinkFamily::EthernetTcp, 100);
  EXPECT_EQ(a.makespan, b.makespan);
  EXPECT_EQ(a.totals.drops, b.totals.drops);
  EXPECT_EQ(a.totals.retransmits, b.totals.retransmits);
  EXPECT_EQ(a.totals.events, b.totals.events);
}

TEST(PacketTcpEngine, ALinkTooFastToTimeKeepsItsPacketsInOrder) {
  // Two hosts, each a GPU joined to its NIC by a link so fast that a packet's serialization rounds
  // below 1 ps, exchange 300 packets each through one switch over lossy 100 Gb/s links whose
  // latency is 3 serializations (998.4 ns), so ACKs reach a GPU at the very instants the other
  // flow's packets are delivered there (and their pool ids freed). Several packets of a flow leave
  // its GPU within one picosecond; if they reached the NIC at one instant they would be handled by
  // packet id (ids are recycled, so not always in the order sent) and TCP would see duplicate ACKs
  // and resend packets that were never lost. Each direction has its own ports and the default
  // buffers hold everything, so nothing drops: any retransmission would be a spurious one.
  Net n(2, 1, LinkFamily::EthernetTcp, Time::ps(3 * kSerPs));
  LinkCatalog& cat = const_cast<LinkCatalog&>(n.c.catalog());
  const TechId join = cat.add({"test-join", LinkFamily::Pcie, Bandwidth::gBps(1e7), Time::zero(), true, "test", "never a bottleneck"});
  const NodeId nic0 = n.c.add_fabric_node(NodeKind::Nic, 0, -1, "nic0"), nic1 = n.c.add_fabric_node(NodeKind::Nic, 0, -1, "nic1");
  const LinkId j0 = n.c.connect(n.gpu[0], nic0, join), j1 = n.c.connect(n.gpu[1], nic1, join);
  const LinkId r0 = n.c.connect(nic0, n.gpu[0], join), r1 = n.c.connect(nic1, n.gpu[1], join);
  const LinkId u0 = n.link(nic0, n.sw[0]), u1 = n.link(nic1, n.sw[0]);
  const LinkId d0 = n.link(n.sw[0], nic0), d1 = n.link(n.sw[0], nic1);
  n.c.finalize();
  PacketModel m(n.c, params());
  m.start(0, transfer({j0, u0, d1, r1}, Bytes(4096 * 300)), Time::zero());
  m.start(1, transfer({j1, u1, d0, r0}, Bytes(4096 * 300)), Time::zero());
  for (Time t : drain(m, 2)) EXPECT_FALSE(t.is_infinite());
  EXPECT_EQ(m.totals().drops, 0);
  EXPECT_EQ(m.totals().retransmits, 0);
  EXPECT_EQ(m.totals().duplicates, 0);
}
