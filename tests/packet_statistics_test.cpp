// Model::statistics(): the packet model's counters for reports (scenario_report prints them);
// the flow and analytical models keep none.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "model/model_factory.hpp"
#include "packet_test_net.hpp"

using namespace gf;
using namespace gf::testnet;

TEST(PacketStatistics, NameTheEngineTotalsAndTheDeepestQueue) {
  // Two senders -> s0 -> one receiver, 10 packets each, credits (InfiniBand): no drops, no pauses.
  // The port to the receiver drains one packet per serialization while two arrive, so its FIFO
  // holds more than nothing but never more than the 20 packets sent.
  Net n(3, 1, LinkFamily::InfiniBand);
  const LinkId a = n.link(n.gpu[0], n.sw[0]), b = n.link(n.gpu[1], n.sw[0]), out = n.link(n.sw[0], n.gpu[2]);
  n.c.finalize();
  PacketModel m(n.c, params());
  m.start(0, transfer({a, out}, Bytes(4096 * 10)), Time::zero());
  m.start(1, transfer({b, out}, Bytes(4096 * 10)), Time::zero());
  drain(m, 2);
  std::map<std::string, int64_t> s;
  for (const auto& [k, v] : m.statistics()) s[k] = v;
  EXPECT_EQ(s.at("packets_sent"), 20);
  EXPECT_EQ(s.at("packet_hops"), 40);  // 20 packets x 2 links
  EXPECT_EQ(s.at("drops"), 0);
  EXPECT_EQ(s.at("retransmissions"), 0);
  EXPECT_EQ(s.at("pause_frames"), 0);
  EXPECT_EQ(s.at("max_queue_bytes"), m.port_stats(out).max_queue);
  EXPECT_GT(s.at("max_queue_bytes"), 0);
  EXPECT_LE(s.at("max_queue_bytes"), 20 * 4160);
}

TEST(PacketStatistics, FlowAndAnalyticalModelsReportNone) {
  Net n(2, 0, LinkFamily::InfiniBand);
  n.link(n.gpu[0], n.gpu[1]);
  n.c.finalize();
  EXPECT_TRUE(make_model("flow", n.c, params())->statistics().empty());
  EXPECT_TRUE(make_model("analytical", n.c, params())->statistics().empty());
  EXPECT_FALSE(make_model("packet", n.c, params())->statistics().empty());
}

// Per-transfer completion times: one transfer of one packet over one 100 Gb/s, 1 us link takes
// 4,160 B x 80 ps = 332.8 ns to serialize plus 1 us: 1,332.8 ns, printed as whole ns (1,332).
// Three such transfers one after another on separate links give three equal times.
TEST(PacketStatistics, CompletionTimePercentiles) {
  Net n(2, 0, LinkFamily::InfiniBand);
  const LinkId l = n.link(n.gpu[0], n.gpu[1]);
  n.c.finalize();
  PacketModel m(n.c, params());
  m.start(0, transfer({l}, Bytes(4096)), Time::zero());
  drain(m, 1);
  std::map<std::string, int64_t> s;
  for (const auto& [k, v] : m.statistics()) s[k] = v;
  EXPECT_EQ(s.at("transfers"), 1);
  EXPECT_EQ(s.at("fct_p50_ns"), 1332);
  EXPECT_EQ(s.at("fct_p99_ns"), 1332);
  EXPECT_EQ(s.at("fct_max_ns"), 1332);
}

// The queue report: the two-sender incast above. The port to the receiver is the deepest queue
// (the senders' own ports never queue: a GPU hands a packet to its port only when it can send),
// its max is the port's own, and its series is consistent with its mean: the series' buckets
// weighted by the time each covers average to the time-weighted mean over the run.
TEST(PacketStatistics, QueueReportNamesTheDeepestPortAndItsDepthOverTime) {
  Net n(3, 1, LinkFamily::InfiniBand);
  const LinkId a = n.link(n.gpu[0], n.sw[0]), b = n.link(n.gpu[1], n.sw[0]), out = n.link(n.sw[0], n.gpu[2]);
  n.c.finalize();
  PacketModel m(n.c, params());
  m.start(0, transfer({a, out}, Bytes(4096 * 10)), Time::zero());
  m.start(1, transfer({b, out}, Bytes(4096 * 10)), Time::zero());
  const auto t = drain(m, 2);
  const Time end = std::max(t[0], t[1]);
  const auto report = m.queue_report(5);
  ASSERT_EQ(report.size(), 1u);  // only the shared port ever held a packet waiting
  const PortQueueReport& q = report.front();
  EXPECT_EQ(q.link, out);
  EXPECT_EQ(q.max_queue, m.port_stats(out).max_queue);
  ASSERT_FALSE(q.series.empty());
  double area = 0;
  for (size_t i = 0; i < q.series.size(); ++i) {
    const double lo = static_cast<double>(i) * q.bucket.to_s();
    const double hi = std::min(end.to_s(), static_cast<double>(i + 1) * q.bucket.to_s());
    area += q.series[i] * (hi - lo);
  }
  EXPECT_NEAR(area / end.to_s(), q.mean_queue, 1e-6 * q.max_queue);
  EXPECT_NEAR(q.mean_queue, m.mean_queue(out, end), 1e-9);
  EXPECT_TRUE(make_model("flow", n.c, params())->queue_report(5).empty());
}
