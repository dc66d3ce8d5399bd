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
