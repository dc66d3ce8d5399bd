#include "replay/replay.hpp"

#include <algorithm>
#include <climits>
#include <map>
#include <queue>
#include <tuple>
#include <unordered_map>

#include "core/error.hpp"
#include "replay/contention.hpp"
#include "replay/server_local.hpp"
#include "training/group_collectives.hpp"

namespace gf {

namespace {

// One meeting of a collective's ranks (or of a send and its receive).
struct Instance {
  CollectiveKind kind = CollectiveKind::AllReduce;
  int64_t bytes = 0;
  std::vector<std::pair<int64_t, uint32_t>> members;  // (rank, node index)
  std::vector<int64_t> gpus;  // rank r runs on GPU r; a collective's sorted, a send's (src, dst)
  int64_t server = -1;        // the server it stays inside (replay/server_local), or -1
  double alone_s = 0;         // timed alone on the network model
  double duration_s = 0;      // as replayed: alone, or together with the instances it overlaps
  int64_t arrived = 0;
  double ready_s = 0;
};

struct Event {
  double t;
  uint64_t seq;
  int64_t rank;
  uint32_t node;
  bool operator>(const Event& o) const { return std::tie(t, seq) > std::tie(o.t, o.seq); }
};

std::string key(const TraceNode& n) { return "node " + std::to_string(n.id); }

class Replayer {
 public:
  Replayer(const Cluster& c, const Router& r, const Trace& t, const ReplayOptions& o)
      : cluster_(c), router_(r), trace_(t), opt_(o), local_(c, r) {}

  ReplayResult run() {
    const int64_t nranks = static_cast<int64_t>(trace_.ranks.size());
    if (nranks > cluster_.gpu_count())
      throw InputError({trace_.source, 0, 0}, "--cluster",
                       "the trace has " + std::to_string(nranks) + " ranks but the cluster has " +
                           std::to_string(cluster_.gpu_count()) + " GPUs",
                       "choose a larger cluster (--nodes) so that rank r runs on GPU r");
    build_graph();
    match_collectives();
    match_p2p();
    time_instances();
    simulate();
    const double alone = end_.empty() ? 0.0 : *std::max_element(end_.begin(), end_.end());
    if (opt_.contention) contend();
    ReplayResult out = result();
    out.uncontended_iteration_s = alone;
    return out;
  }

 private:
  void build_graph() {
    const size_t nr = trace_.ranks.size();
    // Node indices are 32-bit, and so are instance ids (an instance has a node on each member).
    size_t all = 0;
    for (const RankTrace& rt : trace_.ranks) all += rt.nodes.size();
    if (all > static_cast<size_t>(INT32_MAX))
      throw InputError({trace_.source, 0, 0}, "", "the trace has " + std::to_string(all) + " nodes, more than replay's " +
                                                      std::to_string(INT32_MAX),
                       "replay fewer ranks, or fewer layers or micro-batches per rank");
    pending_.resize(nr);
    child_begin_.resize(nr);
    children_.resize(nr);
    instance_of_.resize(nr);
    for (size_t r = 0; r < nr; ++r) {
      const auto& nodes = trace_.ranks[r].nodes;
      std::unordered_map<uint64_t, uint32_t> index;
      index.reserve(nodes.size());
      for (size_t i = 0; i < nodes.size(); ++i) index.emplace(nodes[i].id, static_cast<uint32_t>(i));
      pending_[r].assign(nodes.size(), 0);
      instance_of_[r].assign(nodes.size(), -1);
      // Children in CSR form (a node's waiters: child_[r][child_begin_[r][i] ..]): two 4-byte
      // entries per edge and node rather than a vector per node.
      std::vector<uint32_t>& begin = child_begin_[r];
      begin.assign(nodes.size() + 1, 0);
      for (size_t i = 0; i < nodes.size(); ++i)
        for (uint64_t d : nodes[i].deps) {  // checked by finish_trace: every dependency exists
          ++pending_[r][i];
          ++begin[index.at(d) + 1];
        }
      for (size_t i = 0; i < nodes.size(); ++i) begin[i + 1] += begin[i];
      children_[r].resize(begin[nodes.size()]);
      std::vector<uint32_t> fill(begin.begin(), begin.end() - 1);
      for (size_t i = 0; i < nodes.size(); ++i)
        for (uint64_t d : nodes[i].deps) children_[r][fill[index.at(d)]++] = static_cast<uint32_t>(i);
      total_ += static_cast<int64_t>(nodes.size());
    }
    pending_at_start_ = pending_;
  }

  void match_collectives() {
    // Per group: each member's collectives on it, in file order.
    std::map<std::string, std::map<int64_t, std::vector<uint32_t>>> calls;
    for (const RankTrace& rt : trace_.ranks)
      for (size_t i = 0; i < rt.nodes.size(); ++i)
        if (rt.nodes[i].kind == TraceNodeKind::Collective) calls[rt.nodes[i].pg][rt.rank].push_back(static_cast<uint32_t>(i));
    for (const auto& [pg, by_rank] : calls) {
      const std::vector<int64_t>& members = trace_.groups.at(pg);
      size_t most = 0;
      int64_t most_rank = members.front();
      for (int64_t m : members) {
        const auto it = by_rank.find(m);
        const size_t n = it == by_rank.end() ? 0 : it->second.size();
        if (n > most) most = n, most_rank = m;
      }
      for (int64_t m : members) {
        const auto it = by_rank.find(m);
        const size_t n = it == by_rank.end() ? 0 : it->second.size();
        if (n < most) {
          const RankTrace& longer = trace_.ranks[static_cast<size_t>(most_rank)];
          const TraceNode& extra = longer.nodes[by_rank.at(most_rank)[n]];
          throw InputError({longer.file, 0, 0}, key(extra),
                           "collective #" + std::to_string(n + 1) + " on process group '" + pg + "' has no partner: rank " +
                               std::to_string(m) + " (" + trace_.ranks[static_cast<size_t>(m)].file + ") runs " +
                               std::to_string(n) + " collectives on the group, rank " + std::to_string(most_rank) +
                               " runs " + std::to_string(most),
                           "every member of a process group must issue the same collectives in the same order");
        }
      }
      for (size_t k = 0; k < most; ++k) {
        Instance inst;
        const TraceNode& first = trace_.ranks[static_cast<size_t>(members.front())].nodes[by_rank.at(members.front())[k]];
        inst.kind = first.collective;
        inst.bytes = first.bytes;
        for (int64_t m : members) {
          const uint32_t idx = by_rank.at(m)[k];
          const TraceNode& n = trace_.ranks[static_cast<size_t>(m)].nodes[idx];
          if (n.collective != inst.kind || n.bytes != inst.bytes)
            throw InputError({trace_.ranks[static_cast<size_t>(m)].file, 0, 0}, key(n),
                             "collective #" + std::to_string(k + 1) + " on process group '" + pg + "' is " +
                                 to_string(n.collective) + " of " + std::to_string(n.bytes) + " bytes here but " +
                                 to_string(inst.kind) + " of " + std::to_string(inst.bytes) + " bytes on rank " +
                                 std::to_string(members.front()) + " (" + key(first) + ")",
                             "the group's ranks must issue matching collectives in the same order");
          inst.members.push_back({m, idx});
          instance_of_[static_cast<size_t>(m)][idx] = static_cast<int32_t>(instances_.size());
        }
        instances_.push_back(std::move(inst));
      }
    }
  }

  void match_p2p() {
    // (src, dst, tag) -> the sends in order, and the receives in order.
    std::map<std::tuple<int64_t, int64_t, int64_t>, std::pair<std::vector<uint32_t>, std::vector<uint32_t>>> q;
    for (const RankTrace& rt : trace_.ranks)
      for (size_t i = 0; i < rt.nodes.size(); ++i) {
        const TraceNode& n = rt.nodes[i];
        if (n.kind == TraceNodeKind::Send) q[{rt.rank, n.peer, n.tag}].first.push_back(static_cast<uint32_t>(i));
        if (n.kind == TraceNodeKind::Recv) q[{n.peer, rt.rank, n.tag}].second.push_back(static_cast<uint32_t>(i));
      }
    for (const auto& [k, sr] : q) {
      const auto [src, dst, tag] = k;
      const auto& [sends, recvs] = sr;
      if (sends.size() != recvs.size()) {
        const bool more_sends = sends.size() > recvs.size();
        const RankTrace& rt = trace_.ranks[static_cast<size_t>(more_sends ? src : dst)];
        const TraceNode& n = rt.nodes[more_sends ? sends[recvs.size()] : recvs[sends.size()]];
        throw InputError({rt.file, 0, 0}, key(n),
                         std::string(more_sends ? "a send" : "a receive") + " without its partner: rank " +
                             std::to_string(src) + " sends " + std::to_string(sends.size()) + " and rank " +
                             std::to_string(dst) + " receives " + std::to_string(recvs.size()) + " with tag " +
                             std::to_string(tag),
                         "each COMM_SEND_NODE needs a COMM_RECV_NODE on its comm_dst with the same comm_tag");
      }
      for (size_t i = 0; i < sends.size(); ++i) {
        Instance inst;
        inst.kind = CollectiveKind::SendRecv;
        inst.bytes = trace_.ranks[static_cast<size_t>(src)].nodes[sends[i]].bytes;
        inst.members = {{src, sends[i]}, {dst, recvs[i]}};
        instance_of_[static_cast<size_t>(src)][sends[i]] = static_cast<int32_t>(instances_.size());
        instance_of_[static_cast<size_t>(dst)][recvs[i]] = static_cast<int32_t>(instances_.size());
        instances_.push_back(std::move(inst));
      }
    }
  }

  void time_instances() {
    // A server-local instance is keyed by its GPUs' positions on the server: every server's copy
    // takes what the first one timed takes (replay/server_local).
    std::map<std::tuple<int, int64_t, bool, std::vector<int64_t>>, double> cache;
    for (Instance& inst : instances_) {
      std::vector<int64_t>& gpus = inst.gpus;  // rank r runs on GPU r
      for (const auto& [r, i] : inst.members) gpus.push_back(r);
      if (inst.kind != CollectiveKind::SendRecv) std::sort(gpus.begin(), gpus.end());
      inst.server = local_.server_of(gpus);
      const auto k = std::make_tuple(static_cast<int>(inst.kind), inst.bytes, inst.server >= 0, shifted(inst));
      const auto it = cache.find(k);
      if (it != cache.end()) {
        inst.duration_s = inst.alone_s = it->second;
        continue;
      }
      try {
        inst.duration_s =
            time_groups(cluster_, router_, opt_.network_model, {gpus}, inst.kind, Bytes(inst.bytes), "--pg").seconds;
      } catch (const InputError& e) {
        const auto [r, i] = inst.members.front();
        const RankTrace& rt = trace_.ranks[static_cast<size_t>(r)];
        throw InputError({rt.file, 0, 0}, key(rt.nodes[i]),
                         "cannot run this " + std::string(to_string(inst.kind)) + " on GPUs of ranks " +
                             join(gpus) + ": " + e.message(),
                         e.hint());
      }
      inst.alone_s = inst.duration_s;
      cache.emplace(k, inst.duration_s);
    }
    timed_ = static_cast<int64_t>(cache.size());
  }

  // Contention: the replay above gives every instance a start; instances whose spans
  // [start, start + duration) overlap form a set, and each set of two or more runs together on
  // the network model from those starts (replay/contention), which gives each its duration under
  // the others' load. Longer durations move later starts, so the replay is run again with them,
  // until no duration changes (at most kPasses times; the notes say when the limit was reached).
  // An instance that overlaps nothing keeps its time alone. A set is first split into parts that
  // cannot touch each other's links (split_set), each run on its own.
  void contend() {
    constexpr int kPasses = 8;
    for (passes_ = 1; passes_ <= kPasses; ++passes_) {
      if (!retime_overlaps()) return;
      reset();
      simulate();
    }
    converged_ = false;
  }

  bool retime_overlaps() {
    std::vector<size_t> order(instances_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return std::tie(instances_[a].ready_s, a) < std::tie(instances_[b].ready_s, b);
    });
    std::vector<double> next(instances_.size());
    for (size_t i = 0; i < instances_.size(); ++i) next[i] = instances_[i].alone_s;
    sets_ = parts_ = sets_alone_ = 0;  // the last pass's counts are reported
    size_t lo = 0;
    while (lo < order.size()) {
      // The set: every instance starting before the latest end so far.
      size_t hi = lo + 1;
      double end = instances_[order[lo]].ready_s + instances_[order[lo]].duration_s;
      while (hi < order.size() && instances_[order[hi]].ready_s < end) {
        end = std::max(end, instances_[order[hi]].ready_s + instances_[order[hi]].duration_s);
        ++hi;
      }
      if (hi - lo > 1) retime_set(std::vector<size_t>(order.begin() + static_cast<std::ptrdiff_t>(lo),
                                                      order.begin() + static_cast<std::ptrdiff_t>(hi)),
                                  next);
      lo = hi;
    }
    bool changed = false;
    for (size_t i = 0; i < instances_.size(); ++i)
      if (next[i] != instances_[i].duration_s) changed = true, instances_[i].duration_s = next[i];
    return changed;
  }

  // An instance's GPUs, shifted to server 0 when it is server-local.
  std::vector<int64_t> shifted(const Instance& in) const {
    if (in.server <= 0) return in.gpus;
    std::vector<int64_t> g = in.gpus;
    for (int64_t& x : g) x -= in.server * local_.gpus_per_server();
    return g;
  }

  // The parts of an overlapping set that may share a link: server-local instances on one server
  // join each other; an instance that is not local joins every other such instance (they may meet
  // anywhere on the fabric) and every instance on the servers its GPUs sit on. Parts keep the
  // set's order. Exact: instances in different parts share no link (replay/server_local), so on a
  // model that shares bandwidth per link none slows another.
  std::vector<std::vector<size_t>> split_set(const std::vector<size_t>& set) const {
    std::vector<size_t> parent(set.size());
    for (size_t k = 0; k < set.size(); ++k) parent[k] = k;
    auto root = [&](size_t k) {
      while (parent[k] != k) k = parent[k] = parent[parent[k]];
      return k;
    };
    auto unite = [&](size_t a, size_t b) {
      a = root(a), b = root(b);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    };
    std::unordered_map<int64_t, size_t> on_server;  // server -> an item on it
    const int64_t gps = local_.gpus_per_server();
    size_t fabric = set.size();  // an item that is not local, once one is seen
    for (size_t k = 0; k < set.size(); ++k) {
      const Instance& in = instances_[set[k]];
      if (in.server < 0) {
        if (fabric == set.size()) fabric = k;
        unite(k, fabric);
      }
      for (int64_t g : in.gpus) {
        const auto [it, fresh] = on_server.emplace(g / gps, k);
        if (!fresh) unite(k, it->second);
      }
    }
    std::vector<std::vector<size_t>> parts;
    std::unordered_map<size_t, size_t> part_of;  // root -> index in parts
    for (size_t k = 0; k < set.size(); ++k) {
      const auto [it, fresh] = part_of.emplace(root(k), parts.size());
      if (fresh) parts.emplace_back();
      parts[it->second].push_back(set[k]);
    }
    return parts;
  }

  void retime_set(const std::vector<size_t>& whole, std::vector<double>& next) {
    ++sets_;
    if (!local_.enabled()) return retime_part(whole, next);
    for (const std::vector<size_t>& part : split_set(whole))
      if (part.size() > 1) retime_part(part, next);  // alone: its time alone, already in next
  }

  // One part run together. Keyed by its instances and relative starts; a part on one server by
  // the GPUs' positions on it, so every server's copy of a part is run once.
  void retime_part(const std::vector<size_t>& set, std::vector<double>& next) {
    const double t0 = instances_[set.front()].ready_s;
    std::vector<OverlapItem> items;
    bool local = true;
    for (size_t i : set) local = local && instances_[i].server >= 0;
    std::string key = local ? "L" : "";
    for (size_t i : set) {
      const Instance& in = instances_[i];
      items.push_back({in.kind, in.bytes, in.gpus, in.ready_s - t0});
      key += std::to_string(static_cast<int>(in.kind)) + ":" + std::to_string(in.bytes) + ":" +
             std::to_string(Time::s(in.ready_s - t0).picoseconds()) + ":";
      for (int64_t g : local ? shifted(in) : in.gpus) key += std::to_string(g) + ",";
      key += ";";
    }
    ++parts_;
    auto it = together_.find(key);
    if (it == together_.end()) {
      std::vector<double> d;
      try {
        d = time_together(cluster_, router_, opt_.network_model, items, kGroupTransferBudget);
      } catch (const InputError& e) {  // every group formed a communicator alone (time_instances)
        throw InputError({trace_.source, 0, 0}, "", "overlapping collectives cannot run together: " + e.message(),
                         e.hint());
      }
      it = together_.emplace(key, std::move(d)).first;
    }
    if (it->second.empty()) {  // over the transfer budget: kept alone
      ++sets_alone_;
      return;
    }
    for (size_t k = 0; k < set.size(); ++k) next[set[k]] = it->second[k];
  }

  void reset() {
    pending_ = pending_at_start_;
    for (Instance& in : instances_) in.arrived = 0, in.ready_s = 0;
    seq_ = 0;
    done_ = 0;
  }

  static std::string join(const std::vector<int64_t>& v) {
    std::string s;
    for (size_t i = 0; i < v.size() && i < 16; ++i) s += (i ? "," : "") + std::to_string(v[i]);
    if (v.size() > 16) s += ",...";
    return s;
  }

  void push(double t, int64_t rank, uint32_t node) { events_.push({t, seq_++, rank, node}); }

  void start_compute(int64_t r, uint32_t i, double t) {
    const TraceNode& n = trace_.ranks[static_cast<size_t>(r)].nodes[i];
    busy_[static_cast<size_t>(r)] = true;
    push(t + n.duration_s / opt_.gpu_ratio, r, i);
  }

  void ready(int64_t r, uint32_t i, double t) {
    const TraceNode& n = trace_.ranks[static_cast<size_t>(r)].nodes[i];
    switch (n.kind) {
      case TraceNodeKind::Compute:
        if (!busy_[static_cast<size_t>(r)])
          start_compute(r, i, t);
        else
          waiting_[static_cast<size_t>(r)].push(i);
        return;
      case TraceNodeKind::Marker: push(t, r, i); return;
      default: {
        Instance& inst = instances_[static_cast<size_t>(instance_of_[static_cast<size_t>(r)][i])];
        inst.ready_s = std::max(inst.ready_s, t);
        if (++inst.arrived == static_cast<int64_t>(inst.members.size()))
          for (const auto& [mr, mi] : inst.members) push(inst.ready_s + inst.duration_s, mr, mi);
      }
    }
  }

  void simulate() {
    const size_t nr = trace_.ranks.size();
    busy_.assign(nr, false);
    waiting_.assign(nr, {});
    end_.assign(nr, 0.0);
    for (size_t r = 0; r < nr; ++r)
      for (uint32_t i = 0; i < pending_[r].size(); ++i)
        if (pending_[r][i] == 0) ready(static_cast<int64_t>(r), i, 0.0);
    while (!events_.empty()) {
      const Event e = events_.top();
      events_.pop();
      const size_t r = static_cast<size_t>(e.rank);
      ++done_;
      end_[r] = std::max(end_[r], e.t);
      if (trace_.ranks[r].nodes[e.node].kind == TraceNodeKind::Compute) {
        busy_[r] = false;
        if (!waiting_[r].empty()) {
          const uint32_t next = waiting_[r].front();
          waiting_[r].pop();
          start_compute(e.rank, next, e.t);
        }
      }
      for (uint32_t k = child_begin_[r][e.node]; k < child_begin_[r][e.node + 1]; ++k) {
        const uint32_t c = children_[r][k];
        if (--pending_[r][c] == 0) ready(e.rank, c, e.t);
      }
    }
    if (done_ == total_) return;
    // A stall: a collective some of whose ranks arrived while another never can.
    for (const Instance& inst : instances_)
      if (inst.arrived > 0 && inst.arrived < static_cast<int64_t>(inst.members.size()))
        for (const auto& [r, i] : inst.members)
          if (pending_[static_cast<size_t>(r)][i] > 0) {
            const RankTrace& rt = trace_.ranks[static_cast<size_t>(r)];
            throw InputError({rt.file, 0, 0}, key(rt.nodes[i]),
                             "replay deadlock: rank " + std::to_string(r) + " never reaches this " +
                                 to_string(inst.kind) + ", on which " + std::to_string(inst.arrived) +
                                 " other rank(s) wait (its dependencies wait on a collective that needs this rank)",
                             "the ranks issue their collectives in orders that cannot all be met; check the "
                             "dependencies around this node");
          }
    throw InputError({trace_.source, 0, 0}, "", "replay deadlock: " + std::to_string(total_ - done_) +
                                                    " nodes never became ready",
                     "the ranks' collectives wait on each other in a cycle");
  }

  ReplayResult result() {
    ReplayResult out;
    out.format = trace_.format;
    out.source = trace_.source;
    out.network_model = opt_.network_model;
    out.gpu_ratio = opt_.gpu_ratio;
    out.ranks = static_cast<int64_t>(trace_.ranks.size());
    out.nodes = total_;
    out.timed = timed_;
    for (size_t r = 0; r < end_.size(); ++r)
      if (end_[r] > out.iteration_s) out.iteration_s = end_[r], out.slowest_rank = static_cast<int64_t>(r);
    std::map<int, ReplayCommStats> by_kind;
    bool all_starts = true;
    double recorded = 0;
    const double nr = static_cast<double>(trace_.ranks.size());
    for (const RankTrace& rt : trace_.ranks) {
      double lo = 1e300, hi = -1e300;
      for (size_t i = 0; i < rt.nodes.size(); ++i) {
        const TraceNode& n = rt.nodes[i];
        if (n.start_s < 0) all_starts = false;
        lo = std::min(lo, n.start_s);
        hi = std::max(hi, n.start_s + n.duration_s);
        if (n.kind == TraceNodeKind::Compute) {
          out.compute_s += n.duration_s / opt_.gpu_ratio / nr;
          out.recorded_compute_s += n.duration_s / nr;
        }
        const int64_t inst = instance_of_[static_cast<size_t>(rt.rank)][i];
        if (inst < 0) continue;
        const Instance& in = instances_[static_cast<size_t>(inst)];
        ReplayCommStats& s = by_kind[static_cast<int>(in.kind)];
        s.collective = to_string(in.kind);
        s.calls += 1;
        s.bytes += static_cast<double>(in.bytes);
        s.recorded_s += n.duration_s;
        s.simulated_s += in.duration_s;
      }
      if (!rt.nodes.empty()) recorded = std::max(recorded, hi - lo);
    }
    if (all_starts && total_ > 0) out.recorded_iteration_s = recorded;
    for (auto& [k, s] : by_kind) out.comm.push_back(s);
    if (!opt_.contention)
      out.notes.push_back("each distinct collective (" + std::to_string(timed_) +
                          ") timed alone on the network model and reused: collectives that overlap do not contend");
    else {
      out.notes.push_back("collectives in flight at once run together on the network model (" +
                          std::to_string(sets_) + " overlapping sets, split into " + std::to_string(parts_) +
                          " runs of instances that may share a link, " + std::to_string(together_.size()) +
                          " distinct; " + std::to_string(timed_) + " distinct collectives timed alone)");
      if (sets_alone_ > 0)
        out.notes.push_back(std::to_string(sets_alone_) + " of those runs over the transfer budget were timed " +
                            "alone, each collective by itself (optimistic where they share links)");
      if (!converged_)
        out.notes.push_back("contention: durations still moved after " + std::to_string(passes_ - 1) +
                            " replays; the last is reported");
    }
    out.notes.push_back("rank r runs on the cluster's GPU r; one compute node at a time per rank");
    if (opt_.gpu_ratio != 1.0)
      out.notes.push_back("compute durations divided by the GPU ratio " + std::to_string(opt_.gpu_ratio));
    return out;
  }

  const Cluster& cluster_;
  const Router& router_;
  const Trace& trace_;
  ReplayOptions opt_;
  ServerLocality local_;
  std::vector<std::vector<uint32_t>> pending_, pending_at_start_;  // per node: dependencies left
  std::map<std::string, std::vector<double>> together_;  // an overlapping set's key -> durations
  int64_t sets_ = 0, parts_ = 0, sets_alone_ = 0;
  int passes_ = 0;
  bool converged_ = true;
  std::vector<std::vector<uint32_t>> child_begin_, children_;  // per rank: CSR of each node's waiters
  std::vector<std::vector<int32_t>> instance_of_;  // node -> its instance, -1 for compute
  std::vector<Instance> instances_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  uint64_t seq_ = 0;
  std::vector<bool> busy_;
  std::vector<std::queue<uint32_t>> waiting_;
  std::vector<double> end_;
  int64_t total_ = 0, done_ = 0, timed_ = 0;
};

}  // namespace

ReplayResult run_replay(const Cluster& cluster, const Router& router, const Trace& trace, const ReplayOptions& options) {
  if (!(options.gpu_ratio > 0))
    throw InputError({}, "--gpu-ratio", "must be above 0", "e.g. --gpu-ratio 2 for a GPU twice as fast");
  return Replayer(cluster, router, trace, options).run();
}

}  // namespace gf
