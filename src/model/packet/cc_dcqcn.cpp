// `congestion_control: dcqcn`: DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA
// Deployments", SIGCOMM 2015), what `auto` means on RoCE, where it is the NVIDIA ConnectX default.
// Switch egress queues mark ECN with the RED-like ramp of the `ecn:` block (ecn_marker.hpp: a
// switch setting, so it stays in PacketParams); each connection's reaction and notification points
// (dcqcn.hpp) read the `dcqcn:` block. The notification point runs when the acknowledgement of a
// marked packet reaches the sender (one path latency after delivery), which is when the CNP it
// would send arrives; the reaction point's timers run at each ack (evaluated lazily).
#include "core/hash.hpp"
#include "model/packet/congestion_control.hpp"
#include "model/packet/dcqcn.hpp"
#include "model/packet/ecn_marker.hpp"
#include "model/packet/packet_params.hpp"
#include "model/packet/packet_yaml_fields.hpp"

namespace gf {
namespace {

class DcqcnControl final : public RateControl {
 public:
  DcqcnControl(const DcqcnParams& p, const EcnParams& ecn, uint64_t seed) : p_(p), marker_(ecn, seed) {}

  bool mark(LinkId port, int64_t queued, bool, Time) override {
    // The draw's key: the port and how many draws came before (the engine's event order is fixed).
    return marker_.mark(Bytes(queued), mix_hash(static_cast<uint64_t>(port), ++marks_drawn_));
  }
  void add_connection(double line_rate) override {
    rp_.emplace_back(p_, Bandwidth::bytes_per_s(line_rate));
    np_.emplace_back(p_.cnp_interval);
  }
  double on_flow_start(size_t c, Time now) override {
    DcqcnReactionPoint& rp = rp_[c];
    rp.on_timer(now);  // increases due while the connection was idle
    return rp.limited() ? rp.rate().bytes_per_second() : 0;  // a new connection starts at line rate
  }
  double on_ack(size_t c, uint32_t bytes, bool marked, Time now) override {
    DcqcnReactionPoint& rp = rp_[c];
    rp.on_timer(now);
    rp.on_bytes_sent(Bytes(bytes));
    if (marked && np_[c].on_marked_packet(now)) {
      rp.on_cnp(now);
      ++cnps_;
    }
    return rp.limited() ? rp.rate().bytes_per_second() : 0;
  }
  std::vector<int64_t> counts() const override { return {cnps_}; }

 private:
  DcqcnParams p_;
  EcnMarker marker_;
  uint64_t marks_drawn_ = 0;
  std::vector<DcqcnReactionPoint> rp_;      // by connection
  std::vector<DcqcnNotificationPoint> np_;  // by connection
  int64_t cnps_ = 0;
};

class Dcqcn final : public CongestionControl {
 public:
  std::string name() const override { return "dcqcn"; }
  std::string description() const override {
    return "DCQCN: ECN marking at switch queues, CNPs, rate cut and recovery at the sending NIC (RoCE's default)";
  }
  std::string source() const override { return "Zhu et al., Congestion Control for Large-Scale RDMA Deployments, SIGCOMM 2015"; }
  std::vector<LinkFamily> auto_for() const override { return {LinkFamily::RoCE, LinkFamily::GaudiRoce}; }

  std::string block() const override { return "dcqcn"; }
  std::vector<std::string> keys() const override {
    return {"g", "initial_alpha", "alpha_timer", "rate_timer", "byte_counter",
            "fast_recovery_steps", "rate_ai", "rate_hai", "cnp_interval", "min_rate"};
  }
  void parse(const YamlFields& e, CcSettings& s) const override {
    DcqcnParams& d = s.get<DcqcnParams>();
    d.g = e.number_or("g", d.g, 0.0);
    d.initial_alpha = e.number_or("initial_alpha", d.initial_alpha, 0.0);
    time_field(e, "alpha_timer", d.alpha_timer);
    time_field(e, "rate_timer", d.rate_timer);
    size_field(e, "byte_counter", d.byte_counter);
    d.fast_recovery_steps = static_cast<int>(e.integer_or("fast_recovery_steps", d.fast_recovery_steps, 0));
    rate_field(e, "rate_ai", d.rate_ai);
    rate_field(e, "rate_hai", d.rate_hai);
    time_field(e, "cnp_interval", d.cnp_interval);
    rate_field(e, "min_rate", d.min_rate);
  }
  void validate(const CcSettings& s, const SourceLocation& where) const override {
    const DcqcnParams& d = s.get<DcqcnParams>();
    auto fail = [&](const std::string& key, const std::string& msg, const std::string& hint) {
      throw InputError(where, "dcqcn." + key, msg, hint);
    };
    auto positive_time = [&](const std::string& key, Time t) {
      if (t <= Time::zero()) fail(key, "must be longer than 0, got " + to_string(t), "give a time such as 50us");
    };
    auto positive_rate = [&](const std::string& key, Bandwidth b) {
      if (!(b.bytes_per_second() > 0)) fail(key, "must be a positive rate", "give a rate such as 40Mbps");
    };
    if (!(d.g > 0 && d.g <= 1)) fail("g", "must be in (0, 1], got " + std::to_string(d.g), "the DCQCN paper uses 1/256 = 0.00390625");
    if (!(d.initial_alpha >= 0 && d.initial_alpha <= 1))
      fail("initial_alpha", "must be in [0, 1], got " + std::to_string(d.initial_alpha), "the DCQCN paper starts at 1");
    positive_time("alpha_timer", d.alpha_timer);
    positive_time("rate_timer", d.rate_timer);
    if (d.byte_counter.count() <= 0)
      fail("byte_counter", "must be above 0, got " + std::to_string(d.byte_counter.count()) + " B", "the DCQCN paper uses 10MB");
    if (d.fast_recovery_steps < 0)
      fail("fast_recovery_steps", "cannot be negative, got " + std::to_string(d.fast_recovery_steps), "the DCQCN paper uses 5");
    positive_rate("rate_ai", d.rate_ai);
    positive_rate("rate_hai", d.rate_hai);
    positive_rate("min_rate", d.min_rate);
    if (d.cnp_interval < Time::zero())
      fail("cnp_interval", "cannot be negative, got " + to_string(d.cnp_interval), "0 sends a CNP for every marked packet; the paper uses 50us");
  }

  std::vector<std::string> counters() const override { return {"cnps"}; }
  std::unique_ptr<RateControl> make(const PacketParams& p, size_t) const override {
    return std::make_unique<DcqcnControl>(p.cc.get<DcqcnParams>(), p.ecn, p.seed);
  }
};

}  // namespace

std::unique_ptr<const CongestionControl> make_dcqcn_cc() { return std::make_unique<Dcqcn>(); }

}  // namespace gf
