// `congestion_control: ibcc`: InfiniBand congestion control (InfiniBand Architecture
// Specification vol. 1, annex A10), asked for explicitly (the subnet manager configures it; it is
// not on by itself, so `auto` on InfiniBand is `none`). The switch side is here: a port whose
// egress queue is above the threshold marks FECN on the packets it queues, one in every
// marking_rate + 1, but only while it is a root of congestion (a port blocked for credits or by a
// pause is a victim: the spec's Victim_Mask off). The destination returns a BECN per FECN, and the
// source's congestion control agent (ib_cc.hpp) follows its table; both read the `ibcc:` block.
#include "model/packet/congestion_control.hpp"
#include "model/packet/ib_cc.hpp"
#include "model/packet/packet_params.hpp"
#include "model/packet/packet_yaml_fields.hpp"

namespace gf {
namespace {

class IbCcControl final : public RateControl {
 public:
  IbCcControl(const IbCcParams& p, size_t links) : p_(p), unmarked_(links, p.marking_rate) {}  // the first eligible packet is marked

  bool mark(LinkId port, int64_t queued, bool blocked, Time) override {
    if (blocked || queued <= p_.threshold.count()) return false;
    int32_t& since = unmarked_[static_cast<size_t>(port)];
    if (since < p_.marking_rate) {
      ++since;
      return false;
    }
    since = 0;
    return true;
  }
  void add_connection(double line_rate) override { ib_.emplace_back(p_, line_rate); }
  double on_flow_start(size_t c, Time now) override {
    IbCcReactionPoint& ib = ib_[c];
    ib.on_timer(now);  // decreases due while the connection was idle
    return ib.limited() ? ib.rate() : 0;
  }
  double on_ack(size_t c, uint32_t, bool marked, Time now) override {
    IbCcReactionPoint& ib = ib_[c];
    if (marked) {  // a BECN for every FECN-marked packet (no coalescing)
      ib.on_becn(now);
      ++becns_;
    } else {
      ib.on_timer(now);
    }
    return ib.limited() ? ib.rate() : 0;
  }
  std::vector<int64_t> counts() const override { return {becns_}; }

 private:
  IbCcParams p_;
  std::vector<int32_t> unmarked_;      // by LinkId: eligible packets passed unmarked since its last FECN
  std::vector<IbCcReactionPoint> ib_;  // by connection
  int64_t becns_ = 0;
};

class IbCc final : public CongestionControl {
 public:
  std::string name() const override { return "ibcc"; }
  std::string description() const override {
    return "InfiniBand congestion control: FECN at root switch ports, BECN, CCTI table and timer at the source";
  }
  std::string source() const override { return "InfiniBand Architecture Specification vol. 1, annex A10"; }

  std::string block() const override { return "ibcc"; }
  std::vector<std::string> keys() const override {
    return {"threshold", "ccti_increase", "ccti_limit", "ccti_min", "ccti_timer", "cct_step", "marking_rate"};
  }
  void parse(const YamlFields& e, CcSettings& s) const override {
    IbCcParams& b = s.get<IbCcParams>();
    size_field(e, "threshold", b.threshold);
    b.ccti_increase = static_cast<int>(e.integer_or("ccti_increase", b.ccti_increase, 1));
    b.ccti_limit = static_cast<int>(e.integer_or("ccti_limit", b.ccti_limit, 1));
    b.ccti_min = static_cast<int>(e.integer_or("ccti_min", b.ccti_min, 0));
    time_field(e, "ccti_timer", b.ccti_timer);
    b.cct_step = e.number_or("cct_step", b.cct_step, 0.0);
    b.marking_rate = static_cast<int>(e.integer_or("marking_rate", b.marking_rate, 0));
  }
  void validate(const CcSettings& s, const SourceLocation& where) const override {
    const IbCcParams& b = s.get<IbCcParams>();
    auto fail = [&](const std::string& key, const std::string& msg, const std::string& hint) {
      throw InputError(where, "ibcc." + key, msg, hint);
    };
    if (b.threshold.count() <= 0)
      fail("threshold", "must be above 0, got " + std::to_string(b.threshold.count()) + " B", "e.g. 64KiB, well below port_buffer");
    if (b.ccti_increase < 1) fail("ccti_increase", "must be at least 1, got " + std::to_string(b.ccti_increase), "OpenSM's examples use 1");
    if (b.ccti_min < 0) fail("ccti_min", "cannot be negative, got " + std::to_string(b.ccti_min), "0 lets a source return to line rate");
    if (b.ccti_limit <= b.ccti_min)
      fail("ccti_limit", "ccti_limit " + std::to_string(b.ccti_limit) + " must be above ccti_min " + std::to_string(b.ccti_min),
           "e.g. 511 (the default table's last entry)");
    if (b.ccti_timer <= Time::zero())
      fail("ccti_timer", "must be longer than 0, got " + to_string(b.ccti_timer), "give a time such as 50us");
    if (b.marking_rate < 0)
      fail("marking_rate", "cannot be negative, got " + std::to_string(b.marking_rate), "0 marks every packet above the threshold");
    if (!(b.cct_step > 0)) fail("cct_step", "must be above 0, got " + std::to_string(b.cct_step), "e.g. 0.125");
  }

  std::vector<std::string> counters() const override { return {"becns"}; }
  std::unique_ptr<RateControl> make(const PacketParams& p, size_t links) const override {
    return std::make_unique<IbCcControl>(p.cc.get<IbCcParams>(), links);
  }
};

}  // namespace

std::unique_ptr<const CongestionControl> make_ibcc_cc() { return std::make_unique<IbCc>(); }

}  // namespace gf
