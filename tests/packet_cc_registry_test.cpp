// The congestion-control registry (model/packet/congestion_control.hpp): every scheme is one entry
// that names and cites itself, says which fabrics `auto` gives it, reads its own YAML block and
// makes its own per-run state; CongestionHooks runs whatever scheme it is handed, so a scheme
// written outside the registry (here, in this test) plugs in without any other edit.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "config/yaml_fields.hpp"
#include "model/packet/congestion_control.hpp"
#include "model/packet/congestion_hooks.hpp"
#include "model/packet/dcqcn.hpp"
#include "model/packet/packet_yaml.hpp"
#include "packet_test_net.hpp"

using namespace gf;
using namespace gf::testnet;

namespace {

const std::vector<LinkFamily> kFamilies = {LinkFamily::NvLink, LinkFamily::NvLinkC2C, LinkFamily::Pcie,
                                           LinkFamily::Xgmi, LinkFamily::InterSocket, LinkFamily::InfiniBand,
                                           LinkFamily::RoCE, LinkFamily::EthernetTcp, LinkFamily::Efa,
                                           LinkFamily::GaudiRoce};

// A scheme this file alone defines: it marks every packet queued above 1,000 B and holds every
// connection to 1e9 B/s after a marked ack; it counts its marks and its connections.
struct TestRate final : RateControl {
  int64_t marks = 0, connections = 0;
  bool mark(LinkId, int64_t queued, bool, Time) override { return queued > 1000 && ++marks > 0; }
  void add_connection(double) override { ++connections; }
  double on_flow_start(size_t, Time) override { return 0; }
  double on_ack(size_t, uint32_t, bool marked, Time) override { return marked ? 1e9 : 0; }
  std::vector<int64_t> counts() const override { return {marks, connections}; }
};
struct TestScheme final : CongestionControl {
  std::string name() const override { return "test"; }
  std::string description() const override { return "a test scheme"; }
  std::string source() const override { return "this test"; }
  std::vector<std::string> counters() const override { return {"test_marks", "test_connections"}; }
  std::unique_ptr<RateControl> make(const PacketParams&, size_t) const override { return std::make_unique<TestRate>(); }
};

}  // namespace

TEST(PacketCcRegistry, EveryEntryNamesDescribesAndCitesItself) {
  std::set<std::string> names, blocks, counters;
  for (const auto& cc : congestion_control_registry()) {
    EXPECT_TRUE(names.insert(cc->name()).second) << cc->name() << " registered twice";
    EXPECT_FALSE(cc->description().empty()) << cc->name();
    EXPECT_FALSE(cc->source().empty()) << cc->name();
    if (!cc->block().empty()) {
      EXPECT_TRUE(blocks.insert(cc->block()).second) << cc->block() << " read by two schemes";
      EXPECT_FALSE(cc->keys().empty()) << cc->name() << " has a block but no keys";
    }
    for (const std::string& c : cc->counters()) EXPECT_TRUE(counters.insert(c).second) << c << " counted twice";
  }
  EXPECT_EQ(names.count("auto"), 0u) << "auto is not a scheme: it resolves to one";
  // The names a file may write: auto, then the registered ones in registration order (the order
  // messages list them in; the first four are the ones files and messages have always had).
  const std::vector<std::string> valid = congestion_control_names();
  ASSERT_EQ(valid.size(), congestion_control_registry().size() + 1);
  EXPECT_EQ(std::vector<std::string>(valid.begin(), valid.begin() + 5),
            (std::vector<std::string>{"auto", "none", "dcqcn", "tcp", "ibcc"}));
  for (size_t i = 1; i < valid.size(); ++i) EXPECT_EQ(valid[i], congestion_control_registry()[i - 1]->name());
  // Every scheme's block is a key of the packet block; the blocks are read in name order, so the
  // first error of a file is the same whatever order the schemes were registered in.
  const auto& keys = packet_yaml_keys();
  for (const std::string& b : blocks) EXPECT_NE(std::find(keys.begin(), keys.end(), b), keys.end()) << b;
  std::vector<std::string> order;
  for (const CongestionControl* cc : congestion_control_blocks()) order.push_back(cc->block());
  EXPECT_EQ(order, std::vector<std::string>(blocks.begin(), blocks.end()));  // std::set iterates sorted
}

TEST(PacketCcRegistry, AutoGivesEachFamilyOneSchemeAndNoneWhenUnclaimed) {
  for (LinkFamily f : kFamilies) {
    int claims = 0;
    for (const auto& cc : congestion_control_registry()) {
      const auto fams = cc->auto_for();
      claims += static_cast<int>(std::count(fams.begin(), fams.end(), f));
    }
    EXPECT_LE(claims, 1) << to_string(f) << " claimed by several schemes";
    if (claims == 0) {
      EXPECT_EQ(&resolve_congestion_control(nullptr, f), &no_congestion_control()) << to_string(f);
    }
  }
  // An explicit choice is never replaced.
  for (const auto& cc : congestion_control_registry())
    for (LinkFamily f : kFamilies) EXPECT_EQ(&resolve_congestion_control(cc.get(), f), cc.get());
}

TEST(PacketCcRegistry, OnlyRateControllingSchemesMakeState) {
  // DCQCN and InfiniBand CC mark and pace; none does nothing; TCP's windows are the engine's (it
  // runs them for every flow over a lossy link), so it makes no RateControl. Only TCP resends.
  const PacketParams p;
  EXPECT_EQ(find_congestion_control("none")->make(p, 4), nullptr);
  EXPECT_EQ(find_congestion_control("tcp")->make(p, 4), nullptr);
  EXPECT_NE(find_congestion_control("dcqcn")->make(p, 4), nullptr);
  EXPECT_NE(find_congestion_control("ibcc")->make(p, 4), nullptr);
  for (const auto& cc : congestion_control_registry())
    EXPECT_EQ(cc->recovers_losses(), cc->name() == "tcp") << cc->name();
  EXPECT_THROW(find_congestion_control("dctcp"), std::invalid_argument);
  EXPECT_EQ(no_congestion_control().name(), "none");
}

TEST(PacketCcRegistry, ASchemeReadsAndChecksItsOwnBlock) {
  // The dcqcn entry reads `dcqcn:` into its own settings type, whatever scheme the file runs.
  const YAML::Node root = load_yaml_document("dcqcn: {g: 0.5, rate_timer: 7us}\n", "cc.yaml", "");
  const CongestionControl& d = *find_congestion_control("dcqcn");
  CcSettings s;
  d.parse(YamlFields(root["dcqcn"], "cc.yaml", "packet.dcqcn", d.keys()), s);
  EXPECT_DOUBLE_EQ(s.get<DcqcnParams>().g, 0.5);
  EXPECT_EQ(s.get<DcqcnParams>().rate_timer, Time::us(7));
  EXPECT_EQ(s.get<DcqcnParams>().alpha_timer, DcqcnParams{}.alpha_timer);  // unset: the default
  s.get<DcqcnParams>().g = 2;  // outside (0, 1]
  try {
    d.validate(s, {"cc.yaml", 1, 1});
    ADD_FAILURE() << "g = 2 accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "dcqcn.g");
    EXPECT_FALSE(e.hint().empty());
  }
}

TEST(PacketCcRegistry, HooksRunASchemeTheyAreHanded) {
  // Two links, lossless; the hooks route marking, connections and acks to the scheme's state and
  // report its counter under its own name, 0 under every other scheme's.
  const TestScheme scheme;
  const std::vector<LinkFlowMode> modes(2, LinkFlowMode::Lossless);
  CongestionHooks h(PacketParams{}, modes, scheme, false);
  EXPECT_TRUE(h.controls_rate());
  EXPECT_FALSE(h.on_enqueue(0, 1000, false, Time::zero()));  // at 1,000 B: not above
  EXPECT_TRUE(h.on_enqueue(1, 1001, false, Time::zero()));
  EXPECT_TRUE(h.on_enqueue(0, 5000, true, Time::zero()));
  FlowStart start;
  start.line_rate = 12.5e9;
  start.endpoints = 7;
  EXPECT_EQ(h.on_flow_start(0, start, Time::zero()), 0);
  EXPECT_EQ(h.on_ack(0, 4096, false, Time::us(1)), 0);
  EXPECT_EQ(h.on_ack(0, 4096, true, Time::us(2)), 1e9);
  EXPECT_EQ(h.count(scheme, 0), 2);  // the two marks above
  EXPECT_EQ(h.count(*find_congestion_control("dcqcn"), 0), 0);
  EXPECT_EQ(h.count(scheme, 1), 1);
  // A freed flow's connection carries over to the next flow between the same endpoints; other
  // endpoints get a new one.
  h.on_flow_freed(0);
  h.on_flow_start(1, start, Time::us(3));
  EXPECT_EQ(h.count(scheme, 1), 1);
  start.endpoints = 8;
  h.on_flow_start(2, start, Time::us(3));
  EXPECT_EQ(h.count(scheme, 1), 2);
}
