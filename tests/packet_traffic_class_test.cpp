// Traffic classes in the packet model (docs/models.md, "Traffic classes"): PFC priorities (IEEE
// 802.1Qbb) and InfiniBand virtual lanes. Every egress port keeps one queue per class, served
// round robin per packet (equal-weight ETS) or strictly by class number; PFC pauses and credits
// are per (port, class), so a class stopped downstream does not block another on the same port.
//
// Networks from packet_test_net.hpp: 100 Gb/s links (80 ps per byte), 1 us latency, a full packet
// (4,096 B payload + 64 B header) serializes in ser = 4,160 x 80 ps = 332.8 ns.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "model/packet/packet_yaml.hpp"
#include "workload/scenario_yaml.hpp"
#include "config/yaml_fields.hpp"
#include "packet_test_net.hpp"
#include "workload/scenario.hpp"

using namespace gf;
using namespace gf::testnet;

namespace {

constexpr int64_t kPropPs = 1000000;  // 1 us

ModelTransfer in_class(std::vector<LinkId> links, Bytes b, uint8_t cls) {
  ModelTransfer t = transfer(std::move(links), b);
  t.traffic_class = cls;
  return t;
}

PacketParams classes(int n, ClassScheduling s = ClassScheduling::RoundRobin) {
  PacketParams p;
  p.traffic_classes = n;
  p.class_scheduling = s;
  return p;
}

// g0, g1 (class 0) and g2 (class 1) -> s0 -> g3, k packets each, all starting at 0.
struct ThreeIntoOne {
  Net n{4, 1, LinkFamily::InfiniBand};
  LinkId a, b, v, out;
  ThreeIntoOne() {
    a = n.link(n.gpu[0], n.sw[0]);
    b = n.link(n.gpu[1], n.sw[0]);
    v = n.link(n.gpu[2], n.sw[0]);
    out = n.link(n.sw[0], n.gpu[3]);
    n.c.finalize();
  }
  std::vector<Time> run(ClassScheduling s, int k) {
    PacketModel m(n.c, params(), classes(2, s));
    m.start(0, in_class({a, out}, Bytes(4096 * k), 0), Time::zero());
    m.start(1, in_class({b, out}, Bytes(4096 * k), 0), Time::zero());
    m.start(2, in_class({v, out}, Bytes(4096 * k), 1), Time::zero());
    auto t = drain(m, 3);
    EXPECT_EQ(m.port_stats(out).packets, 3 * k);
    EXPECT_EQ(m.class_stats(out, 0).packets, 2 * k);
    EXPECT_EQ(m.class_stats(out, 1).packets, k);
    return t;
  }
};

// An incast that congests s1 -> g3 and a victim that shares only the port s0 -> s1 with it:
//   g0 -> s0 -> s1 -> g3   incast, class 0 (through the shared port P = s0 -> s1)
//   g1 -> s2 -> s1 -> g3   incast, class 0 (the second input that makes s1 -> g3 the bottleneck)
//   g2 -> s0 -> s1 -> g4   victim, class `victim_class`, to an idle destination
struct SharedPort {
  Net n;
  LinkId g0s0, g2s0, p, g1s2, s2s1, to_g3, to_g4;
  explicit SharedPort(LinkFamily family) : n(5, 3, family) {
    g0s0 = n.link(n.gpu[0], n.sw[0]);
    g2s0 = n.link(n.gpu[2], n.sw[0]);
    p = n.link(n.sw[0], n.sw[1]);
    g1s2 = n.link(n.gpu[1], n.sw[2]);
    s2s1 = n.link(n.sw[2], n.sw[1]);
    to_g3 = n.link(n.sw[1], n.gpu[3]);
    to_g4 = n.link(n.sw[1], n.gpu[4]);
    n.c.finalize();
  }
  // The victim's completion time; the model is left for the caller's checks.
  Time run(PacketModel& m, int incast_k, int victim_k, uint8_t victim_class) {
    m.start(0, in_class({g0s0, p, to_g3}, Bytes(4096 * incast_k), 0), Time::zero());
    m.start(1, in_class({g1s2, s2s1, to_g3}, Bytes(4096 * incast_k), 0), Time::zero());
    m.start(2, in_class({g2s0, p, to_g4}, Bytes(4096 * victim_k), victim_class), Time::zero());
    const auto t = drain(m, 3);
    EXPECT_FALSE(t[0].is_infinite());
    EXPECT_FALSE(t[1].is_infinite());
    return t[2];
  }
};

// The victim's bound when it has a class of its own at P. Let its packet i (1..k) reach s0 at a_i
// and finish leaving P at d_i. Under round robin between two classes, a class-1 packet at the head
// of its queue starts within one packet (the one on the wire; then it is class 1's turn):
//   d_i <= max(a_i, d_(i-1)) + 2 ser.
// With its sender never held up, a_i = t0 + (i - 1) ser, t0 = ser + prop, and by induction
// d_i <= t0 + 2i ser: at least half the link, whatever class 0 does. The sender is held up only
// while its queue at s0 is long (PFC: paused above Xoff = 256 KiB = 63 packets, resumed at Xon =
// 128 KiB = 31; credits: the 15 packets of a 64 KiB lane below) and its next packet is back within
// prop + ser + prop, about 7 ser, so the queue never runs dry and the induction holds. The last
// packet then crosses the wire (prop) and s1 -> g4, which only the victim uses (ser + prop):
//   T <= ser + prop + 2k ser + prop + ser + prop = (2k + 2) ser + 3 prop.
int64_t victim_bound_ps(int k) { return (2 * k + 2) * kSerPs + 3 * kPropPs; }

InputError packet_error(const std::string& text) {
  try {
    const YAML::Node root = load_yaml_document(text, "net.yaml", "");
    parse_packet_yaml(root["packet"], "net.yaml");
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return InputError({}, "", "");
}

InputError scenario_error(const std::string& text) {
  try {
    parse_scenario_yaml(text, "bad.yaml");
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return InputError({}, "", "");
}

}  // namespace

TEST(PacketTrafficClass, TwoLongFlowsInTwoClassesShareAnEgressHalfAndHalf) {
  // g0 (class 0) and g1 (class 1) -> s0 -> g2, k packets each from 0. Both first packets reach s0
  // at t0 = ser + prop; g0's (the lower packet id) finds the port idle and leaves at once, then
  // round robin alternates: class 1 takes slots 1, 3, ..., 2k - 1 and class 0 slots 0, 2, ...,
  // 2k - 2 (each sender has the next packet there in time: it sends at line rate, the port gives
  // its class half). Class 0's last lands at t0 + (2k - 1) ser + prop = 2k ser + 2 prop, class 1's
  // one slot later. (Two equal senders in one FIFO share the same way: the next test shows what
  // the classes change.)
  const int k = 100;
  Net n(3, 1, LinkFamily::InfiniBand);
  const LinkId a = n.link(n.gpu[0], n.sw[0]), b = n.link(n.gpu[1], n.sw[0]), out = n.link(n.sw[0], n.gpu[2]);
  n.c.finalize();
  PacketModel m(n.c, params(), classes(2));
  m.start(0, in_class({a, out}, Bytes(4096 * k), 0), Time::zero());
  m.start(1, in_class({b, out}, Bytes(4096 * k), 1), Time::zero());
  const auto t = drain(m, 2);
  EXPECT_EQ(t[0].picoseconds(), 2 * k * kSerPs + 2 * kPropPs);
  EXPECT_EQ(t[1].picoseconds(), (2 * k + 1) * kSerPs + 2 * kPropPs);
  EXPECT_EQ(m.class_stats(out, 0).packets, k);
  EXPECT_EQ(m.class_stats(out, 1).packets, k);
}

TEST(PacketTrafficClass, TwoClassesEachGetHalfAnEgressWhateverTheirFlowCount) {
  // Round robin per packet between the classes. The first packets of all three flows reach s0 at
  // t0 = ser + prop; g0's (the lowest packet id) finds the port idle and leaves at once, then the
  // classes alternate: class 1 takes slots 1, 3, ..., 2k - 1, each slot one ser. Both classes stay
  // backlogged (each sender sends at line rate into a port that gives its class at most half; its
  // 256 KiB of credits at s0 hold 63 packets, far more than the 1 us credit return drains), so:
  //   the class-1 flow's last packet ends at t0 + 2k ser and lands prop later: (2k + 1) ser + 2 prop;
  //   class 0's 2k packets fill the rest, the port never idles, the last of all 3k packets lands at
  //   (3k + 1) ser + 2 prop.
  // With one FIFO instead, the class-1 flow would be one sender in three and get a third.
  const int k = 100;
  ThreeIntoOne net;
  const auto t = net.run(ClassScheduling::RoundRobin, k);
  EXPECT_EQ(t[2].picoseconds(), (2 * k + 1) * kSerPs + 2 * kPropPs);
  EXPECT_EQ(std::max(t[0], t[1]).picoseconds(), (3 * k + 1) * kSerPs + 2 * kPropPs);
}

TEST(PacketTrafficClass, StrictSchedulingServesTheLowerClassFirst) {
  // The same three flows under class_scheduling: strict. Class 0 (two senders at line rate into
  // one port) is never empty from t0 on, so it takes slots 0 .. 2k - 1 and its last packet lands
  // at (2k + 1) ser + 2 prop; class 1 waits (its sender stops on credits) and then takes slots
  // 2k .. 3k - 1: (3k + 1) ser + 2 prop. The round-robin figures above, with the classes swapped.
  const int k = 100;
  ThreeIntoOne net;
  const auto t = net.run(ClassScheduling::Strict, k);
  EXPECT_EQ(std::max(t[0], t[1]).picoseconds(), (2 * k + 1) * kSerPs + 2 * kPropPs);
  EXPECT_EQ(t[2].picoseconds(), (3 * k + 1) * kSerPs + 2 * kPropPs);
}

TEST(PacketTrafficClass, PfcPauseOfOneClassDoesNotStopAnotherOnThePort) {
  // RoCE with PFC (default thresholds: Xoff 256 KiB, Xon 128 KiB, per ingress port and class), no
  // end-to-end congestion control. s1 -> g3 drains at C while class 0 arrives from s2 at up to C
  // and from P at up to C / 2 or more: the bytes that came over P in class 0 pile up at s1 past
  // Xoff and s1 pauses P's class 0. The victim, in class 1, keeps its half of P: it meets
  // victim_bound_ps (derived above).
  const int incast_k = 2000, victim_k = 500;
  SharedPort net(LinkFamily::RoCE);
  PacketParams prm = classes(2);
  prm.congestion_control = find_congestion_control("none");
  PacketModel m(net.n.c, params(), prm);
  const Time victim = net.run(m, incast_k, victim_k, 1);
  EXPECT_GT(m.class_stats(net.p, 0).pauses, 0);  // the incast's class was paused on P ...
  EXPECT_EQ(m.class_stats(net.p, 1).pauses, 0);  // ... the victim's never
  EXPECT_LE(victim.picoseconds(), victim_bound_ps(victim_k));
  // Alone on the network the victim would take (k + 2) ser + 3 prop (a pipeline of k packets over
  // three links): at least that, the bound at most about twice it.
  EXPECT_GE(victim.picoseconds(), (victim_k + 2) * kSerPs + 3 * kPropPs);

  // The point: with one class the same pauses stop the victim's packets too (they share P's one
  // queue), and between pauses it shares P's FIFO with g0: it cannot keep half the link.
  PacketModel one(net.n.c, params(), [&] {
    PacketParams q = prm;
    q.traffic_classes = 1;
    return q;
  }());
  const Time victim_one = net.run(one, incast_k, victim_k, 0);
  EXPECT_GT(one.port_stats(net.p).pauses, 0);
  EXPECT_GT(victim_one.picoseconds(), victim_bound_ps(victim_k));
}

TEST(PacketTrafficClass, CreditsPerVirtualLaneKeepAStarvedLaneFromBlockingAnother) {
  // InfiniBand credits, a 128 KiB receive buffer per link split evenly over the two virtual lanes
  // (64 KiB = 15 packets each; one lane: 31 packets). s1's buffer for P's lane 0 fills with
  // packets for the congested g3 and P runs out of lane-0 credits. Lane 1's packets leave s1 for
  // the idle g4 as they land, so a lane-1 credit is back at s0 2 ser + prop (about 5 ser) after it
  // was spent: 15 packets of credit cover that loop three times over at the full rate, and the
  // victim's queue at s0 refills as fast (its sender waits prop for a credit, then ser + prop).
  const int incast_k = 2000, victim_k = 500;
  SharedPort net(LinkFamily::InfiniBand);
  auto vl = [](int n) {
    PacketParams q = classes(n);
    q.port_buffer = Bytes::kib(128);
    return q;
  };
  PacketModel m(net.n.c, params(), vl(2));
  const Time victim = net.run(m, incast_k, victim_k, 1);
  EXPECT_TRUE(m.class_queue(net.p, 0).ever_stalled);   // lane 0 was starved on P ...
  EXPECT_FALSE(m.class_queue(net.p, 1).ever_stalled);  // ... lane 1 never waited there
  EXPECT_LE(victim.picoseconds(), victim_bound_ps(victim_k));

  // One virtual lane: a packet for g3 at the head of P's queue, short of credits, blocks the
  // victim's packets behind it (head-of-line blocking).
  PacketModel one(net.n.c, params(), vl(1));
  const Time victim_one = net.run(one, incast_k, victim_k, 0);
  EXPECT_GT(victim_one.picoseconds(), victim_bound_ps(victim_k));
}

TEST(PacketTrafficClass, AClassBeyondTheConfiguredOnesIsAnInputError) {
  Net n(2, 0, LinkFamily::InfiniBand);
  const LinkId l = n.link(n.gpu[0], n.gpu[1]);
  n.c.finalize();
  PacketModel m(n.c, params(), classes(2));
  try {
    m.start(0, in_class({l}, Bytes(4096), 2), Time::zero());
    ADD_FAILURE() << "class 2 of 2 accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "traffic_class");
    EXPECT_NE(e.message().find("2"), std::string::npos);
  }
}

TEST(PacketTrafficClass, YamlReadsClassesAndRejectsOutOfRange) {
  const YAML::Node root = load_yaml_document("packet:\n  traffic_classes: 4\n  class_scheduling: strict\n", "net.yaml", "");
  const PacketParams p = parse_packet_yaml(root["packet"], "net.yaml");
  EXPECT_EQ(p.traffic_classes, 4);
  EXPECT_EQ(p.class_scheduling, ClassScheduling::Strict);
  EXPECT_EQ(PacketParams{}.traffic_classes, 1);  // the default: one class, as before
  EXPECT_EQ(PacketParams{}.class_scheduling, ClassScheduling::RoundRobin);

  for (const char* bad : {"0", "9", "-1"}) {
    const InputError e = packet_error(std::string("packet:\n  mtu: 4096\n  traffic_classes: ") + bad + "\n");
    EXPECT_EQ(e.key(), "packet.traffic_classes") << bad;
    EXPECT_EQ(e.where().line, 3) << bad;
  }
  const InputError s = packet_error("packet:\n  class_scheduling: wrr\n");
  EXPECT_EQ(s.key(), "packet.class_scheduling");
  EXPECT_NE(s.hint().find("strict"), std::string::npos);
  // 8 virtual lanes over a 16 KiB buffer: 2 KiB each, less than one 4,160-byte packet.
  const InputError b = packet_error("packet:\n  port_buffer: 16KiB\n  traffic_classes: 8\n");
  EXPECT_EQ(b.key(), "packet.traffic_classes");
}

TEST(PacketTrafficClass, ScenarioJobKeyIsCheckedAgainstTheClasses) {
  const std::string head = R"(name: tc
cluster: roce-hosts-one-switch
model: packet
)";
  const std::string jobs = R"(jobs:
  - {name: a, servers: [0, 1], calls: [{collective: sendrecv, size: 1M}]}
  - name: b
    servers: [2, 3]
    traffic_class: 1
    calls: [{collective: sendrecv, size: 1M}]
)";
  // Two classes declared: job b runs in class 1, job a in the default 0.
  const ScenarioSpec ok = parse_scenario_yaml(head + "packet:\n  traffic_classes: 2\n" + jobs, "ok.yaml");
  EXPECT_EQ(ok.jobs[0].traffic_class, 0);
  EXPECT_EQ(ok.jobs[1].traffic_class, 1);

  // One class (the default): class 1 does not exist; the error is at the job's key, line 8.
  const InputError e = scenario_error(head + jobs);
  EXPECT_EQ(e.key(), "jobs[1].traffic_class");
  EXPECT_EQ(e.where().line, 8);
  EXPECT_NE(e.hint().find("traffic_classes"), std::string::npos);
  const InputError neg = scenario_error(head + "packet:\n  traffic_classes: 2\n" +
                                        "jobs:\n  - {name: a, servers: [0, 1], traffic_class: -1, calls: [{collective: sendrecv, size: 1M}]}\n");
  EXPECT_EQ(neg.key(), "jobs[0].traffic_class");
}
