#include "report/trace.hpp"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <sstream>

#include <fmt/compile.h>
#include <fmt/format.h>

#include "core/error.hpp"
#include "core/protocol.hpp"
#include "engine/transfer_routes.hpp"
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

// "rank 3" or "group 1", written in place (no character of it needs escaping).
void put_end(std::string& out, int32_t e) {
  out += is_group(e) ? "group " : "rank ";
  fmt::format_to(std::back_inserter(out), "{}", is_group(e) ? group_index(e) : e);
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

std::string& TraceWriter::next_event() {
  // Chunks of about 1 MiB: a growing 60 MB string would be copied at every doubling and held at
  // twice its size at the end (docs/performance.md).
  constexpr size_t kChunk = 1 << 20;
  if (chunks_.empty() || chunks_.back().size() >= kChunk) {
    chunks_.emplace_back();
    chunks_.back().reserve(kChunk + 4096);
  }
  std::string& out = chunks_.back();
  if (nevents_ > 0) out += ",\n";
  ++nevents_;
  return out;
}

void TraceWriter::add(const std::string& event) { next_event() += event; }

bool TraceWriter::traced(int rank) const {
  if (rank < 0) return false;
  if (o_.ranks.empty()) return true;
  return std::any_of(o_.ranks.begin(), o_.ranks.end(), [&](const auto& r) { return rank >= r.first && rank <= r.second; });
}

void TraceWriter::add_call(const std::string& label, const Schedule& s, const ScheduleRun& run, Time offset,
                           uint64_t seed, RoutingPolicy policy, RouteCache* shared) {
  const Cluster& c = cluster_;
  for (int r = 0; r < comm_->nranks; ++r)
    if (traced(r))
      add(fmt::format(R"({{"name":{},"ph":"X","pid":{},"tid":{},"ts":{},"dur":{},"args":{{"algorithm":{},"protocol":{}}}}})",
                      q(label), pid_of(r), call_tid(r), num(us(offset)), num(us(run.duration)), q(s.algorithm()),
                      q(to_string(s.protocol()))));
  std::set<std::pair<int, int>> named;  // (rank, channel) tracks named in this call
  std::vector<char> sliced(s.size(), 0);  // transfers drawn as a slice: arrows join only those
  // Each (source, destination, channel) is routed once: a ring repeats its edges 2(n-1) times. The
  // run's own cache, when handed over, has them all already.
  std::optional<RouteCache> own;
  RouteCache& routes = shared != nullptr ? *shared : own.emplace(s, *comm_, router_, seed, policy);
  if (shared != nullptr) routes.use(s);
  const bool counters = o_.top_links > 0;
  if (counters) loads_.reserve(loads_.size() + s.size());
  for (TransferId id = 0; id < static_cast<TransferId>(s.size()); ++id) {
    const Transfer& t = s.transfer(id);
    const int owner = !is_group(t.src) ? t.src : t.dst;
    const bool slice = traced(owner);
    if (!counters && !slice) continue;
    Time start = Time::zero();
    for (TransferId d : s.deps(id)) start = std::max(start, run.finish[static_cast<size_t>(d)]);
    const Time end = run.finish[static_cast<size_t>(id)];
    const std::shared_ptr<const Route>& route = routes.route(id);
    auto [at, added] = route_index_.try_emplace(route.get(), static_cast<uint32_t>(routes_.size()));
    if (added) routes_.push_back({route, {}});
    const uint32_t ri = at->second;
    if (counters) loads_.push_back({offset + start, offset + end, static_cast<double>(t.bytes.count()), ri});
    if (!slice) continue;
    if (nevents_ >= o_.max_events) {
      ++left_out_;
      continue;
    }
    if (named.insert({owner, t.channel}).second)
      add(thread_name(pid_of(owner), channel_tid(owner, t.channel),
                      "rank " + std::to_string(owner) + " channel " + std::to_string(t.channel)));
    // The first leg's nodes as a JSON string, "gpu0 > server0/nvswitch0 > gpu1", once per route.
    std::string& path = routes_[ri].path;
    if (path.empty()) {
      std::string text;
      if (!route->empty())
        for (LinkId l : route->front().path.links)
          text += (text.empty() ? c.node_name(c.link(l).src) : "") + " > " + c.node_name(c.link(l).dst) + cable_suffix(c, l);
      append_json_string(path, text);
    }
    const int64_t pid = pid_of(owner);
    const int64_t tid = channel_tid(owner, t.channel);
    std::string& b = next_event();
    auto it = std::back_inserter(b);
    b += R"({"name":")";
    b += is_group(t.src) ? "recv " : "send ";
    put_end(b, t.src);
    b += " -> ";
    put_end(b, t.dst);
    fmt::format_to(it, FMT_COMPILE(R"(","ph":"X","pid":{},"tid":{},"ts":{},"dur":{},"args":{{"bytes":{},"src":")"), pid,
                   tid, us(offset + start), us(end - start), t.bytes.count());
    put_end(b, t.src);
    b += R"(","dst":")";
    put_end(b, t.dst);
    fmt::format_to(it, FMT_COMPILE(R"(","step":{},"channel":{},"path":)"), t.step, t.channel);
    b += path;
    b += "}}";
    sliced[static_cast<size_t>(id)] = 1;
    // An arrow from each traced dependency on another track, from its end to this slice's start.
    for (TransferId d : s.deps(id)) {
      if (!sliced[static_cast<size_t>(d)]) continue;
      const Transfer& dt = s.transfer(d);
      const int downer = !is_group(dt.src) ? dt.src : dt.dst;
      if (downer == owner && dt.channel == t.channel) continue;
      const uint64_t flow = next_flow_++;
      fmt::format_to(std::back_inserter(next_event()),
                     FMT_COMPILE(R"({{"name":"dependency","cat":"dep","ph":"s","id":{},"pid":{},"tid":{},"ts":{}}})"),
                     flow, pid_of(downer), channel_tid(downer, dt.channel),
                     us(offset + run.finish[static_cast<size_t>(d)]));
      fmt::format_to(std::back_inserter(next_event()),
                     FMT_COMPILE(R"({{"name":"dependency","cat":"dep","ph":"f","bp":"e","id":{},"pid":{},"tid":{},"ts":{}}})"),
                     flow, pid, tid, us(offset + start));
    }
  }
}

size_t TraceWriter::write(std::ostream& out) const {
  const Cluster& c = cluster_;
  out << "{\"traceEvents\":[\n";
  for (const std::string& chunk : chunks_) out << chunk;
  size_t n_events = nevents_;
  std::string more;  // the link counters, after a ",\n" as in events_
  auto emit = [&](const std::string& e) {
    if (n_events > 0) more += ",\n";
    more += e;
    ++n_events;
  };
  // Bytes carried per link, summed in the order the transfers came (as a run would have).
  std::vector<double> link_bytes(c.links().size(), 0);
  for (const Load& x : loads_)
    for (const Leg& leg : *routes_[x.route].route)
      for (LinkId l : leg.path.links) link_bytes[static_cast<size_t>(l)] += x.bytes * leg.share;
  // The busiest links by bytes carried (ties by link id), one counter track each.
  std::vector<size_t> ids;
  for (size_t l = 0; l < link_bytes.size(); ++l)
    if (link_bytes[l] > 0) ids.push_back(l);
  const size_t n = std::min(ids.size(), static_cast<size_t>(std::max(0, o_.top_links)));
  std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(n), ids.end(), [&](size_t a, size_t b) {
    return link_bytes[a] != link_bytes[b] ? link_bytes[a] > link_bytes[b] : a < b;
  });
  if (n > 0) emit(process_name(kLinksPid, "busiest links"));
  // Per chosen link: (time in ps, rate change in bytes/s), in the transfers' order.
  std::vector<int> chosen(link_bytes.size(), -1);
  for (size_t i = 0; i < n; ++i) chosen[ids[i]] = static_cast<int>(i);
  std::vector<std::vector<std::pair<int64_t, double>>> link_changes(n);
  for (const Load& x : loads_) {
    const double seconds = (x.end - x.start).to_s();
    if (seconds <= 0) continue;
    for (const Leg& leg : *routes_[x.route].route)
      for (LinkId l : leg.path.links) {
        const int k = chosen[static_cast<size_t>(l)];
        if (k < 0) continue;
        const double bytes = x.bytes * leg.share;
        link_changes[static_cast<size_t>(k)].push_back({x.start.picoseconds(), bytes / seconds});
        link_changes[static_cast<size_t>(k)].push_back({x.end.picoseconds(), -bytes / seconds});
      }
  }
  for (size_t i = 0; i < n; ++i) {
    const Link& l = c.link(static_cast<LinkId>(ids[i]));
    // One cable of a bundle is its own counter, named as --fail names it ("spine0#3").
    const std::string name =
        q(c.node_name(l.src) + " -> " + c.node_name(l.dst) + cable_suffix(c, static_cast<LinkId>(ids[i])) + " (payload GB/s)");
    std::map<int64_t, double> at;  // time -> net change, so simultaneous changes make one sample
    for (const auto& [t, d] : link_changes[i]) at[t] += d;
    // A sample where the rate changes only: back-to-back transfers of a ring step leave it equal
    // (a counter holds its value until the next sample).
    double rate = 0, shown = -1;
    for (const auto& [t, d] : at) {
      rate += d;
      const double value = std::max(0.0, rate) / 1e9;
      if (value == shown) continue;
      shown = value;
      emit(fmt::format(R"({{"name":{},"ph":"C","pid":{},"ts":{},"args":{{"rate":{}}}}})", name, kLinksPid,
                       num(static_cast<double>(t) / 1e6), num(value)));
    }
    out << more;
    more.clear();
  }
  out << more;
  out << "\n],\"displayTimeUnit\":\"ns\",\"otherData\":"
      << fmt::format(R"J({{"generator":"gpufabric (simulated, not measured)","transfer_slices_left_out":{},)J"
                     R"("link_counters":{},"note":{}}})",
                     left_out_, n,
                     q("transfer slices run from their last dependency's finish to their own; link counters sum each "
                       "transfer's mean payload rate (protocol overhead not included)"))
      << "}\n";
  return n_events;
}

nlohmann::json TraceWriter::finish() const {
  std::ostringstream text;
  write(text);
  return nlohmann::json::parse(text.str());
}

}  // namespace gf
