// The model contract every fidelity level implements (DESIGN.md section 5). A model is handed
// transfers with their routes and reports when each finishes; it never learns which collective
// or algorithm produced them. Time only moves forward: the caller asks for the next event time,
// then advances the model to it, and the model reports completions in (time, id) order.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/protocol.hpp"
#include "core/units.hpp"
#include "routing/route.hpp"

namespace gf {

using TransferId = int32_t;

// A transfer as a model sees it: bytes over one or more concurrent legs (paths), each leg carrying
// `share` of the bytes (a sprayed NVLink transfer splits over the NVSwitch chips; an in-network
// reduction has one leg per member GPU), then `reduce` bytes reduced by the receiving GPU.
struct ModelTransfer {
  // Shared, not copied: one schedule starts the same route many times (a ring edge 2(n-1) times),
  // and starting a transfer must not allocate.
  std::shared_ptr<const Route> route;
  const Route& legs() const { return *route; }
  Bytes bytes;
  Bytes reduce;
  Bandwidth reduce_rate;  // receiving GPU's reduction throughput (bytes of output per second)
  Protocol proto = Protocol::Simple;
  // Traffic class (PFC priority, InfiniBand virtual lane) every leg runs in: the packet model's
  // per-class queues, pauses and credits (docs/models.md, "Traffic classes"); the analytical and
  // flow models ignore it. (Beside proto, so that route_id fits without growing the struct.)
  uint8_t traffic_class = 0;
  int channels = 1;       // this many channels run the same pattern over the same links at once
  // Latency of one step by the link class a leg crosses {NVLink, PCI, NET}: the algorithm's
  // per-step cost from NCCL's tables, which the model adds to the wire time.
  std::array<Time, 3> step_latency{};
  // Fraction of the links' usable bandwidth this transfer reaches (1, or NCCL's published NVLS
  // efficiency for in-switch reductions).
  double efficiency = 1.0;
  // Further fraction reached when every leg stays inside the scale-up domain (Schedule::
  // scale_up_efficiency; TransferCost::inflation applies it only to such transfers).
  double scale_up_efficiency = 1.0;
  // Consecutive pipeline steps this transfer stands for (Transfer::steps): the per-step latency
  // is paid `steps` times; 0 for a pipelined chunk whose latency overlaps the one before it.
  int32_t steps = 1;
  // A hint naming this transfer's route and cost fields among those a caller hands this model: a
  // small dense index (0, 1, 2, ...), or -1 for none. Transfers given the same id >= 0 must have
  // the same route object, step_latency, steps, proto, efficiency and scale_up_efficiency (bytes
  // and reduce may differ): the step runner's pattern transfers. A model may then keep per-route
  // state, alpha included, in an array by this index instead of finding the route by its address
  // (the flow model's RoutePins); it checks the route's address, so an id reused for another route
  // costs only the lookup. A copy given another route or other cost fields needs -1 (or an id of
  // its own).
  int32_t route_id = -1;
};
static_assert(sizeof(ModelTransfer) <= 96, "ModelTransfer is read per start: keep it within 96 bytes");

class CompletionSink {
 public:
  virtual ~CompletionSink() = default;
  virtual void completed(TransferId id, Time at) = 0;
};

// One egress port's queue as a model with queues saw it over a run, for reports.
struct PortQueueReport {
  LinkId link = 0;
  int64_t max_queue = 0;       // bytes
  double mean_queue = 0;       // bytes, time-weighted over the run
  int64_t pauses = 0;          // PFC pause frames the port received (sent by the link's far end)
  int64_t ecn_marks = 0;
  int64_t drops = 0;
  Time bucket;                 // the width of each entry of `series`
  std::vector<double> series;  // mean queued bytes in each bucket, from time 0 to the run's end
};

// One egress port's activity over a run in buckets of equal width from time 0 (a model with
// queues keeps at most a fixed number of them, widening as the run grows), for timelines: the
// Perfetto trace's queue, ECN and PFC counters. Every vector has one entry per bucket.
struct PortTimeline {
  LinkId link = 0;
  Time bucket;                        // the width of each entry
  Time end;                           // the model's last event: the buckets cover [0, end)
  std::vector<int64_t> peak_queue;    // bytes: the deepest the FIFO held for a positive time in it
  std::vector<int64_t> ecn_marks;     // packets marked on joining the queue in it
  std::vector<int64_t> pause_frames;  // PFC pause frames the port received in it (pauses begun)
  std::vector<double> paused;         // share of it in [0, 1] during which a class of the port was paused
};

class Model {
 public:
  virtual ~Model() = default;
  virtual std::string name() const = 0;
  // Starts a transfer at time `now` (never earlier than the last advance_to).
  virtual void start(TransferId id, const ModelTransfer& t, Time now) = 0;
  // The time of the next completion, Time::infinity() when idle.
  virtual Time next_event_time() const = 0;
  // Moves to time t, reporting every transfer finishing at or before t.
  virtual void advance_to(Time t, CompletionSink& done) = 0;

  // Wire bytes (payload inflated by protocol overhead) each directed link has carried so far,
  // indexed by LinkId: link utilisation reports divide by capacity x elapsed time.
  virtual const std::vector<double>& carried_bytes() const = 0;
  // How loaded link l is right now, in the model's own terms (0 = idle); adaptive routing picks
  // the path whose most loaded link is least loaded. Only comparisons between links matter.
  virtual double link_load(LinkId l) const = 0;
  // Counters a model keeps beyond times and bytes, as (name, value) in a fixed order, for reports:
  // the packet model's drops, pause frames, ECN marks, retransmissions, deepest queue. Empty for
  // models that keep none (analytical, flow).
  virtual std::vector<std::pair<std::string, int64_t>> statistics() const { return {}; }
  // Models with queues (packet): the `top` egress ports that queued most, with their depth over
  // time. Empty for models without queues.
  virtual std::vector<PortQueueReport> queue_report(size_t /*top*/) const { return {}; }
  // Models with queues (packet): every egress port that queued, marked or was paused, with its
  // activity over time, in link order. Empty for models without queues.
  virtual std::vector<PortTimeline> port_timelines() const { return {}; }
};

}  // namespace gf
