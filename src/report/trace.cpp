#include "report/trace.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>
#include <iterator>
#include <optional>
#include <set>
#include <span>
#include <tuple>
#include <unordered_map>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/hash.hpp"
#include "core/prefault.hpp"
#include "core/protocol.hpp"
#include "engine/transfer_routes.hpp"
#include "report/trace_numbers.hpp"
#include "topology/bundle.hpp"

namespace gf {

namespace {

// Track ids: a rank's collectives on rank x 1024, its channel c's transfers on rank x 1024 + 1 + c
// (NCCL runs at most 64 channels, so the blocks never meet).
int64_t call_tid(int rank) { return static_cast<int64_t>(rank) * 1024; }
int64_t channel_tid(int rank, int channel) { return call_tid(rank) + 1 + channel; }
// Link counters live in a process of their own, after the servers.
constexpr int64_t kLinksPid = 1 << 30;

double us(Time t) { return static_cast<double>(t.picoseconds()) / 1e6; }

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20) {
      fmt::format_to(std::back_inserter(out), "\\u{:04x}", c);
    } else {
      out += ch;
    }
  }
  out += '"';
}

namespace {

std::string q(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

// A number as JSON has it: fmt writes a double's shortest text that reads back equal.
std::string num(double v) { return fmt::format("{}", v); }

// Text copied to `p` (a literal's length is known when compiled, once inlined); returns the end.
char* put(char* p, std::string_view text) {
  std::memcpy(p, text.data(), text.size());
  return p + text.size();
}

// "rank 3" or "group 1", written in place (no character of it needs escaping).
char* put_end(char* p, int32_t e) {
  p = is_group(e) ? put(p, "group ") : put(p, "rank ");
  return put_int(p, is_group(e) ? group_index(e) : e);
}

std::string process_name(int64_t pid, const std::string& name) {
  return fmt::format(R"({{"name":"process_name","ph":"M","pid":{},"args":{{"name":{}}}}})", pid, q(name));
}
std::string thread_name(int64_t pid, int64_t tid, const std::string& name) {
  return fmt::format(R"({{"name":"thread_name","ph":"M","pid":{},"tid":{},"args":{{"name":{}}}}})", pid, tid, q(name));
}

bool parse_int(std::string_view s, int& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size() && out >= 0;
}

}  // namespace

std::vector<std::pair<int, int>> parse_rank_ranges(const std::string& text, const std::string& flag) {
  std::vector<std::pair<int, int>> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string part = text.substr(start, comma - start);
    const size_t dash = part.find('-');
    int a = 0, b = 0;
    const bool ok = dash == std::string::npos ? parse_int(part, a) && parse_int(part, b)
                                              : parse_int(part.substr(0, dash), a) && parse_int(part.substr(dash + 1), b);
    if (!ok || b < a)
      throw InputError({}, flag, "'" + part + "' is not a rank or a range of ranks", "e.g. " + flag + " 0-15,32,40-47");
    out.push_back({a, b});
    start = comma + 1;
  }
  return out;
}

int parse_top_links(const std::string& text, const std::string& flag) {
  int n = 0;
  if (text.rfind("top:", 0) != 0 || !parse_int(std::string_view(text).substr(4), n))
    throw InputError({}, flag, "'" + text + "' is not top:N", "e.g. " + flag + " top:32 (top:0 for none)");
  return n;
}

TraceWriter::TraceWriter(const Communicator& comm, const Router& router, TraceOptions options)
    : TraceWriter(*comm.cluster, router, std::move(options)) {
  comm_ = &comm;
  name_tracks();
}

TraceWriter::TraceWriter(const Cluster& cluster, const Router& router, TraceOptions options)
    : cluster_(cluster), router_(router), o_(std::move(options)) {}

void TraceWriter::begin_job(const Communicator& comm, int job, const std::string& name) {
  comm_ = &comm;
  pid_base_ = static_cast<int64_t>(job) << 20;
  pid_prefix_ = "job " + name + ": ";
  name_tracks();
}

int64_t TraceWriter::pid_of(int rank) const {
  return pid_base_ + cluster_.node(comm_->gpu[static_cast<size_t>(rank)]).server;
}

void TraceWriter::name_tracks() {
  const Cluster& c = cluster_;
  std::set<int64_t> servers;
  for (int r = 0; r < comm_->nranks; ++r) {
    if (!traced(r)) continue;
    const int64_t server = c.node(comm_->gpu[static_cast<size_t>(r)]).server;
    if (servers.insert(server).second) add(process_name(pid_of(r), pid_prefix_ + "server" + std::to_string(server)));
    add(thread_name(pid_of(r), call_tid(r),
                    "rank " + std::to_string(r) + " (" + c.node_name(comm_->gpu[static_cast<size_t>(r)]) + ")"));
  }
}

void TraceWriter::add_call_slice(const std::string& label, Time start, Time duration, const std::string& algorithm,
                                 const std::string& protocol) {
  for (int r = 0; r < comm_->nranks; ++r)
    if (traced(r))
      add(fmt::format(R"({{"name":{},"ph":"X","pid":{},"tid":{},"ts":{},"dur":{},"args":{{"algorithm":{},"protocol":{}}}}})",
                      q(label), pid_of(r), call_tid(r), num(us(start)), num(us(duration)), q(algorithm), q(protocol)));
}

void TraceWriter::add(const std::string& event) {
  Event e;
  e.kind = Kind::Text;
  e.bytes = static_cast<int64_t>(text_.size());
  e.dur = static_cast<int64_t>(event.size());
  text_ += event;
  events_.push_back(e);
  ++nevents_;
}

bool TraceWriter::traced(int rank) const {
  if (rank < 0) return false;
  if (o_.ranks.empty()) return true;
  return std::any_of(o_.ranks.begin(), o_.ranks.end(), [&](const auto& r) { return rank >= r.first && rank <= r.second; });
}

namespace {

// (source, destination, channel) -> index in TraceWriter::routes_, for one call. Within a call a
// transfer's route depends on these three alone (RouteCache's key), so the run's cache is asked
// once per key rather than once per transfer, and its hash map (node-based, a division per find)
// is left alone. Open addressing with linear probing; a source's transfers mostly repeat its last
// key (a ring rank sends to its one neighbour 2(n-1) times), which is tried before hashing.
class RouteMemo {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;
  // The value kept for `t`'s key: kNone when the key is new (the caller fills it in).
  uint32_t& find(const Transfer& t) {
    const Key key{t.src, t.dst, t.channel};
    uint32_t& recent = recent_[static_cast<uint32_t>(t.src) & (kRecent - 1)];
    if (recent != kNone && entries_[recent].key == key) return entries_[recent].value;
    size_t mask = slots_.size() - 1;
    size_t i = hash(key) & mask;
    for (;; i = (i + 1) & mask) {
      const uint32_t e = slots_[i];
      if (e == kNone) break;
      if (entries_[e].key == key) return entries_[recent = e].value;
    }
    const auto e = static_cast<uint32_t>(entries_.size());
    entries_.push_back({key, kNone});
    if (2 * entries_.size() > slots_.size()) {  // keep the load under 1/2
      slots_.assign(2 * slots_.size(), kNone);
      mask = slots_.size() - 1;
      for (uint32_t k = 0; k < entries_.size(); ++k) {
        size_t j = hash(entries_[k].key) & mask;
        while (slots_[j] != kNone) j = (j + 1) & mask;
        slots_[j] = k;
      }
    } else {
      slots_[i] = e;
    }
    return entries_[recent = e].value;
  }

 private:
  struct Key {
    int32_t src, dst;
    int16_t channel;
    bool operator==(const Key&) const = default;
  };
  struct Entry {
    Key key;
    uint32_t value;
  };
  static uint64_t hash(const Key& k) {
    return mix_hash(static_cast<uint64_t>(static_cast<uint32_t>(k.src)) << 32 | static_cast<uint32_t>(k.dst),
                    static_cast<uint16_t>(k.channel));
  }
  static constexpr uint32_t kRecent = 1024;
  std::vector<uint32_t> recent_ = std::vector<uint32_t>(kRecent, kNone);
  std::vector<uint32_t> slots_ = std::vector<uint32_t>(64, kNone);
  std::vector<Entry> entries_;
};

}  // namespace

void TraceWriter::add_call(const std::string& label, const Schedule& s, const ScheduleRun& run, Time offset,
                           uint64_t seed, RoutingPolicy policy, RouteCache* shared) {
  for (int r = 0; r < comm_->nranks; ++r)
    if (traced(r))
      add(fmt::format(R"({{"name":{},"ph":"X","pid":{},"tid":{},"ts":{},"dur":{},"args":{{"algorithm":{},"protocol":{}}}}})",
                      q(label), pid_of(r), call_tid(r), num(us(offset)), num(us(run.duration)), q(s.algorithm()),
                      q(to_string(s.protocol()))));
  // (rank, channel) tracks named in this call: rank x channels + channel (a transfer's channel is
  // one of its schedule's; any other is looked up in `named_other`).
  const size_t nchannels = static_cast<size_t>(std::max(1, s.channels()));
  std::vector<char>& named = named_;
  named.assign(static_cast<size_t>(comm_->nranks) * nchannels, 0);
  std::set<std::pair<int, int>> named_other;
  // Per transfer drawn as a slice, its event's index + 1 (0: not drawn): arrows join only those.
  std::vector<size_t>& sliced = sliced_;
  sliced.assign(s.size(), 0);
  // Each (source, destination, channel) is routed once: a ring repeats its edges 2(n-1) times. The
  // run's own cache, when handed over, has them all already.
  std::optional<RouteCache> own;
  RouteCache& routes = shared != nullptr ? *shared : own.emplace(s, *comm_, router_, seed, policy);
  if (shared != nullptr) routes.use(s);
  RouteMemo memo;
  const bool counters = o_.top_links > 0;
  std::vector<Piece>& pieces = pieces_;  // this call's transfer slices, for its step slices
  pieces.clear();
  // Every transfer is a slice when every rank is traced: room for them all at once, mapped in one
  // call (core/prefault.hpp), rather than grown by doubling and faulted in page by page.
  if (o_.ranks.empty() && pieces.capacity() < s.size()) reserve_prefaulted(pieces, s.size());
  const size_t call_first = events_.size();
  for (TransferId id = 0; id < static_cast<TransferId>(s.size()); ++id) {
    const Transfer& t = s.transfer(id);
    const int owner = !is_group(t.src) ? t.src : t.dst;
    const bool slice = traced(owner);
    if (!counters && !slice) continue;
    Time start = Time::zero();
    for (TransferId d : s.deps(id)) start = std::max(start, run.finish[static_cast<size_t>(d)]);
    const Time end = run.finish[static_cast<size_t>(id)];
    uint32_t& known = memo.find(t);
    if (known == RouteMemo::kNone) known = route_index(*routes.route(id));
    const uint32_t ri = known;
    if (counters) loads_.push_back({offset + start, offset + end, static_cast<double>(t.bytes.count()), ri});
    if (!slice) continue;
    if (nevents_ >= o_.max_events) {
      ++left_out_;
      continue;
    }
    const bool in_range = t.channel >= 0 && static_cast<size_t>(t.channel) < nchannels;
    const bool first_on_track =
        in_range ? !std::exchange(named[static_cast<size_t>(owner) * nchannels + static_cast<size_t>(t.channel)], 1)
                 : named_other.insert({owner, t.channel}).second;
    if (first_on_track)
      add(thread_name(pid_of(owner), channel_tid(owner, t.channel),
                      "rank " + std::to_string(owner) + " channel " + std::to_string(t.channel)));
    Event e;
    e.kind = Kind::Slice;
    e.pid = pid_of(owner);
    e.tid = channel_tid(owner, t.channel);
    e.ts = (offset + start).picoseconds();
    e.dur = (end - start).picoseconds();
    e.bytes = t.bytes.count();
    e.src = t.src;
    e.dst = t.dst;
    e.route = ri;
    e.step = t.step;
    e.channel = t.channel;
    events_.push_back(e);
    ++nevents_;
    sliced[static_cast<size_t>(id)] = events_.size();
    pieces.push_back({e.pid, e.tid, e.ts, e.ts + e.dur, e.bytes, events_.size() - 1, owner, t.step, t.channel});
    // An arrow from each traced dependency on another track, from its end to this slice's start.
    for (TransferId d : s.deps(id)) {
      if (!sliced[static_cast<size_t>(d)]) continue;
      const Transfer& dt = s.transfer(d);
      const int downer = !is_group(dt.src) ? dt.src : dt.dst;
      if (downer == owner && dt.channel == t.channel) continue;
      Event a;
      a.kind = Kind::Arrow;
      a.pid = pid_of(downer);
      a.tid = channel_tid(downer, dt.channel);
      a.ts = (offset + run.finish[static_cast<size_t>(d)]).picoseconds();
      a.bytes = static_cast<int64_t>(sliced[static_cast<size_t>(d)] - 1);  // its tail's slice, should it move
      events_.push_back(a);
      nevents_ += 2;
    }
  }
  const size_t steps_first = events_.size();
  if (add_steps(pieces)) {
    // Some slices went to lanes: an arrow's tail follows its slice (its head is the slice before it).
    for (size_t i = call_first; i < steps_first; ++i)
      if (events_[i].kind == Kind::Arrow) events_[i].tid = events_[static_cast<size_t>(events_[i].bytes)].tid;
  }
  place_steps(call_first, steps_first);
  if (!run.ports.empty()) add_ports(run.ports, offset);
  if (stream_) {  // out now, and the records' memory is the next call's
    format_events(*stream_);
    events_.clear();
    text_.clear();
  }
}

uint32_t TraceWriter::route_index(const Route& route) {
  std::vector<RouteLink>& links = route_scratch_;
  links.clear();
  size_t first_leg = 0;
  for (const Leg& leg : route) {
    for (LinkId l : leg.path.links) links.push_back({l, leg.share});
    if (&leg == &route.front()) first_leg = links.size();
  }
  auto bits = [](double v) { return std::bit_cast<uint64_t>(v); };
  uint64_t h = mix_hash(first_leg, links.size());
  for (const RouteLink& x : links) h = mix_hash(mix_hash(h, static_cast<uint32_t>(x.link)), bits(x.share));
  auto same = [&](uint32_t r) {
    const RouteSpan& span = route_spans_[r];
    if (route_hashes_[r] != h || span.end - span.begin != links.size() || span.first_leg_end - span.begin != first_leg)
      return false;
    for (size_t i = 0; i < links.size(); ++i) {
      const RouteLink& a = route_links_[span.begin + i];
      if (a.link != links[i].link || bits(a.share) != bits(links[i].share)) return false;
    }
    return true;
  };
  size_t mask = route_slots_.size() - 1;
  size_t i = h & mask;
  for (; route_slots_[i] != UINT32_MAX; i = (i + 1) & mask)
    if (same(route_slots_[i])) return route_slots_[i];
  const auto r = static_cast<uint32_t>(route_spans_.size());
  const auto begin = static_cast<uint32_t>(route_links_.size());
  route_links_.insert(route_links_.end(), links.begin(), links.end());
  route_spans_.push_back({begin, begin + static_cast<uint32_t>(first_leg), static_cast<uint32_t>(route_links_.size())});
  route_hashes_.push_back(h);
  if (2 * route_spans_.size() > route_slots_.size()) {  // keep the load under 1/2
    route_slots_.assign(2 * route_slots_.size(), UINT32_MAX);
    mask = route_slots_.size() - 1;
    for (uint32_t k = 0; k < route_spans_.size(); ++k) {
      size_t j = route_hashes_[k] & mask;
      while (route_slots_[j] != UINT32_MAX) j = (j + 1) & mask;
      route_slots_[j] = k;
    }
  } else {
    route_slots_[i] = r;
  }
  return r;
}

namespace {

// Step tracks beside channel c's of a rank: lane k's id is the channel track's + 64 (k + 1), in
// the rank's block of 1,024 (channel tracks use 1..64), so 14 lanes fit.
constexpr int kStepLanes = 14;
int64_t step_lane_tid(int64_t channel_track, int lane) { return channel_track + 64 * (lane + 1); }

// Whether intervals [start, end) nest: none partially overlaps another (equal ones nest).
bool nests(std::vector<std::pair<int64_t, int64_t>>& spans) {
  std::sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : a.second > b.second;  // an enclosing one first
  });
  std::vector<int64_t> open;  // ends of the enclosing intervals
  for (const auto& [a, b] : spans) {
    while (!open.empty() && open.back() <= a) open.pop_back();
    if (!open.empty() && b > open.back()) return false;
    open.push_back(b);
  }
  return true;
}

}  // namespace

bool TraceWriter::lay_out_transfers(std::vector<Piece>& pieces, size_t first, size_t last) {
  std::vector<uint32_t>& order = by_start_;
  order.clear();
  for (size_t k = first; k < last; ++k) order.push_back(static_cast<uint32_t>(k));
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const Piece &x = pieces[a], &y = pieces[b];
    if (x.start != y.start) return x.start < y.start;
    if (x.end != y.end) return x.end > y.end;  // an enclosing one first, as nests() takes them
    return x.event < y.event;
  });
  for (auto& open : lane_open_) open.clear();
  bool moved = false;
  for (const uint32_t k : order) {
    const Piece& p = pieces[k];
    size_t lane = 0;
    for (;; ++lane) {
      if (lane == lane_open_.size()) lane_open_.emplace_back();
      std::vector<int64_t>& open = lane_open_[lane];
      while (!open.empty() && open.back() <= p.start) open.pop_back();
      if (open.empty() || p.end <= open.back()) {
        open.push_back(p.end);
        break;
      }
    }
    if (lane == 0) continue;
    moved = true;
    auto [at, added] = transfer_lanes_.try_emplace({p.pid, p.tid, static_cast<int>(lane)},
                                                   (int64_t{1} << 30) + static_cast<int64_t>(transfer_lanes_.size()));
    if (added)
      add(thread_name(p.pid, at->second,
                      "rank " + std::to_string(p.owner) + " channel " + std::to_string(p.channel) + " (" +
                          std::to_string(lane + 1) + ")"));
    events_[p.event].tid = at->second;
  }
  return moved;
}

bool TraceWriter::add_steps(std::vector<Piece>& pieces) {
  tail_steps_.clear();
  if (pieces.empty()) return false;
  bool moved = false;
  // By track, then step: each (track, step) run of pieces is one step slice. Ties keep the order
  // the slices were recorded in (their event index), as a stable sort would, without its buffer
  // of the call's pieces allocated and faulted in for every call.
  std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) {
    if (a.pid != b.pid) return a.pid < b.pid;
    if (a.tid != b.tid) return a.tid < b.tid;
    if (a.step != b.step) return a.step < b.step;
    return a.event < b.event;
  });
  std::vector<Event> steps;  // one track's
  std::vector<size_t> anchors;  // per entry of `steps` as made: its first transfer slice's event
  std::vector<std::pair<int64_t, int64_t>> spans;
  std::vector<int64_t> lane_end;
  for (size_t i = 0; i < pieces.size();) {
    size_t j = i;
    steps.clear();
    anchors.clear();
    spans.clear();
    for (; j < pieces.size() && pieces[j].pid == pieces[i].pid && pieces[j].tid == pieces[i].tid;) {
      Event st;
      st.kind = Kind::Step;
      st.pid = pieces[j].pid;
      st.tid = pieces[j].tid;
      st.step = pieces[j].step;
      st.channel = pieces[j].channel;
      st.dst = pieces[j].owner;
      int64_t lo = pieces[j].start, hi = pieces[j].end;
      st.route = static_cast<uint32_t>(steps.size());  // its anchor's index in `anchors`, while sorted
      anchors.push_back(pieces[j].event);  // its first slice: pieces of a step are in event order
      for (; j < pieces.size() && pieces[j].pid == st.pid && pieces[j].tid == st.tid && pieces[j].step == st.step; ++j) {
        lo = std::min(lo, pieces[j].start);
        hi = std::max(hi, pieces[j].end);
        st.bytes += pieces[j].bytes;
        ++st.src;
        spans.push_back({pieces[j].start, pieces[j].end});
      }
      st.ts = lo;
      st.dur = hi - lo;
      steps.push_back(st);
      spans.push_back({lo, hi});
    }
    // On the channel track when every slice there nests; else on lanes of their own, each step on
    // the first lane free by its start.
    const bool on_track = nests(spans);
    if (!on_track) moved = lay_out_transfers(pieces, i, j) || moved;
    std::sort(steps.begin(), steps.end(), [](const Event& a, const Event& b) { return a.ts != b.ts ? a.ts < b.ts : a.step < b.step; });
    lane_end.clear();
    for (Event& st : steps) {
      if (nevents_ >= o_.max_events) {
        ++steps_left_out_;
        continue;
      }
      if (!on_track) {
        size_t lane = 0;
        while (lane < lane_end.size() && lane_end[lane] > st.ts) ++lane;
        if (lane == static_cast<size_t>(kStepLanes)) {
          ++steps_left_out_;
          continue;
        }
        if (lane == lane_end.size()) lane_end.push_back(0);
        lane_end[lane] = st.ts + st.dur;
        const int64_t channel_track = st.tid;
        st.tid = step_lane_tid(channel_track, static_cast<int>(lane));
        if (step_tracks_named_.insert((st.pid << 32) + st.tid).second)
          add(thread_name(st.pid, st.tid,
                          "rank " + std::to_string(st.dst) + " channel " + std::to_string(st.channel) + " steps" +
                              (lane > 0 ? " (" + std::to_string(lane + 1) + ")" : "")));
      }
      const size_t anchor = anchors[st.route];
      st.route = 0;
      tail_steps_.push_back({anchor, st});  // into events_ by place_steps, before its anchor
      ++nevents_;
    }
    i = j;
  }
  return moved;
}

void TraceWriter::place_steps(size_t first, size_t steps_first) {
  const std::vector<std::pair<size_t, Event>>& steps = tail_steps_;
  if (steps.empty() && steps_first == events_.size()) return;
  // The records after steps_first are the names of the tracks add_steps opened: they go before
  // every slice of the call, in their order. Each step goes just before its anchor, the first
  // transfer slice of its step on its channel track; a slice anchors at most one step, as its
  // (track, step) is one step's.
  std::vector<Event>& names = tail_names_;
  names.clear();
  for (size_t i = steps_first; i < events_.size(); ++i) names.push_back(events_[i]);
  std::vector<size_t>& step_before = step_anchors_;  // per slice of the call: 1 + its step's index
  step_before.assign(steps_first - first, 0);
  for (size_t k = 0; k < steps.size(); ++k) step_before[steps[k].first - first] = k + 1;
  for (size_t k = 0; k < steps.size(); ++k) events_.push_back(Event{});  // room for them
  // In place from the back: each record moves up by the names and steps still to go before it,
  // once, into room that only records already moved held.
  size_t w = events_.size();
  size_t left = steps.size();
  for (size_t r = steps_first; r-- > first;) {
    if (left == 0 && names.empty()) break;  // the rest stays where it is
    events_[--w] = events_[r];
    if (const size_t k = step_before[r - first]) {
      events_[--w] = steps[k - 1].second;
      --left;
    }
  }
  for (size_t k = 0; k < names.size(); ++k) events_[first + k] = names[k];
}

void TraceWriter::add_ports(const std::vector<PortTimeline>& ports, Time offset) {
  if (o_.top_links <= 0) return;
  const int64_t off = offset.picoseconds();
  for (const PortTimeline& p : ports) {
    const int64_t w = p.bucket.picoseconds(), end = p.end.picoseconds();
    const size_t n = p.peak_queue.size();
    if (n == 0 || w <= 0) continue;
    PortRun r{p.link, static_cast<uint32_t>(port_samples_.size()), 0, off + end};
    for (size_t b = 0; b < n; ++b) {
      PortSample x{off + static_cast<int64_t>(b) * w, off + std::min(end, static_cast<int64_t>(b + 1) * w),
                   p.peak_queue[b], p.ecn_marks[b], p.pause_frames[b], p.paused[b]};
      // A bucket like the one before it, with nothing counted in it, adds nothing to any counter.
      if (port_samples_.size() > r.begin && x.marks == 0 && x.frames == 0 && x.peak == port_samples_.back().peak &&
          x.paused == port_samples_.back().paused)
        continue;
      port_samples_.push_back(x);
    }
    r.end = static_cast<uint32_t>(port_samples_.size());
    port_runs_.push_back(r);
  }
}

// The text being made: written out through one buffer of about 1 MiB whenever it fills, so
// memory follows the records rather than the text (40 MB on the main sweep).
struct TraceWriter::Sink {
  static constexpr size_t kChunk = 1 << 20;
  std::ostream* out = nullptr;
  std::string b;
  size_t n_events = 0;
  uint64_t flow = 0;  // the last arrow's id
  // The last slice (the head of the arrows after it): its track and start.
  int64_t head_pid = 0, head_tid = 0, head_ts = 0;
  // A slice's path: its route's first leg as a JSON string, "gpu0 > server0/nvswitch0 > gpu1",
  // made once per route from each node's name, escaped once per node, and each link's cable
  // suffix, made once per link.
  std::vector<std::string> paths, names, suffixes;
  std::vector<char> named, suffixed;

  Sink(std::ostream& o, const Cluster& c)
      : out(&o), names(c.nodes().size()), suffixes(c.links().size()), named(c.nodes().size(), 0),
        suffixed(c.links().size(), 0) {
    b.reserve(kChunk + 4096);
    b += "{\"traceEvents\":[\n";
  }
  // The buffer to append the next event to (after its separator).
  std::string& next() {
    if (b.size() >= kChunk) {
      out->write(b.data(), static_cast<std::streamsize>(b.size()));
      b.clear();
    }
    if (n_events++ > 0) b += ",\n";
    return b;
  }
};

TraceWriter::~TraceWriter() = default;

void TraceWriter::stream(std::ostream& out) { stream_ = std::make_unique<Sink>(out, cluster_); }

void TraceWriter::format_events(Sink& sink) const {
  const Cluster& c = cluster_;
  auto next = [&]() -> std::string& { return sink.next(); };
  auto name = [&](NodeId n) -> const std::string& {
    std::string& text = sink.names[static_cast<size_t>(n)];
    if (!std::exchange(sink.named[static_cast<size_t>(n)], 1)) {
      append_json_string(text, c.node_name(n));
      text = text.substr(1, text.size() - 2);  // the quotes go around the whole path
    }
    return text;
  };
  auto suffix = [&](LinkId l) -> const std::string& {
    std::string& text = sink.suffixes[static_cast<size_t>(l)];
    if (!std::exchange(sink.suffixed[static_cast<size_t>(l)], 1)) text = cable_suffix(c, l);
    return text;
  };
  sink.paths.resize(route_spans_.size());
  auto path_of = [&](uint32_t ri) -> const std::string& {
    std::string& path = sink.paths[ri];
    if (path.empty()) {
      path += '"';
      const RouteSpan& span = route_spans_[ri];
      for (uint32_t i = span.begin; i < span.first_leg_end; ++i) {
        const LinkId id = route_links_[i].link;
        const Link& l = c.link(id);
        if (i == span.begin) path += name(l.src);
        path += " > ";
        path += name(l.dst);
        path += suffix(id);  // "spine0#3": one cable of a bundle, as --fail names it
      }
      path += '"';
    }
    return path;
  };
  events_.for_each([&](const Event& e) {
    switch (e.kind) {
      case Kind::Text:
        next().append(text_, static_cast<size_t>(e.bytes), static_cast<size_t>(e.dur));
        break;
      case Kind::Slice: {
        sink.head_pid = e.pid, sink.head_tid = e.tid, sink.head_ts = e.ts;
        // The fixed part into a line of its own (a few hundred chars at most), then the path.
        char line[512];
        char* p = line;
        p = put(p, R"({"name":")");
        p = put(p, is_group(e.src) ? "recv " : "send ");
        p = put_end(p, e.src);
        p = put(p, " -> ");
        p = put_end(p, e.dst);
        p = put(p, R"(","ph":"X","pid":)");
        p = put_int(p, e.pid);
        p = put(p, R"(,"tid":)");
        p = put_int(p, e.tid);
        p = put(p, R"(,"ts":)");
        p = put_us(p, e.ts);
        p = put(p, R"(,"dur":)");
        p = put_us(p, e.dur);
        p = put(p, R"(,"args":{"bytes":)");
        p = put_int(p, e.bytes);
        p = put(p, R"(,"src":")");
        p = put_end(p, e.src);
        p = put(p, R"(","dst":")");
        p = put_end(p, e.dst);
        p = put(p, R"(","step":)");
        p = put_int(p, e.step);
        p = put(p, R"(,"channel":)");
        p = put_int(p, e.channel);
        p = put(p, R"(,"path":)");
        std::string& o = next();
        o.append(line, p);
        o += path_of(e.route);
        o += "}}";
        break;
      }
      case Kind::Step: {
        char line[512];
        char* p = line;
        p = put(p, R"({"name":"step )");
        p = put_int(p, e.step);
        p = put(p, R"(","ph":"X","pid":)");
        p = put_int(p, e.pid);
        p = put(p, R"(,"tid":)");
        p = put_int(p, e.tid);
        p = put(p, R"(,"ts":)");
        p = put_us(p, e.ts);
        p = put(p, R"(,"dur":)");
        p = put_us(p, e.dur);
        p = put(p, R"(,"args":{"step":)");
        p = put_int(p, e.step);
        p = put(p, R"(,"channel":)");
        p = put_int(p, e.channel);
        p = put(p, R"(,"transfers":)");
        p = put_int(p, e.src);
        p = put(p, R"(,"payload":)");
        p = put_int(p, e.bytes);
        p = put(p, "}}");
        next().append(line, p);
        break;
      }
      case Kind::Arrow: {
        const uint64_t flow = ++sink.flow;
        char line[512];
        char* p = line;
        p = put(p, R"({"name":"dependency","cat":"dep","ph":"s","id":)");
        p = put_int(p, static_cast<int64_t>(flow));
        p = put(p, R"(,"pid":)");
        p = put_int(p, e.pid);
        p = put(p, R"(,"tid":)");
        p = put_int(p, e.tid);
        p = put(p, R"(,"ts":)");
        p = put_us(p, e.ts);
        p = put(p, "}");
        next().append(line, p);
        p = line;
        p = put(p, R"({"name":"dependency","cat":"dep","ph":"f","bp":"e","id":)");
        p = put_int(p, static_cast<int64_t>(flow));
        p = put(p, R"(,"pid":)");
        p = put_int(p, sink.head_pid);
        p = put(p, R"(,"tid":)");
        p = put_int(p, sink.head_tid);
        p = put(p, R"(,"ts":)");
        p = put_us(p, sink.head_ts);
        p = put(p, "}");
        next().append(line, p);
        break;
      }
    }
  });
}

size_t TraceWriter::write(std::ostream& out) const {
  const Cluster& c = cluster_;
  std::optional<Sink> local;
  if (stream_ && stream_->out != &out)
    throw std::logic_error("TraceWriter::write: not the stream the trace was streaming to");
  Sink& sink = stream_ ? *stream_ : local.emplace(out, c);
  format_events(sink);  // those not out yet
  auto next = [&]() -> std::string& { return sink.next(); };
  // Bytes carried per link, summed in the order the transfers came (as a run would have).
  std::vector<double> link_bytes(c.links().size(), 0);
  loads_.for_each([&](const Load& x) {
    const RouteSpan& span = route_spans_[x.route];
    for (uint32_t i = span.begin; i < span.end; ++i)
      link_bytes[static_cast<size_t>(route_links_[i].link)] += x.bytes * route_links_[i].share;
  });
  // The busiest links by bytes carried (ties by link id), one counter track each.
  std::vector<size_t> ids;
  for (size_t l = 0; l < link_bytes.size(); ++l)
    if (link_bytes[l] > 0) ids.push_back(l);
  const size_t n = std::min(ids.size(), static_cast<size_t>(std::max(0, o_.top_links)));
  std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(n), ids.end(), [&](size_t a, size_t b) {
    return link_bytes[a] != link_bytes[b] ? link_bytes[a] > link_bytes[b] : a < b;
  });
  if (n > 0) next() += process_name(kLinksPid, "busiest links");
  // Per route, its entries on a chosen link (counter k, share), so the transfers whose routes
  // cross none cost one empty range each.
  std::vector<int> chosen(link_bytes.size(), -1);
  for (size_t i = 0; i < n; ++i) chosen[ids[i]] = static_cast<int>(i);
  std::vector<uint32_t> on_chosen_begin(route_spans_.size() + 1, 0);
  for (size_t r = 0; r < route_spans_.size(); ++r) {
    on_chosen_begin[r + 1] = on_chosen_begin[r];
    for (uint32_t i = route_spans_[r].begin; i < route_spans_[r].end; ++i)
      on_chosen_begin[r + 1] += chosen[static_cast<size_t>(route_links_[i].link)] >= 0 ? 1 : 0;
  }
  std::vector<std::pair<int, double>> on_chosen(on_chosen_begin.back());
  for (size_t r = 0, at = 0; r < route_spans_.size(); ++r)
    for (uint32_t i = route_spans_[r].begin; i < route_spans_[r].end; ++i)
      if (const int k = chosen[static_cast<size_t>(route_links_[i].link)]; k >= 0) on_chosen[at++] = {k, route_links_[i].share};
  // Per chosen link, the transfers (index in loads_) crossing it, in the transfers' order, all in
  // one array: counted first, so it is allocated once, link k's at [cross_begin[k], cross_begin[k +
  // 1]). A transfer whose route crosses link k twice is listed twice.
  std::vector<size_t> cross_begin(n + 1, 0);
  loads_.for_each([&](const Load& x) {
    if ((x.end - x.start).to_s() <= 0) return;
    for (uint32_t i = on_chosen_begin[x.route]; i < on_chosen_begin[x.route + 1]; ++i)
      ++cross_begin[static_cast<size_t>(on_chosen[i].first) + 1];
  });
  for (size_t k = 0; k < n; ++k) cross_begin[k + 1] += cross_begin[k];
  std::vector<uint32_t> crossing(cross_begin[n]);
  {
    std::vector<size_t> cross_end(cross_begin.begin(), cross_begin.end() - 1);
    uint32_t j = 0;
    loads_.for_each([&](const Load& x) {
      if ((x.end - x.start).to_s() > 0)
        for (uint32_t i = on_chosen_begin[x.route]; i < on_chosen_begin[x.route + 1]; ++i)
          crossing[cross_end[static_cast<size_t>(on_chosen[i].first)]++] = j;
      ++j;
    });
  }
  // One link's (time in ps, rate change in bytes/s), in the transfers' order: the next link reuses it.
  std::vector<std::pair<int64_t, double>> changes;
  for (size_t i = 0; i < n; ++i) {
    const Link& l = c.link(static_cast<LinkId>(ids[i]));
    // One cable of a bundle is its own counter, named as --fail names it ("spine0#3").
    const std::string track = q(c.node_name(l.src) + " -> " + c.node_name(l.dst) +
                                cable_suffix(c, static_cast<LinkId>(ids[i])) + " (payload GB/s)");
    changes.clear();
    for (size_t m = cross_begin[i]; m < cross_begin[i + 1]; ++m) {
      if (m > cross_begin[i] && crossing[m] == crossing[m - 1]) continue;  // its entries were all taken
      const Load& x = loads_[crossing[m]];
      const double seconds = (x.end - x.start).to_s();
      for (uint32_t e = on_chosen_begin[x.route]; e < on_chosen_begin[x.route + 1]; ++e) {
        if (on_chosen[e].first != static_cast<int>(i)) continue;
        const double bytes = x.bytes * on_chosen[e].second;
        changes.push_back({x.start.picoseconds(), bytes / seconds});
        changes.push_back({x.end.picoseconds(), -bytes / seconds});
      }
    }
    // Simultaneous changes make one sample: sorted by time, keeping the transfers' order among
    // equal times, each time's changes are summed from 0 in that order.
    std::stable_sort(changes.begin(), changes.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    // A sample where the rate changes only: back-to-back transfers of a ring step leave it equal
    // (a counter holds its value until the next sample).
    double rate = 0, shown = -1;
    for (size_t j = 0; j < changes.size();) {
      const int64_t t = changes[j].first;
      double d = 0;
      for (; j < changes.size() && changes[j].first == t; ++j) d += changes[j].second;
      rate += d;
      const double value = std::max(0.0, rate) / 1e9;
      if (value == shown) continue;
      shown = value;
      std::string& o = next();
      o += R"({"name":)";
      o += track;
      o += R"(,"ph":"C","pid":)";
      append_int(o, kLinksPid);
      o += R"(,"ts":)";
      append_us(o, t);
      o += R"(,"args":{"rate":)";
      o += num(value);
      o += "}}";
    }
  }
  // The same links' egress queues under a model with queues: peak depth, paused share, and running
  // totals of pause frames and ECN marks, each written where it changes (and only for a link where
  // it ever is non-zero). These samples fall under the size guard, after every slice.
  const size_t budget = o_.max_events > nevents_ ? o_.max_events - nevents_ : 0;
  size_t port_written = 0, port_left_out = 0, port_tracks = 0;
  std::vector<std::vector<uint32_t>> runs_of(n);
  for (uint32_t r = 0; r < port_runs_.size(); ++r) {
    const int k = chosen[static_cast<size_t>(port_runs_[r].link)];
    if (k >= 0) runs_of[static_cast<size_t>(k)].push_back(r);
  }
  enum Metric { kQueue, kPaused, kFrames, kMarks };
  for (size_t i = 0; i < n; ++i) {
    if (runs_of[i].empty()) continue;
    const Link& l = c.link(static_cast<LinkId>(ids[i]));
    const std::string base = c.node_name(l.src) + " -> " + c.node_name(l.dst) + cable_suffix(c, static_cast<LinkId>(ids[i]));
    for (const Metric m : {kQueue, kPaused, kFrames, kMarks}) {
      static constexpr std::string_view kTrack[] = {" (queue peak)", " (PFC paused share)", " (PFC pause frames)", " (ECN marks)"};
      static constexpr std::string_view kArg[] = {"bytes", "share", "frames", "marks"};
      auto value = [m](const PortSample& x) -> double {
        return m == kQueue ? static_cast<double>(x.peak) : m == kPaused ? x.paused : m == kFrames ? static_cast<double>(x.frames) : static_cast<double>(x.marks);
      };
      bool any = false;
      for (uint32_t r : runs_of[i])
        for (uint32_t j = port_runs_[r].begin; j < port_runs_[r].end && !any; ++j) any = value(port_samples_[j]) > 0;
      if (!any) continue;
      ++port_tracks;
      const std::string track = q(base + std::string(kTrack[m]));
      double shown = -1;
      auto emit = [&](int64_t ts, double v) {
        if (v == shown) return;
        shown = v;
        if (port_written >= budget) {
          ++port_left_out;
          return;
        }
        ++port_written;
        std::string& o = next();
        o += R"({"name":)";
        o += track;
        o += R"(,"ph":"C","pid":)";
        append_int(o, kLinksPid);
        o += R"(,"ts":)";
        append_us(o, ts);
        o += R"(,"args":{")";
        o += kArg[m];
        o += R"(":)";
        if (m == kPaused) o += num(v);
        else append_int(o, static_cast<int64_t>(v));
        o += "}}";
      };
      for (uint32_t r : runs_of[i]) {
        const PortRun& run = port_runs_[r];
        if (m == kQueue || m == kPaused) {  // the bucket's value from its start; 0 after the run
          for (uint32_t j = run.begin; j < run.end; ++j) emit(port_samples_[j].at, value(port_samples_[j]));
          emit(run.end_ps, 0);
        } else {  // the total from the run's start, at the end of each bucket that added to it
          emit(port_samples_[run.begin].at, 0);
          double total = 0;
          for (uint32_t j = run.begin; j < run.end; ++j) {
            const double v = value(port_samples_[j]);
            if (v == 0) continue;
            total += v;
            emit(port_samples_[j].until, total);
          }
        }
      }
    }
  }
  sink.b += "\n],\"displayTimeUnit\":\"ns\",\"otherData\":";
  sink.b += fmt::format(R"J({{"generator":"gpufabric (simulated, not measured)","transfer_slices_left_out":{},)J"
                   R"("step_slices_left_out":{},"queue_counter_samples_left_out":{},)"
                   R"("link_counters":{},"queue_counters":{},"note":{}}})",
                   left_out_, steps_left_out_, port_left_out, n, port_tracks,
                   q("transfer slices run from their last dependency's finish to their own; link counters sum each "
                     "transfer's mean payload rate (protocol overhead not included)"));
  sink.b += "}\n";
  out.write(sink.b.data(), static_cast<std::streamsize>(sink.b.size()));
  sink.b.clear();
  return sink.n_events;
}

nlohmann::json TraceWriter::finish() const {
  if (stream_) throw std::logic_error("TraceWriter::finish: the trace was streamed to a file");
  std::ostringstream text;
  write(text);
  return nlohmann::json::parse(text.str());
}

}  // namespace gf
