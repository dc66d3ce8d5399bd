// A timeline of simulated collectives in the Trace Event Format (the JSON that Perfetto and
// chrome://tracing open): one process per server, one track per rank for its collectives and one
// per (rank, channel) for its transfers, a slice per transfer (bytes, source, destination, step,
// link path in its args), flow arrows from each transfer to the transfers that wait for it, and a
// counter track per busiest link with the rate of the transfers on it.
//
// A transfer's slice runs from the moment it could start (its last dependency's finish, or the
// call's start) to its finish as the model computed it, so it includes time spent sharing links.
// Flow arrows join a transfer to one that waits for it on another track (another rank or channel):
// a channel's transfers in order on their own track need none.
// Each channel track also has a slice per algorithm step ("step k", from the step's first transfer
// start to its last transfer end on that track), its transfers nested inside it. Where a track's
// slices would not nest (a step's transfers overlapping the next step's, as pipelined chunks do),
// the steps go to tracks of their own beside it ("rank r channel c steps"), as many as keep every
// slice on them apart, and so do the transfers that would partially overlap another on the channel
// track ("rank r channel c (2)", "(3)", ...): the format wants a track's slices nested, and viewers
// drop the ones that are not.
// A link's counter is the sum over the transfers crossing it of their payload bytes over their
// slice's duration: each transfer's mean payload rate, not the model's instant-by-instant share
// (and without the protocol's overhead on the wire). Routes are the run's own, except under adaptive
// routing, whose choices depend on the load at each start: those are drawn as the idle fabric's
// (ECMP) routes.
// Under a model with queues (packet), the same busiest links also get the egress port's activity
// (Model::port_timelines), sampled once per bucket of the model's queue series (at most 128 over a
// run, each at least 1 us) and written only where the value changes: the queue's peak depth in the
// bucket (bytes), the share of the bucket a PFC class was paused, and running totals of the pause
// frames it received and of the packets ECN-marked on joining it (counted from each run's start).
#pragma once

#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "collective/communicator.hpp"
#include "collective/schedule.hpp"
#include "engine/executor.hpp"
#include "report/block_list.hpp"
#include "routing/router.hpp"
#include "routing/routing_policy.hpp"

namespace gf {

struct TraceOptions {
  std::vector<std::pair<int, int>> ranks;  // inclusive ranges of ranks whose tracks are written; empty = all
  int top_links = 32;                      // counter tracks for this many of the busiest links
  size_t max_events = 2'000'000;           // beyond this, transfer and step slices and queue counter
                                           // samples are left out (and counted)
};

// Appends `s` as a JSON string literal: quotes, backslashes and control characters escaped, other
// bytes as they are (names are UTF-8 from YAML files).
void append_json_string(std::string& out, std::string_view s);

// Parses "0-15,32,40-47" (ranks) and "top:N" (links); InputError naming `flag` otherwise.
std::vector<std::pair<int, int>> parse_rank_ranges(const std::string& text, const std::string& flag);
int parse_top_links(const std::string& text, const std::string& flag);

class RouteCache;

class TraceWriter {
 public:
  TraceWriter(const Communicator& comm, const Router& router, TraceOptions options);
  // Several jobs on one cluster (a scenario): no communicator yet; each begin_job() names the
  // job's processes ("job NAME: serverS", one per job and server) and makes its calls the ones
  // add_call() draws. Jobs after the first take process ids of their own (job x 2^20 + server).
  TraceWriter(const Cluster& cluster, const Router& router, TraceOptions options);
  void begin_job(const Communicator& comm, int job, const std::string& name);
  // A call's slice alone on each traced rank's call track (a repetition whose transfers are not
  // drawn).
  void add_call_slice(const std::string& label, Time start, Time duration, const std::string& algorithm,
                      const std::string& protocol);
  // One call of `s` as run (run.finish per transfer), starting at `offset` on the timeline.
  // `routes`, when given, is the cache the run routed `s` with (same seed and policy): its routes
  // are drawn instead of routing the call again.
  void add_call(const std::string& label, const Schedule& s, const ScheduleRun& run, Time offset, uint64_t seed,
                RoutingPolicy policy, RouteCache* routes = nullptr);
  // Egress ports' activity over a run that started at `offset` on the timeline (a model's
  // port_timelines()), kept for the busiest links' queue, PFC and ECN counters. add_call adds
  // run.ports itself; a scenario, one model for every job, adds its model's once.
  void add_ports(const std::vector<PortTimeline>& ports, Time offset);
  // From now on each call's events go out to `out` as soon as add_call has drawn it, so that its
  // records are not kept until write() (their memory is reused call after call); write(out) must
  // then be given the same stream, and writes the rest. The file's bytes are the same either way.
  void stream(std::ostream& out);
  // The whole file, {"traceEvents": [...], "displayTimeUnit": "ns", "otherData": {...}}, written
  // as text; returns the number of trace events written. After stream(), once only.
  size_t write(std::ostream& out) const;
  // The same file parsed (for tests and callers that want a JSON value); not after stream().
  nlohmann::json finish() const;
  ~TraceWriter();
  size_t left_out() const { return left_out_; }
  size_t steps_left_out() const { return steps_left_out_; }

 private:
  bool traced(int rank) const;
  int64_t pid_of(int rank) const;
  void name_tracks();
  const Cluster& cluster_;
  const Communicator* comm_ = nullptr;
  const Router& router_;
  int64_t pid_base_ = 0;       // added to the server's id: 0 for perf and a scenario's first job
  std::string pid_prefix_;     // "job NAME: " in a scenario
  TraceOptions o_;
  // Events are kept as compact records and formatted to JSON text in write(), or after each call
  // when streamed (stream()): the text of the main sweep's events is 37 MB, the records a few
  // (docs/performance.md). Metadata and call slices, few and formatted once, are text in `text_`;
  // a transfer slice and an arrow are records.
  enum class Kind : uint8_t { Text, Slice, Arrow, Step };
  struct Event {
    int64_t pid = 0, tid = 0;
    int64_t ts = 0;    // ps on the timeline: a slice's start, an arrow's tail (its dependency's end)
    int64_t dur = 0;   // ps: a slice's duration; a Text: its length in text_
    int64_t bytes = 0; // a slice's payload (a step's: its transfers'); a Text: its offset in text_
    int32_t src = 0, dst = 0;  // a Step: src is its number of transfers
    uint32_t route = 0;  // a slice's route, index in routes_
    int16_t step = 0, channel = 0;
    Kind kind = Kind::Text;
  };
  // An arrow's head is the slice recorded just before it (its arrows follow it): that slice's
  // track at its start. Flow ids are numbered 1, 2, ... in the order the arrows are recorded.
  void add(const std::string& event);
  // A sliced transfer of the call being added, on its channel track, for the step slices.
  struct Piece {
    int64_t pid, tid;
    int64_t start, end;  // ps on the timeline
    int64_t bytes;
    size_t event;  // its slice's index in events_
    int32_t owner;
    int16_t step, channel;
  };
  // Makes the call's step slices (into tail_steps_, for place_steps) and moves the transfer slices
  // that would not nest to lanes; returns whether one left its channel track for a lane.
  bool add_steps(std::vector<Piece>& pieces);
  // Moves the slices of one channel track's pieces [first, last) that would partially overlap
  // another there to lanes beside it: taken by start (an enclosing one first at equal starts),
  // each goes on the first of the channel track, its lane 2, 3, ... where it nests. Returns whether
  // any moved.
  bool lay_out_transfers(std::vector<Piece>& pieces, size_t first, size_t last);
  // Transfer lanes' tracks: (pid, channel track, lane) -> tid, numbered from 2^30 in the order
  // they are first needed (tids stay below 2^31, as viewers read them as 32-bit numbers).
  std::map<std::tuple<int64_t, int64_t, int>, int64_t> transfer_lanes_;
  // Scratch for lay_out_transfers: a track's pieces by start, and each lane's open slices' ends.
  std::vector<uint32_t> by_start_;
  std::vector<std::vector<int64_t>> lane_open_;
  // Scratch for one call's pieces, kept between calls so that its pages are faulted in once, not
  // once per call.
  std::vector<Piece> pieces_;
  // place_steps' scratch: per transfer slice of the call, 1 + the index in tail_steps_ of the step
  // that goes before it (0: none); and the track names recorded after the call's slices.
  std::vector<size_t> step_anchors_;
  std::vector<Event> tail_names_;
  // The call's step slices as add_steps made them, each with its anchor: the event index of its
  // step's first transfer slice on its channel track, before which place_steps puts it.
  std::vector<std::pair<size_t, Event>> tail_steps_;
  // Puts the step slices add_steps made (tail_steps_) just before the first transfer slice of
  // their step on their channel track (the call's events begin at `first`; the track names
  // recorded from `steps_first` on go before all of them): slices then start
  // in time order on every track, as a track's transfers are recorded in that order. An arrow
  // stays right after its head slice, since a step only ever goes before a slice.
  void place_steps(size_t first, size_t steps_first);
  size_t steps_left_out_ = 0;
  std::set<int64_t> step_tracks_named_;  // (pid, tid) of step tracks named so far, as pid x 2^32 + tid
  BlockList<Event> events_;  // in blocks that never move (report/block_list.hpp says why)
  std::string text_;
  size_t nevents_ = 0;  // trace events recorded (an arrow is two: its "s" and its "f")
  size_t left_out_ = 0;
  // The link counters are made in write(), for the busiest links only, from one record per
  // transfer (every transfer, traced rank or not: a link's load is everyone's); keeping each
  // link's rate changes as the calls come held two entries per link of every route.
  struct Load {
    Time start, end;  // on the timeline
    double bytes;
    uint32_t route;   // index in route_spans_
  };
  BlockList<Load> loads_;
  // The routes seen, copied out of the run's cache (which frees its own as it would without the
  // trace): one flat list of (link, share), leg after leg, and per route its span in it. A
  // slice's path text (the first leg's nodes) and the counters are made from them in write().
  struct RouteLink {
    LinkId link;
    double share;  // the leg's fraction of the transfer's bytes
  };
  struct RouteSpan {
    uint32_t begin, first_leg_end, end;  // in route_links_: [begin, first_leg_end) is the first leg
  };
  std::vector<RouteLink> route_links_;
  std::vector<RouteSpan> route_spans_;
  // The index in route_spans_ of a route with `route`'s (link, share) list and first leg, added if
  // there is none yet: each size of a sweep routes with a cache of its own, so the same routes come
  // back call after call, and each is kept (and its path text made) once.
  uint32_t route_index(const Route& route);
  std::vector<uint32_t> route_slots_ = std::vector<uint32_t>(64, UINT32_MAX);  // open addressing by content
  std::vector<uint64_t> route_hashes_;  // per entry of route_spans_
  std::vector<RouteLink> route_scratch_;
  // Per-call scratch kept between calls (pages faulted in once): per transfer its slice's event
  // index + 1, and per (rank, channel) whether its track is named yet.
  std::vector<size_t> sliced_;
  std::vector<char> named_;
  // The text being made (trace.cpp): the buffer written out as it fills, the events written so
  // far, the arrows' ids, the path texts made so far. write() makes one, or stream() did.
  struct Sink;
  // Formats events_ into `sink`, in order.
  void format_events(Sink& sink) const;
  std::unique_ptr<Sink> stream_;
  // Port activity (add_ports): per run of a port its samples, a sample only where a bucket differs
  // from the one before it; the counters are made in write() for the busiest links.
  struct PortSample {
    int64_t at;      // ps on the timeline: the bucket's start
    int64_t until;   // ps: the bucket's end (the run's end for its last)
    int64_t peak;    // bytes
    int64_t marks, frames;  // in the bucket
    double paused;   // share of the bucket
  };
  struct PortRun {
    LinkId link;
    uint32_t begin, end;  // in port_samples_
    int64_t end_ps;       // the run's end on the timeline
  };
  std::vector<PortSample> port_samples_;
  std::vector<PortRun> port_runs_;
};

}  // namespace gf
