// The congestion-control registry: every scheme the packet model can run (`congestion_control:`
// in a `packet:` block) is one CongestionControl, written in its own file (cc_<name>.cpp) beside
// the pure components it drives (dcqcn, ib_cc, tcp, ecn_marker), and registered by naming its
// maker once in cc_registry.cpp. An entry carries everything about its scheme: name, one-line description and
// citation (`gpufabric list congestion-control`), the families whose `auto` means it, the YAML
// block under `packet:` it reads with its own keys and defaults, its checks, the statistics it
// counts, and the factory of its per-run state (RateControl), which CongestionHooks (the
// PacketHooks adapter) calls per switch egress port and per connection. Nothing outside a
// scheme's file names the scheme (but `none`, the registry's fallback), so adding one edits no
// central list but the registration.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/units.hpp"
#include "model/packet/cc_settings.hpp"
#include "topology/link_tech.hpp"
#include "topology/node.hpp"

namespace gf {

class YamlFields;
struct PacketParams;

// One run's state of a rate-controlling scheme: its marking at switch egress queues and its rate
// per connection. Connections are numbered 0, 1, ... in the order add_connection is called;
// CongestionHooks keeps which flow uses which (a connection carries over from one message to the
// next between the same endpoints, as a NIC's queue pair does).
class RateControl {
 public:
  virtual ~RateControl() = default;
  // A packet joins switch egress port `port`'s queue, which then holds `queued` bytes; `blocked`
  // when the port holds packets it may not send now (a victim, not a root). True marks it
  // (ECN's Congestion Experienced, InfiniBand's FECN).
  virtual bool mark(LinkId port, int64_t queued, bool blocked, Time now) = 0;
  // A new connection whose path's slowest link runs at `line_rate` bytes per second.
  virtual void add_connection(double line_rate) = 0;
  // A flow starts on connection `c` (new, or idle since its last flow): its rate limit in bytes
  // per second of payload, 0 for none (line rate).
  virtual double on_flow_start(size_t c, Time now) = 0;
  // A packet's acknowledgement reaches connection `c`'s sender; `marked` when the packet was
  // marked (a CNP, a BECN). Its new rate limit, 0 for none.
  virtual double on_ack(size_t c, uint32_t bytes, bool marked, Time now) = 0;
  // The values of the scheme's statistics (CongestionControl::counters), in that order.
  virtual std::vector<int64_t> counts() const { return {}; }
};

class CongestionControl {
 public:
  virtual ~CongestionControl() = default;
  // The value of `congestion_control:` that asks for it ("dcqcn").
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  virtual std::string source() const = 0;
  // The fabric families whose `congestion_control: auto` means this scheme (at most one scheme
  // claims a family; a family none claims runs `none`).
  virtual std::vector<LinkFamily> auto_for() const { return {}; }
  // Whether it resends lost packets: a lossy fabric (flow_control: none) needs such a transport.
  virtual bool recovers_losses() const { return false; }

  // Its settings block under `packet:` ("dcqcn"), empty when it has none, and that block's keys.
  virtual std::string block() const { return {}; }
  virtual std::vector<std::string> keys() const { return {}; }
  // Reads the block's keys into settings.get<ItsParams>() (unset keys keep their values).
  virtual void parse(const YamlFields& /*block*/, CcSettings& /*settings*/) const {}
  // Throws InputError at `where` keyed "<block>.<key>" on a value its mechanism cannot run with.
  virtual void validate(const CcSettings& /*settings*/, const SourceLocation& /*where*/) const {}

  // Names of the statistics its RateControl counts ("cnps"); the packet model reports every
  // registered scheme's, 0 for schemes not running, so a report's rows do not depend on the run.
  virtual std::vector<std::string> counters() const { return {}; }
  // Its state for a run on a cluster of `links` links; nullptr when it controls no rate (none;
  // tcp, whose windows the packet model runs for every flow over a lossy link).
  virtual std::unique_ptr<RateControl> make(const PacketParams& /*params*/, size_t /*links*/) const { return nullptr; }
};

// Every scheme, in registration order (`gpufabric list congestion-control`, the names in messages).
const std::vector<std::unique_ptr<const CongestionControl>>& congestion_control_registry();
// The registered schemes ordered by block name, skipping those without one: the order their
// blocks are read and checked in, whatever order they were registered in.
std::vector<const CongestionControl*> congestion_control_blocks();
// "auto", then every registered name: the values `congestion_control:` accepts.
std::vector<std::string> congestion_control_names();

// Exact names only. nullptr for "auto"; anything unknown is an InputError at `where`/`key`
// listing the valid names.
const CongestionControl* parse_congestion_control(std::string_view name, const SourceLocation& where,
                                                  const std::string& key);
// The registered scheme `name`, for code that names one (tests, benchmarks); std::invalid_argument
// when there is none.
const CongestionControl* find_congestion_control(std::string_view name);
// `none`: what a family no scheme claims runs, and what a run with no network link runs.
const CongestionControl& no_congestion_control();
// "auto" for nullptr, else the scheme's name.
std::string congestion_control_name(const CongestionControl* cc);
// What `chosen` means on a fabric of this family: itself, or for nullptr (auto) the scheme that
// claims the family (auto_for), else no_congestion_control().
const CongestionControl& resolve_congestion_control(const CongestionControl* chosen, LinkFamily fabric);

}  // namespace gf
