// `congestion_control: tcp`: a NewReno-style TCP (RFC 5681, 6582, 6298; tcp.hpp), what `auto`
// means on Ethernet without RDMA and on EFA (whose SRD is lossy and retransmits: TCP is the
// nearest transport modelled). It is a window, not a rate: the packet model runs a TcpConnection
// for every flow whose path crosses a lossy link, whatever congestion_control says, because it is
// the only modelled transport that resends a lost packet; so this entry controls no rate of its
// own (make() is nullptr) and owns the `tcp:` block those connections read.
#include "model/packet/congestion_control.hpp"
#include "model/packet/packet_yaml_fields.hpp"
#include "model/packet/tcp.hpp"

namespace gf {
namespace {

class Tcp final : public CongestionControl {
 public:
  std::string name() const override { return "tcp"; }
  std::string description() const override {
    return "TCP NewReno: slow start, fast retransmit and recovery, retransmission timer (lossy Ethernet, EFA)";
  }
  std::string source() const override { return "RFC 5681, RFC 6582, RFC 6298"; }
  std::vector<LinkFamily> auto_for() const override { return {LinkFamily::EthernetTcp, LinkFamily::Efa}; }
  bool recovers_losses() const override { return true; }

  std::string block() const override { return "tcp"; }
  std::vector<std::string> keys() const override { return {"init_cwnd", "min_rto", "initial_rto", "max_rto", "dupack_threshold"}; }
  void parse(const YamlFields& e, CcSettings& s) const override {
    TcpParams& t = s.get<TcpParams>();
    t.init_cwnd_packets = static_cast<int>(e.integer_or("init_cwnd", t.init_cwnd_packets, 1));
    time_field(e, "min_rto", t.min_rto);
    time_field(e, "initial_rto", t.initial_rto);
    time_field(e, "max_rto", t.max_rto);
    t.dupack_threshold = static_cast<int>(e.integer_or("dupack_threshold", t.dupack_threshold, 1));
  }
  void validate(const CcSettings& s, const SourceLocation& where) const override {
    const TcpParams& t = s.get<TcpParams>();
    auto fail = [&](const std::string& key, const std::string& msg, const std::string& hint) {
      throw InputError(where, "tcp." + key, msg, hint);
    };
    auto positive_time = [&](const std::string& key, Time v) {
      if (v <= Time::zero()) fail(key, "must be longer than 0, got " + to_string(v), "give a time such as 50us");
    };
    if (t.init_cwnd_packets < 1) fail("init_cwnd", "must be at least 1 packet, got " + std::to_string(t.init_cwnd_packets), "RFC 6928 uses 10");
    if (t.dupack_threshold < 1) fail("dupack_threshold", "must be at least 1, got " + std::to_string(t.dupack_threshold), "RFC 5681 uses 3");
    positive_time("min_rto", t.min_rto);
    positive_time("initial_rto", t.initial_rto);
    if (t.max_rto < t.min_rto)
      fail("max_rto", "max_rto " + to_string(t.max_rto) + " is below min_rto " + to_string(t.min_rto),
           "RFC 6298 (2.5) allows a maximum of at least 60s");
  }
};

}  // namespace

std::unique_ptr<const CongestionControl> make_tcp_cc() { return std::make_unique<Tcp>(); }

}  // namespace gf
