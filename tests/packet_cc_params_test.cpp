// Packet-model parameters (packet_params.hpp): the defaults pass; every contradiction the packet
// issue names is an InputError whose key says which field and whose hint says a fix; names parse
// with the valid ones listed; `auto` resolves per fabric technology.
#include <gtest/gtest.h>

#include <string>

#include "model/packet/congestion_control.hpp"
#include "model/packet/dcqcn.hpp"
#include "model/packet/ib_cc.hpp"
#include "model/packet/packet_params.hpp"
#include "model/packet/tcp.hpp"

using namespace gf;

namespace {

// The InputError validate() raises for `p`, or a failure when it raises none.
InputError error_of(const PacketParams& p) {
  try {
    p.validate({"here.yaml", 7, 0});
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return InputError({}, "", "");
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(PacketCcParams, DefaultsAreConsistent) {
  EXPECT_NO_THROW(PacketParams{}.validate({}));
  // The DCQCN paper's requirement on the defaults: ECN marks fully (Kmax) before PFC pauses (Xoff).
  const PacketParams p;
  EXPECT_LT(p.ecn.kmax, p.pfc.xoff);
  EXPECT_NO_THROW(p.validate_resolved(FlowControl::Pfc, find_congestion_control("dcqcn"), {}));
}

TEST(PacketCcParams, EachContradictionNamesItsKey) {
  struct Case {
    const char* key;
    void (*edit)(PacketParams&);
  };
  const Case cases[] = {
      {"pfc.xon", [](PacketParams& p) { p.pfc.xon = p.pfc.xoff + Bytes(1); }},
      {"ecn.kmin", [](PacketParams& p) { p.ecn.kmin = p.ecn.kmax + Bytes(1); }},
      {"ecn.pmax", [](PacketParams& p) { p.ecn.pmax = 0; }},
      {"ecn.pmax", [](PacketParams& p) { p.ecn.pmax = 1.5; }},
      // MTU 4096 in a 4000-byte port buffer: no packet fits.
      {"mtu", [](PacketParams& p) { p.port_buffer = Bytes(4'000); }},
      // 4100 B holds the MTU but not MTU + 64-byte header = 4160.
      {"port_buffer", [](PacketParams& p) { p.port_buffer = Bytes(4'100); }},
      {"shared_buffer", [](PacketParams& p) { p.shared_buffer = Bytes(100); }},
      {"mtu", [](PacketParams& p) { p.mtu = Bytes(0); }},
      {"pfc.headroom", [](PacketParams& p) { p.pfc.headroom = Bytes(1'000); }},
      {"pfc.xoff", [](PacketParams& p) { p.pfc.xoff = Bytes(0), p.pfc.xon = Bytes(0); }},
      {"flowlet_gap", [](PacketParams& p) { p.flowlet_gap = Time::zero(); }},
      {"dcqcn.g", [](PacketParams& p) { p.cc.get<DcqcnParams>().g = 0; }},
      {"dcqcn.alpha_timer", [](PacketParams& p) { p.cc.get<DcqcnParams>().alpha_timer = Time::zero(); }},
      {"dcqcn.rate_timer", [](PacketParams& p) { p.cc.get<DcqcnParams>().rate_timer = Time::ps(-1); }},
      {"dcqcn.byte_counter", [](PacketParams& p) { p.cc.get<DcqcnParams>().byte_counter = Bytes(0); }},
      {"dcqcn.rate_ai", [](PacketParams& p) { p.cc.get<DcqcnParams>().rate_ai = Bandwidth::bytes_per_s(0); }},
      {"dcqcn.rate_hai", [](PacketParams& p) { p.cc.get<DcqcnParams>().rate_hai = Bandwidth::bytes_per_s(-1); }},
      {"dcqcn.min_rate", [](PacketParams& p) { p.cc.get<DcqcnParams>().min_rate = Bandwidth::bytes_per_s(0); }},
      {"dcqcn.cnp_interval", [](PacketParams& p) { p.cc.get<DcqcnParams>().cnp_interval = Time::ps(-1); }},
      {"ibcc.threshold", [](PacketParams& p) { p.cc.get<IbCcParams>().threshold = Bytes(0); }},
      {"ibcc.ccti_increase", [](PacketParams& p) { p.cc.get<IbCcParams>().ccti_increase = 0; }},
      {"ibcc.ccti_min", [](PacketParams& p) { p.cc.get<IbCcParams>().ccti_min = -1; }},
      {"ibcc.ccti_limit", [](PacketParams& p) { p.cc.get<IbCcParams>().ccti_limit = p.cc.get<IbCcParams>().ccti_min; }},
      {"ibcc.ccti_timer", [](PacketParams& p) { p.cc.get<IbCcParams>().ccti_timer = Time::zero(); }},
      {"ibcc.cct_step", [](PacketParams& p) { p.cc.get<IbCcParams>().cct_step = 0; }},
      {"ibcc.marking_rate", [](PacketParams& p) { p.cc.get<IbCcParams>().marking_rate = -1; }},
      {"tcp.init_cwnd", [](PacketParams& p) { p.cc.get<TcpParams>().init_cwnd_packets = 0; }},
      {"tcp.min_rto", [](PacketParams& p) { p.cc.get<TcpParams>().min_rto = Time::zero(); }},
      {"tcp.max_rto", [](PacketParams& p) { p.cc.get<TcpParams>().max_rto = Time::us(10); }},
      {"tcp.dupack_threshold", [](PacketParams& p) { p.cc.get<TcpParams>().dupack_threshold = 0; }},
  };
  for (const Case& c : cases) {
    PacketParams p;
    c.edit(p);
    const InputError e = error_of(p);
    EXPECT_EQ(e.key(), c.key) << e.what();
    EXPECT_EQ(e.where().file, "here.yaml");
    EXPECT_EQ(e.where().line, 7);
    EXPECT_FALSE(e.hint().empty()) << c.key << " has no fix";
  }
}

TEST(PacketCcParams, XonAboveXoffSaysBothValues) {
  PacketParams p;
  p.pfc.xoff = Bytes(1'000'000);
  p.pfc.xon = Bytes(2'000'000);
  const InputError e = error_of(p);
  EXPECT_TRUE(has(e.message(), "2000000 B")) << e.message();
  EXPECT_TRUE(has(e.message(), "1000000 B")) << e.message();
}

TEST(PacketCcParams, LossyFabricNeedsATransportThatResends) {
  // Flow control none drops on overflow; only TCP resends, so none + dcqcn (or none + none) would
  // lose data for good.
  PacketParams p;
  p.flow_control = FlowControl::None;
  p.congestion_control = find_congestion_control("dcqcn");
  EXPECT_EQ(error_of(p).key(), "congestion_control");
  p.congestion_control = find_congestion_control("none");
  EXPECT_EQ(error_of(p).key(), "congestion_control");
  p.congestion_control = find_congestion_control("tcp");
  EXPECT_NO_THROW(p.validate({}));
}

TEST(PacketCcParams, PfcMustFitItsBuffer) {
  // Xoff 256 KiB + headroom 64 KiB = 320 KiB > 300 KiB of port buffer and no shared buffer.
  PacketParams p;
  p.port_buffer = Bytes::kib(300);
  p.shared_buffer = Bytes(0);
  EXPECT_NO_THROW(p.validate({}));  // auto: the fabric might not use PFC
  try {
    p.validate_resolved(FlowControl::Pfc, find_congestion_control("dcqcn"), {});
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "pfc.xoff");
    EXPECT_TRUE(has(e.message(), std::to_string(320 * 1024) + " B")) << e.message();
  }
  p.flow_control = FlowControl::Pfc;  // chosen explicitly: validate() already says so
  EXPECT_EQ(error_of(p).key(), "pfc.xoff");
}

TEST(PacketCcParams, NamesParseExactlyAndListTheValidOnes) {
  const SourceLocation at{"f.yaml", 3, 5};
  EXPECT_EQ(parse_flow_control("pfc", at, "packet.flow_control"), FlowControl::Pfc);
  EXPECT_EQ(parse_flow_control("credit", at, "k"), FlowControl::Credit);
  EXPECT_EQ(parse_congestion_control("dcqcn", at, "k"), find_congestion_control("dcqcn"));
  EXPECT_EQ(parse_congestion_control("tcp", at, "k"), find_congestion_control("tcp"));
  EXPECT_EQ(parse_congestion_control("ibcc", at, "k"), find_congestion_control("ibcc"));
  EXPECT_EQ(parse_load_balance("flowlet", at, "k"), LoadBalance::Flowlet);
  for (size_t i = 0; i < kLoadBalanceNames.size(); ++i)  // names and enum agree both ways
    EXPECT_EQ(to_string(parse_load_balance(kLoadBalanceNames[i], at, "k")), kLoadBalanceNames[i]);
  try {
    parse_flow_control("pfx", at, "packet.flow_control");
    ADD_FAILURE() << "pfx accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "packet.flow_control");
    EXPECT_EQ(e.where().line, 3);
    EXPECT_TRUE(has(e.hint(), "did you mean 'pfc'")) << e.hint();
    EXPECT_TRUE(has(e.hint(), "auto, none, pfc, credit")) << e.hint();
  }
  try {
    parse_congestion_control("dctcp", at, "k");
    ADD_FAILURE() << "dctcp accepted";
  } catch (const InputError& e) {
    EXPECT_TRUE(has(e.message(), "'dctcp'")) << e.message();
    EXPECT_TRUE(has(e.hint(), "dcqcn, tcp")) << e.hint();
  }
  EXPECT_THROW(parse_load_balance("ECMP", at, "k"), InputError);  // exact names only
}

TEST(PacketCcParams, AutoFollowsTheFabric) {
  EXPECT_EQ(resolve_flow_control(FlowControl::Auto, LinkFamily::InfiniBand), FlowControl::Credit);
  EXPECT_EQ(&resolve_congestion_control(nullptr, LinkFamily::InfiniBand), find_congestion_control("none"));
  EXPECT_EQ(resolve_flow_control(FlowControl::Auto, LinkFamily::RoCE), FlowControl::Pfc);
  EXPECT_EQ(&resolve_congestion_control(nullptr, LinkFamily::RoCE), find_congestion_control("dcqcn"));
  EXPECT_EQ(resolve_flow_control(FlowControl::Auto, LinkFamily::EthernetTcp), FlowControl::None);
  EXPECT_EQ(&resolve_congestion_control(nullptr, LinkFamily::EthernetTcp), find_congestion_control("tcp"));
  EXPECT_EQ(resolve_flow_control(FlowControl::Auto, LinkFamily::NvLink), FlowControl::Credit);
  // An explicit choice stands: RoCE without PFC, with TCP.
  EXPECT_EQ(resolve_flow_control(FlowControl::None, LinkFamily::RoCE), FlowControl::None);
  EXPECT_EQ(&resolve_congestion_control(find_congestion_control("tcp"), LinkFamily::RoCE), find_congestion_control("tcp"));
  // Every auto pair is one validate_resolved accepts (no lossy fabric without TCP).
  for (LinkFamily f : {LinkFamily::NvLink, LinkFamily::NvLinkC2C, LinkFamily::Pcie, LinkFamily::Xgmi,
                       LinkFamily::InterSocket, LinkFamily::InfiniBand, LinkFamily::RoCE, LinkFamily::EthernetTcp,
                       LinkFamily::Efa, LinkFamily::GaudiRoce})
    EXPECT_NO_THROW(PacketParams{}.validate_resolved(resolve_flow_control(FlowControl::Auto, f),
                                                     &resolve_congestion_control(nullptr, f), {}))
        << to_string(f);
  EXPECT_EQ(resolve_load_balance(LoadBalance::Auto, RoutingPolicy::Ecmp), LoadBalance::Ecmp);
  EXPECT_EQ(resolve_load_balance(LoadBalance::Auto, RoutingPolicy::Spray), LoadBalance::Spray);
  EXPECT_EQ(resolve_load_balance(LoadBalance::Auto, RoutingPolicy::Adaptive), LoadBalance::Adaptive);
  EXPECT_EQ(resolve_load_balance(LoadBalance::Flowlet, RoutingPolicy::Ecmp), LoadBalance::Flowlet);
}
