// The `packet:` YAML block (model/packet/packet_yaml.hpp): every key reaches PacketParams with its unit,
// and every error names file:line and the dotted key, with a fix.
#include <gtest/gtest.h>

#include <string>

#include "model/packet/congestion_control.hpp"
#include "model/packet/dcqcn.hpp"
#include "model/packet/ib_cc.hpp"
#include "model/packet/packet_yaml.hpp"
#include "model/packet/tcp.hpp"
#include "config/yaml_fields.hpp"

using namespace gf;

namespace {

PacketParams parse(const std::string& text) {
  const YAML::Node root = load_yaml_document(text, "net.yaml", "");
  return parse_packet_yaml(root["packet"], "net.yaml");
}

InputError error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return InputError({}, "", "");
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(PacketCcYaml, EveryKeyIsRead) {
  const PacketParams p = parse(R"(packet:
  mtu: 1500
  header: 78
  port_buffer: 1MiB
  shared_buffer: 0
  flow_control: pfc
  congestion_control: dcqcn
  load_balance: flowlet
  flowlet_gap: 20us
  seed: 9
  ecn: {kmin: 10KB, kmax: 100KB, pmax: 0.2}
  pfc: {xoff: 300KB, xon: 200KB, headroom: 80KB}
  dcqcn:
    g: 0.0625
    initial_alpha: 0.5
    alpha_timer: 40us
    rate_timer: 300us
    byte_counter: 32KB
    fast_recovery_steps: 1
    rate_ai: 5Mbps
    rate_hai: 50Mbps
    cnp_interval: 4us
    min_rate: 1Gbps
  tcp: {init_cwnd: 4, min_rto: 200us, initial_rto: 3ms, max_rto: 1s, dupack_threshold: 2}
)");
  EXPECT_EQ(p.mtu, Bytes(1'500));
  EXPECT_EQ(p.header, Bytes(78));
  EXPECT_EQ(p.port_buffer, Bytes::mib(1));
  EXPECT_EQ(p.shared_buffer, Bytes(0));
  EXPECT_EQ(p.flow_control, FlowControl::Pfc);
  EXPECT_EQ(p.congestion_control, find_congestion_control("dcqcn"));
  EXPECT_EQ(p.load_balance, LoadBalance::Flowlet);
  EXPECT_EQ(p.flowlet_gap, Time::us(20));
  EXPECT_EQ(p.seed, 9u);
  EXPECT_EQ(p.ecn.kmin, Bytes::kib(10));  // sizes: K = 1024, as nccl-tests reads them
  EXPECT_EQ(p.ecn.kmax, Bytes::kib(100));
  EXPECT_DOUBLE_EQ(p.ecn.pmax, 0.2);
  EXPECT_EQ(p.pfc.xoff, Bytes::kib(300));
  EXPECT_EQ(p.pfc.xon, Bytes::kib(200));
  EXPECT_EQ(p.pfc.headroom, Bytes::kib(80));
  EXPECT_DOUBLE_EQ(p.cc.get<DcqcnParams>().g, 0.0625);
  EXPECT_DOUBLE_EQ(p.cc.get<DcqcnParams>().initial_alpha, 0.5);
  EXPECT_EQ(p.cc.get<DcqcnParams>().alpha_timer, Time::us(40));
  EXPECT_EQ(p.cc.get<DcqcnParams>().rate_timer, Time::us(300));
  EXPECT_EQ(p.cc.get<DcqcnParams>().byte_counter, Bytes::kib(32));
  EXPECT_EQ(p.cc.get<DcqcnParams>().fast_recovery_steps, 1);
  EXPECT_DOUBLE_EQ(p.cc.get<DcqcnParams>().rate_ai.bytes_per_second(), 5e6 / 8);  // 5 Mb/s = 625,000 B/s
  EXPECT_DOUBLE_EQ(p.cc.get<DcqcnParams>().rate_hai.bytes_per_second(), 50e6 / 8);
  EXPECT_EQ(p.cc.get<DcqcnParams>().cnp_interval, Time::us(4));
  EXPECT_DOUBLE_EQ(p.cc.get<DcqcnParams>().min_rate.to_gbps(), 1.0);
  EXPECT_EQ(p.cc.get<TcpParams>().init_cwnd_packets, 4);
  EXPECT_EQ(p.cc.get<TcpParams>().min_rto, Time::us(200));
  EXPECT_EQ(p.cc.get<TcpParams>().initial_rto, Time::ms(3));
  EXPECT_EQ(p.cc.get<TcpParams>().max_rto, Time::s(1));
  EXPECT_EQ(p.cc.get<TcpParams>().dupack_threshold, 2);
}

TEST(PacketCcYaml, UnsetKeysKeepTheDefaults) {
  const PacketParams p = parse("packet:\n  mtu: 2048\n");
  const PacketParams d;
  EXPECT_EQ(p.mtu, Bytes(2'048));
  EXPECT_EQ(p.pfc.xoff, d.pfc.xoff);
  EXPECT_EQ(p.cc.get<DcqcnParams>().rate_timer, d.cc.get<DcqcnParams>().rate_timer);
  EXPECT_EQ(p.flow_control, FlowControl::Auto);
}

TEST(PacketCcYaml, UnknownKeyNamesFileLineAndSuggests) {
  // Line 4 is `xof:`, inside pfc.
  const InputError e = error_of("packet:\n  mtu: 4096\n  pfc:\n    xof: 100KB\n");
  EXPECT_EQ(e.where().file, "net.yaml");
  EXPECT_EQ(e.where().line, 4);
  EXPECT_EQ(e.key(), "packet.pfc.xof");
  EXPECT_TRUE(has(e.hint(), "did you mean 'xoff'")) << e.hint();
  const InputError top = error_of("packet:\n  congestion: dcqcn\n");
  EXPECT_EQ(top.key(), "packet.congestion");
  EXPECT_EQ(top.where().line, 2);
}

TEST(PacketCcYaml, BadNameListsTheValidOnes) {
  const InputError e = error_of("packet:\n  mtu: 4096\n  congestion_control: dctcp\n");
  EXPECT_EQ(e.where().line, 3);
  EXPECT_EQ(e.key(), "packet.congestion_control");
  EXPECT_TRUE(has(e.hint(), "valid: auto, none, dcqcn, tcp, ibcc")) << e.hint();
}

TEST(PacketCcYaml, BadUnitsNameTheirKey) {
  const InputError size = error_of("packet:\n  port_buffer: lots\n");
  EXPECT_EQ(size.key(), "packet.port_buffer");
  EXPECT_EQ(size.where().line, 2);
  const InputError time = error_of("packet:\n  dcqcn:\n    rate_timer: 55\n");
  EXPECT_EQ(time.key(), "packet.dcqcn.rate_timer");
  EXPECT_EQ(time.where().line, 3);
  const InputError rate = error_of("packet:\n  dcqcn: {rate_ai: 40M}\n");
  EXPECT_EQ(rate.key(), "packet.dcqcn.rate_ai");
  const InputError count = error_of("packet:\n  tcp: {init_cwnd: 0}\n");
  EXPECT_EQ(count.key(), "packet.tcp.init_cwnd");
}

TEST(PacketCcYaml, ContradictionsPointAtTheKeyWritten) {
  // Xon above Xoff, both written: reported at xon's line (4).
  const InputError xon = error_of("packet:\n  pfc:\n    xoff: 100KB\n    xon: 200KB\n");
  EXPECT_EQ(xon.key(), "packet.pfc.xon");
  EXPECT_EQ(xon.where().line, 4);
  EXPECT_EQ(xon.where().file, "net.yaml");
  // Kmin above the default Kmax (200 KiB): reported at kmin's line (3).
  const InputError kmin = error_of("packet:\n  ecn:\n    kmin: 300KB\n");
  EXPECT_EQ(kmin.key(), "packet.ecn.kmin");
  EXPECT_EQ(kmin.where().line, 3);
  // Kmax below the default Kmin (5 KiB): the offending kmin is a default, not written, so the
  // error points at the block (line 2, its first key) and still names ecn.kmin.
  const InputError kmax = error_of("packet:\n  ecn: {kmax: 1KB}\n");
  EXPECT_EQ(kmax.key(), "packet.ecn.kmin");
  EXPECT_EQ(kmax.where().line, 2);
  // An MTU larger than the port buffer, and Pmax outside (0, 1].
  const InputError mtu = error_of("packet:\n  port_buffer: 2KB\n  mtu: 4096\n");
  EXPECT_EQ(mtu.key(), "packet.mtu");
  EXPECT_EQ(mtu.where().line, 3);
  EXPECT_EQ(error_of("packet:\n  ecn: {pmax: 1.5}\n").key(), "packet.ecn.pmax");
  // A lossy fabric with DCQCN: nothing would resend a drop.
  const InputError lossy = error_of("packet:\n  flow_control: none\n  congestion_control: dcqcn\n");
  EXPECT_EQ(lossy.key(), "packet.congestion_control");
  EXPECT_EQ(lossy.where().line, 3);
}

TEST(PacketCcYaml, IbCcBlockIsReadAndChecked) {
  const PacketParams p = parse(R"(packet:
  congestion_control: ibcc
  ibcc: {threshold: 32KiB, ccti_increase: 2, ccti_limit: 63, ccti_min: 1, ccti_timer: 20us, cct_step: 0.5,
         marking_rate: 3}
)");
  EXPECT_EQ(p.congestion_control, find_congestion_control("ibcc"));
  EXPECT_EQ(p.cc.get<IbCcParams>().threshold, Bytes::kib(32));
  EXPECT_EQ(p.cc.get<IbCcParams>().ccti_increase, 2);
  EXPECT_EQ(p.cc.get<IbCcParams>().ccti_limit, 63);
  EXPECT_EQ(p.cc.get<IbCcParams>().ccti_min, 1);
  EXPECT_EQ(p.cc.get<IbCcParams>().ccti_timer, Time::us(20));
  EXPECT_DOUBLE_EQ(p.cc.get<IbCcParams>().cct_step, 0.5);
  EXPECT_EQ(p.cc.get<IbCcParams>().marking_rate, 3);
  // A table limit at or below its minimum leaves the index nowhere to move: named at its line.
  const InputError e = error_of("packet:\n  ibcc:\n    ccti_min: 10\n    ccti_limit: 10\n");
  EXPECT_EQ(e.key(), "packet.ibcc.ccti_limit");
  EXPECT_EQ(e.where().line, 4);
  EXPECT_EQ(error_of("packet:\n  ibcc: {thresold: 1KiB}\n").key(), "packet.ibcc.thresold");
  EXPECT_EQ(error_of("packet:\n  ibcc: {marking_rate: -1}\n").key(), "packet.ibcc.marking_rate");
}

TEST(PacketCcYaml, NotAMapping) {
  const InputError e = error_of("packet: fast\n");
  EXPECT_EQ(e.key(), "packet");
  EXPECT_EQ(e.where().line, 1);
}
