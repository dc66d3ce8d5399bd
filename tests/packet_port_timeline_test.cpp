// Model::port_timelines (model/model.hpp): the packet model's egress ports over time, the source
// of the trace's queue, PFC and ECN counters. A PFC episode derived by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "model/model_factory.hpp"
#include "model/packet/congestion_control.hpp"
#include "packet_test_net.hpp"

using namespace gf;
using namespace gf::testnet;

namespace {

// 200 Gb/s into s0 and 100 Gb/s out of it, RoCE with PFC, no congestion control: the 2:1 of an
// incast (two senders at line rate into one port) with one sender, so one ingress queue holds
// every packet and the order of equal-time arrivals plays no part.
struct Mismatch {
  Net n{2, 1, LinkFamily::RoCE};
  LinkId in = 0, out = 0;
  Mismatch() {
    LinkCatalog& cat = const_cast<LinkCatalog&>(n.c.catalog());
    const TechId fast = cat.add({"test-200g", LinkFamily::RoCE, Bandwidth::gbps(200), Time::us(1), true, "test", "hand-built test link"});
    in = n.c.connect(n.gpu[0], n.sw[0], fast);
    out = n.link(n.sw[0], n.gpu[1]);
    n.c.finalize();
  }
};

PacketParams pfc_params() {
  PacketParams pp;
  pp.congestion_control = find_congestion_control("none");
  pp.flow_control = FlowControl::Pfc;
  pp.pfc.xoff = Bytes(16 * 4160);  // 66,560 B: 16 packets
  pp.pfc.xon = Bytes(8 * 4160);    // 33,280 B: 8 packets
  pp.pfc.headroom = Bytes::kib(64);
  return pp;
}

const PortTimeline* find(const std::vector<PortTimeline>& v, LinkId l) {
  for (const PortTimeline& p : v)
    if (p.link == l) return &p;
  return nullptr;
}

}  // namespace

// Packets of 4,096 B + 64 B header = 4,160 B: Tf = 4,160 x 40 ps = 166.4 ns on the 200 Gb/s link
// in, T = 2 Tf = 332.8 ns on the 100 Gb/s link out; both wires L = 1 us = 6.01 Tf. Packet j
// (1, 2, ...) reaches s0 at a_j = a + j Tf + L; the port out sends one per T, so its i-th
// packet leaves at a_(2i+1). At a_j (the departure at that instant first, as the engine orders
// events) s0 holds j - floor((j-1)/2) = floor(j/2) + 1 packets that came over the link in, one of
// them on the wire out: the FIFO holds floor(j/2), growing at (2 - 1) x 100 Gb/s.
//  - PAUSE: held > Xoff = 16 packets first at j = 32 (17 packets). It reaches the sender L later,
//    at a + 32 Tf + 2L = a + 44.02 Tf, by when packets 1..45 have started (packet j starts at
//    a + (j - 1) Tf, and one being sent is finished): 45 packets in, then none.
//  - Peak FIFO: at a_45, floor(45/2) = 22 packets = 91,520 B (within Xoff + headroom).
//  - RESUME: once every 45 is in, held = 45 - i after departure i, <= Xon = 8 packets first at
//    i = 37, at a_75; it reaches the sender at a + 75 Tf + 2L. The port in was paused for
//    (75 - 32) Tf = 43 x 166.4 ns = 7,155.2 ns, and received one pause frame.
//  - After it, the last 15 packets: held is down to 2 when the first of them arrives
//    (a + 94.03 Tf; departures up to i = 43) and reaches 2 + 15 - 7 = 10 < 16: no second pause,
//    and the FIFO peaks at 9 packets, below the first episode's 22.
TEST(PacketPortTimeline, APfcEpisodeOfATwoToOneMismatchDerivedByHand) {
  Mismatch x;
  PacketModel m(x.n.c, params(), pfc_params());
  ASSERT_EQ(m.link_mode(x.in), LinkFlowMode::Pfc);
  m.start(0, transfer({x.in, x.out}, Bytes(4096 * 60)), Time::zero());
  const auto t = drain(m, 1);
  ASSERT_FALSE(t[0].is_infinite());
  EXPECT_EQ(m.totals().pauses, 1);
  EXPECT_EQ(m.totals().drops, 0);
  EXPECT_EQ(m.port_stats(x.out).max_queue, 22 * 4160);

  const std::vector<PortTimeline> v = m.port_timelines();
  const PortTimeline* out = find(v, x.out);
  const PortTimeline* in = find(v, x.in);
  ASSERT_NE(out, nullptr);
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(*std::max_element(out->peak_queue.begin(), out->peak_queue.end()), 22 * 4160);
  EXPECT_EQ(std::accumulate(in->pause_frames.begin(), in->pause_frames.end(), int64_t{0}), 1);
  EXPECT_EQ(std::accumulate(out->pause_frames.begin(), out->pause_frames.end(), int64_t{0}), 0);
  EXPECT_EQ(std::accumulate(out->ecn_marks.begin(), out->ecn_marks.end(), int64_t{0}), 0);  // no scheme marks
  // The paused shares, weighted by each bucket's span, add up to the 7,155.2 ns paused.
  ASSERT_EQ(in->bucket, Time::us(1));  // a run of tens of us: 1 us buckets
  double paused_ps = 0;
  for (size_t b = 0; b < in->paused.size(); ++b) {
    const int64_t lo = static_cast<int64_t>(b) * in->bucket.picoseconds();
    const int64_t hi = std::min(in->end.picoseconds(), lo + in->bucket.picoseconds());
    EXPECT_GE(in->paused[b], 0.0);
    EXPECT_LE(in->paused[b], 1.0);
    paused_ps += in->paused[b] * static_cast<double>(hi - lo);
  }
  EXPECT_NEAR(paused_ps, 43 * 166'400.0, 1.0);
  // Every vector has one entry per bucket, and the buckets cover the run.
  for (const PortTimeline* p : {in, out}) {
    const auto n = static_cast<size_t>((p->end.picoseconds() + p->bucket.picoseconds() - 1) / p->bucket.picoseconds());
    EXPECT_EQ(p->peak_queue.size(), n);
    EXPECT_EQ(p->ecn_marks.size(), n);
    EXPECT_EQ(p->pause_frames.size(), n);
    EXPECT_EQ(p->paused.size(), n);
  }
}

TEST(PacketPortTimeline, OnlyPortsThatDidSomethingAndNoneWithoutQueues) {
  // One packet over one link: nothing ever waits, no port is listed.
  Net n(2, 0, LinkFamily::InfiniBand);
  const LinkId l = n.link(n.gpu[0], n.gpu[1]);
  n.c.finalize();
  PacketModel m(n.c, params());
  m.start(0, transfer({l}, Bytes(4096)), Time::zero());
  drain(m, 1);
  EXPECT_TRUE(m.port_timelines().empty());
  EXPECT_TRUE(make_model("flow", n.c, params())->port_timelines().empty());
  EXPECT_TRUE(make_model("analytical", n.c, params())->port_timelines().empty());
}
