#include "report/train_trace.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "report/trace.hpp"
#include "training/layout.hpp"

namespace gf {

namespace {

// Track ids inside a stage's process: a rank's passes, PP sends, PP receives, DP collectives.
enum Track : int64_t { kPasses = 0, kSends = 1, kRecvs = 2, kDp = 3 };
int64_t tid(int64_t rank, Track k) { return rank * 4 + k; }

double us(double seconds) { return seconds * 1e6; }

struct Event {
  int64_t pid = 0, tid = 0;
  double ts = 0;  // metadata sorts first
  std::string text;
};

// A group as text: every rank when few, else the first, the stride and the count.
std::string group_text(const std::vector<int64_t>& g) {
  if (g.size() <= 16) {
    std::string out;
    for (int64_t x : g) out += (out.empty() ? "" : ",") + std::to_string(x);
    return out;
  }
  return fmt::format("{},{},...,{} ({} ranks)", g[0], g[1], g.back(), g.size());
}

const CommSummary* comm_of(const TrainResult& r, const std::string& kind) {
  for (const CommSummary& c : r.comm)
    if (c.parallelism == kind) return &c;
  return nullptr;
}

class Writer {
 public:
  Writer(const Cluster& cluster, const TrainResult& r, const TrainTimeline& t) : c_(cluster), r_(r), t_(t), l_(r.layout) {}

  void named(int64_t pid, int64_t tid, const char* what, const std::string& name) {
    std::string e = fmt::format(R"({{"name":"{}","ph":"M","pid":{},)", what, pid);
    if (tid >= 0) e += fmt::format(R"("tid":{},)", tid);
    e += R"("args":{"name":)";
    append_json_string(e, name);
    events_.push_back({pid, tid, -std::numeric_limits<double>::infinity(), e + "}}"});
  }

  // A slice; `args` is the inside of its args object, already JSON.
  void slice(int64_t pid, int64_t track, const std::string& name, double start_s, double dur_s, const std::string& args) {
    if (dur_s <= 0) return;
    std::string e = R"({"name":)";
    append_json_string(e, name);
    e += fmt::format(R"(,"ph":"X","pid":{},"tid":{},"ts":{},"dur":{},"args":{{{}}}}})", pid, track, us(start_s),
                     us(dur_s), args);
    events_.push_back({pid, track, us(start_s), std::move(e)});
  }

  void arrow(int64_t from_pid, int64_t from_tid, double from_s, int64_t to_pid, int64_t to_tid, double to_s) {
    const uint64_t id = next_flow_++;
    events_.push_back({from_pid, from_tid, us(from_s),
                       fmt::format(R"({{"name":"pp","cat":"pp","ph":"s","id":{},"pid":{},"tid":{},"ts":{}}})", id,
                                   from_pid, from_tid, us(from_s))});
    events_.push_back({to_pid, to_tid, us(to_s),
                       fmt::format(R"({{"name":"pp","cat":"pp","ph":"f","bp":"e","id":{},"pid":{},"tid":{},"ts":{}}})",
                                   id, to_pid, to_tid, us(to_s))});
  }

  // args of a collective slice: its calls' size per rank (nccl-tests' size), group, algorithm.
  static std::string comm_args(const CommSummary& c, const std::vector<int64_t>& group) {
    std::string a = R"("collective":)";
    append_json_string(a, c.collective);
    a += fmt::format(R"(,"bytes":{},"calls_per_step":{},"call_us":{},"algorithm":)", c.bytes, c.calls, us(c.call_s));
    append_json_string(a, c.algorithm);
    a += R"(,"group":)";
    append_json_string(a, group_text(group));
    return a;
  }

  void draw_rank(int64_t rank, const std::vector<char>& shown) {
    const RankCoord k = coord_of(l_, rank);
    const int64_t s = k.pp, p = l_.pp, pid = s;
    const int64_t vcount = p * l_.vpp;
    named(pid, tid(rank, kPasses), "thread_name", "rank " + std::to_string(rank) + " (" + c_.node_name(c_.gpu(rank)) + ")");
    named(pid, tid(rank, kSends), "thread_name", "rank " + std::to_string(rank) + " PP send");
    named(pid, tid(rank, kRecvs), "thread_name", "rank " + std::to_string(rank) + " PP recv");
    named(pid, tid(rank, kDp), "thread_name", "rank " + std::to_string(rank) + " DP");

    const CommSummary* pp = comm_of(r_, "pp");
    // TP's collectives, and EP, CP and ZeRO 3's exposed time: a slice each, every collective in
    // its args by name.
    std::string tp_name, tp_args, other_name, other_args;
    for (const CommSummary& cs : r_.comm) {
      if (cs.parallelism != "tp") continue;
      tp_name += (tp_name.empty() ? "TP " : " + ") + cs.collective;
      if (!tp_args.empty()) tp_args += ",";
      append_json_string(tp_args, cs.collective);
      tp_args += ":{" + comm_args(cs, tp_group(l_, k.dp, k.pp, k.cp)) + "}";
    }
    for (const CommSummary& cs : r_.comm) {
      std::vector<int64_t> g;
      if (cs.parallelism == "ep") g = ep_group(l_, k.tp, k.dp, k.pp, k.cp);
      else if (cs.parallelism == "cp") g = cp_group(l_, k.tp, k.dp, k.pp);
      else if (cs.parallelism == "dp" && l_.zero == 3) g = gradient_group(l_, k.tp, k.pp);
      else continue;
      const std::string label = fmt::format("{} {}", cs.parallelism == "dp" ? "ZeRO-3" : cs.parallelism == "ep" ? "EP" : "CP", cs.collective);
      other_name += (other_name.empty() ? "" : " + ") + label;
      if (!other_args.empty()) other_args += ",";
      append_json_string(other_args, label);
      other_args += ":{" + comm_args(cs, g) + "}";
    }
    other_name += " (exposed)";

    for (const PassSpan& ps : t_.pipe.stages[static_cast<size_t>(s)].passes) {
      const int64_t vs = ps.chunk * p + s;
      const TimelinePass& tp_ = t_.passes[static_cast<size_t>(vs)];
      std::string name = fmt::format("{} mb {}", ps.forward ? "forward" : "backward", ps.microbatch);
      if (l_.vpp > 1) name += fmt::format(" chunk {}", ps.chunk);
      slice(pid, tid(rank, kPasses), name, ps.start, ps.end - ps.start,
            fmt::format(R"("microbatch":{},"chunk":{},"virtual_stage":{})", ps.microbatch, ps.chunk, vs));
      // Its parts in sequence.
      double at = ps.start;
      auto part = [&](const std::string& n, double d, const std::string& args) {
        slice(pid, tid(rank, kPasses), n, at, d, args);
        at += std::max(0.0, d);
      };
      const char* sm_name = "compute slowed by communication kernels' SMs";
      if (ps.forward) {
        part("forward compute", tp_.forward_compute_s, "");
        if (tp_.sm_forward_s > 0) part(sm_name, tp_.sm_forward_s, "");
        part(tp_name, tp_.tp_forward_s, tp_args);
        part(other_name, tp_.other_forward_s, other_args);
      } else {
        part("recompute", tp_.recompute_s, "");
        part("backward compute", tp_.backward_compute_s, "");
        if (tp_.sm_backward_s > 0) part(sm_name, tp_.sm_backward_s, "");
        part(tp_name, tp_.tp_backward_s, tp_args);
        part(other_name, tp_.other_backward_s, other_args);
      }
      // The activation (forward) or its gradient (backward) to the neighbouring virtual stage.
      const int64_t to_vs = ps.forward ? vs + 1 : vs - 1;
      if (to_vs < 0 || to_vs >= vcount || !pp) continue;
      const int64_t to_stage = to_vs % p;
      const int64_t peer = global_rank(l_, {k.tp, k.dp, to_stage, k.cp});
      const double send_start = t_.overlap_pp ? ps.end : ps.end - tp_.send_s;
      const std::string args = comm_args(*pp, {rank, peer});
      const std::string what = fmt::format("{} mb {} -> stage {}", ps.forward ? "activation" : "gradient", ps.microbatch, to_stage);
      if (t_.overlap_pp)
        slice(pid, tid(rank, kSends), "PP send " + what, send_start, t_.p2p_s, args);
      else
        part("PP send " + what, tp_.send_s, args);
      if (!shown[static_cast<size_t>(peer)]) continue;
      slice(to_stage, tid(peer, kRecvs), fmt::format("PP recv {} mb {} <- stage {}", ps.forward ? "activation" : "gradient",
                                                      ps.microbatch, s),
            send_start, t_.p2p_s, args);
      const auto w = waiting_.find({to_vs, ps.microbatch, ps.forward});
      if (w != waiting_.end())
        arrow(pid, tid(rank, t_.overlap_pp ? kSends : kPasses), send_start, to_stage, tid(peer, kPasses), w->second);
    }

    // After the last pass (later by the SMs hidden DP kernels took from the backward): the
    // gradient reduction (its exposed part ends at end + exposed), the optimizer, the weights' all-gather.
    const TimelineTail& tail = t_.tails[static_cast<size_t>(s)];
    const double end = t_.pipe.stages[static_cast<size_t>(s)].end_s + tail.contention_s;
    const CommSummary* dp = comm_of(r_, "dp");
    const std::vector<int64_t> grad = gradient_group(l_, k.tp, k.pp);
    if (dp && l_.zero < 3) {
      CommSummary reduce = *dp, gather = *dp;
      const size_t plus = dp->collective.find(" + ");
      if (plus != std::string::npos) {
        reduce.collective = dp->collective.substr(0, plus) + " (gradients)";
        gather.collective = dp->collective.substr(plus + 3) + " (weights)";
        gather.bytes = dp->bytes / 2;  // 16-bit weights after 32-bit gradients (train_step.cpp)
      }
      slice(pid, tid(rank, kDp), "DP " + reduce.collective, end + tail.dp_exposed_s - tail.dp_s, tail.dp_s,
            comm_args(reduce, grad) + fmt::format(R"(,"exposed_us":{})", us(tail.dp_exposed_s)));
      slice(pid, tid(rank, kDp), "DP " + gather.collective, end + tail.dp_exposed_s + tail.optimizer_s, tail.dp_after_s,
            comm_args(gather, grad));
    }
    slice(pid, tid(rank, kPasses), "optimizer", end + tail.dp_exposed_s, tail.optimizer_s, "");
  }

  size_t write(std::ostream& out, const std::vector<std::pair<int, int>>& ranks) {
    const int64_t n = l_.gpus();
    std::vector<char> shown(static_cast<size_t>(n), 0);
    if (ranks.empty())
      for (int64_t s = 0; s < l_.pp; ++s) shown[static_cast<size_t>(global_rank(l_, {0, 0, s, 0}))] = 1;
    for (const auto& [a, b] : ranks)
      for (int64_t x = a; x <= b && x < n; ++x) shown[static_cast<size_t>(x)] = 1;
    // When each pass starts, by (virtual stage, micro-batch, forward): where an arrow lands.
    for (int64_t s = 0; s < l_.pp; ++s)
      for (const PassSpan& ps : t_.pipe.stages[static_cast<size_t>(s)].passes)
        waiting_[{ps.chunk * l_.pp + s, ps.microbatch, ps.forward}] = ps.start;
    std::vector<char> stage_named(static_cast<size_t>(l_.pp), 0);
    for (int64_t rank = 0; rank < n; ++rank) {
      if (!shown[static_cast<size_t>(rank)]) continue;
      const int64_t s = coord_of(l_, rank).pp;
      if (!stage_named[static_cast<size_t>(s)]) {
        stage_named[static_cast<size_t>(s)] = 1;
        named(s, -1, "process_name", "pipeline stage " + std::to_string(s));
      }
      draw_rank(rank, shown);
    }
    // Per track in time order (a parent slice before the parts that start with it).
    std::stable_sort(events_.begin(), events_.end(), [](const Event& a, const Event& b) {
      return std::tie(a.pid, a.tid, a.ts) < std::tie(b.pid, b.tid, b.ts);
    });
    out << "{\"traceEvents\":[\n";
    for (size_t i = 0; i < events_.size(); ++i) out << (i ? ",\n" : "") << events_[i].text;
    std::string other;
    append_json_string(other, "one training step as scheduled by gpufabric train: a pass's parts are drawn in sequence "
                              "(the TP collectives of its layers as one slice); every rank of a stage runs the same "
                              "schedule");
    out << "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"gpufabric (simulated, not measured)\","
        << fmt::format(R"("step_us":{},"note":{})", us(t_.step_s), other) << "}}\n";
    return events_.size();
  }

 private:
  const Cluster& c_;
  const TrainResult& r_;
  const TrainTimeline& t_;
  const TrainLayout& l_;
  std::vector<Event> events_;
  std::map<std::tuple<int64_t, int64_t, bool>, double> waiting_;
  uint64_t next_flow_ = 1;
};

}  // namespace

size_t write_train_trace(std::ostream& out, const Cluster& cluster, const TrainResult& r, const TrainTimeline& t,
                         const std::vector<std::pair<int, int>>& ranks) {
  return Writer(cluster, r, t).write(out, ranks);
}

}  // namespace gf
