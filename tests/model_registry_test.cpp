// The fidelity levels by name (model/model_factory.hpp): one registry that names, describes and
// cites each model and makes it, and one check, require_model, that every caller taking a model
// name from a user goes through (perf, sweeps, scenarios, validate, doctor).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "model/model_factory.hpp"
#include "packet_test_net.hpp"

using namespace gf;
using namespace gf::testnet;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(ModelRegistry, EveryLevelIsNamedDescribedCitedAndMadeByName) {
  Net n(2, 0, LinkFamily::InfiniBand);
  n.link(n.gpu[0], n.gpu[1]);
  n.c.finalize();
  std::set<std::string> names;
  for (const ModelInfo& m : model_registry()) {
    EXPECT_TRUE(names.insert(m.name).second) << m.name << " registered twice";
    EXPECT_FALSE(m.description.empty()) << m.name;
    EXPECT_FALSE(m.source.empty()) << m.name;
    EXPECT_EQ(&require_model(m.name, {}, "--model"), &m);
    const std::unique_ptr<Model> made = make_model(m.name, n.c);
    ASSERT_NE(made, nullptr) << m.name;
    EXPECT_EQ(made->name(), m.name);  // the factory makes the model it is named for
  }
  EXPECT_EQ(model_names(), (std::vector<std::string>{"analytical", "flow", "packet"}));
  EXPECT_EQ(names.count(default_model_name()), 1u);
  EXPECT_EQ(make_model("fluid", n.c), nullptr);
}

TEST(ModelRegistry, AnUnknownNameIsAnInputErrorAtTheGivenPlace) {
  try {
    require_model("flwo", {"run.yaml", 4, 8}, "model");
    ADD_FAILURE() << "flwo accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "model");
    EXPECT_EQ(e.where().file, "run.yaml");
    EXPECT_EQ(e.where().line, 4);
    EXPECT_EQ(e.message(), "unknown model 'flwo'");
    EXPECT_TRUE(has(e.hint(), "did you mean 'flow'")) << e.hint();
    EXPECT_TRUE(has(e.hint(), "valid: analytical, flow, packet")) << e.hint();
  }
  EXPECT_THROW(require_model("Flow", {}, "--model"), InputError);  // exact names only
}

TEST(ModelRegistry, PacketSettingsReachThePacketModelByTheirOwnChannel) {
  // One 40 KiB transfer over one link: at MTU 4096 it is 10 packets, at MTU 1024 it is 40. The
  // settings travel beside the shared ModelParams, not inside them.
  Net n(2, 0, LinkFamily::InfiniBand);
  const LinkId l = n.link(n.gpu[0], n.gpu[1]);
  n.c.finalize();
  auto packets_sent = [&](Bytes mtu) {
    PacketParams packet;
    packet.mtu = mtu;
    std::unique_ptr<Model> m = make_model("packet", n.c, params(), packet);
    m->start(0, transfer({l}, Bytes::kib(40)), Time::zero());
    drain(*m, 1);
    for (const auto& [k, v] : m->statistics())
      if (k == "packets_sent") return v;
    return int64_t{-1};
  };
  EXPECT_EQ(packets_sent(Bytes(4096)), 10);
  EXPECT_EQ(packets_sent(Bytes(1024)), 40);
  // Settings the packet model cannot run with are its error, whatever made it.
  PacketParams tiny;
  tiny.port_buffer = Bytes(1000);  // less than one 4,160-byte packet
  EXPECT_THROW(make_model("packet", n.c, params(), tiny), InputError);
  EXPECT_NO_THROW(make_model("flow", n.c, params(), tiny));  // the other models ignore them
}
