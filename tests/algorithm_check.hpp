// Shared by the tests/algorithm_*_test.cpp files: a symbolic checker that proves a schedule is the
// collective it claims to be, and small helpers to build communicators and measure schedules.
//
// The checker walks the DAG in id order (dependencies always come first) and tracks, for every
// rank and chunk (algorithms/chunks.hpp), a vector counting how many times each rank's input is in
// the value that rank holds. Rank r starts with its own input (a unit vector) for the chunks it
// owns, nothing for the others. A transfer carries, for each chunk it names, the sum over its
// source (a rank, or every member of a group: in-switch reduction) of the value the source holds
// *as established by the transfer's ancestors only*: a write into the source that is not an
// ancestor may not have happened yet, so it is not counted. On arrival the value is added
// (Transfer::reduce > 0, the GPU reduces) or replaces the destination's (a copy; a switch-reduced
// result also arrives as a copy; a multicast leaves its own sender's value as it was). At the end every destination of a chunk must hold exactly
// every rank's input once (a reduction) or exactly its owner's (a copy), which rules out missing,
// duplicated and misrouted data alike. Along the way it also rejects:
//  - a transfer carrying a chunk its source does not hold yet (all zeros);
//  - races: a write to (rank, chunk) unordered with a read of it or with another write of it
//    (two unordered reductions into one cell commute and are allowed);
//  - chunks of the wrong kind for the collective, inconsistent sizes, transfers whose bytes are
//    not the sum of their chunks, and buffers not fully covered.
// A zero-byte reducing transfer reads as a copy (reduce = 0); tests use sizes where that cannot
// happen.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "collective/algorithm.hpp"
#include "collective/chunks.hpp"
#include "collective/communicator.hpp"
#include "config/presets.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"

namespace algocheck {

using gf::Bytes;
using gf::Chunk;
using gf::ChunkLog;
using gf::CollectiveKind;
using gf::Schedule;
using gf::TransferId;

inline std::string describe(const Chunk& c) {
  auto who = [](int32_t r) { return r == gf::kEveryRank ? std::string("*") : std::to_string(r); };
  return "chunk(owner " + who(c.owner) + ", dest " + who(c.dest) + ", part " + std::to_string(c.part) + ")";
}

class Checker {
 public:
  Checker(const Schedule& s, const ChunkLog& log, const gf::CollectiveCall& call) : s_(s), log_(log), call_(call), n_(s.nranks()) {}

  ::testing::AssertionResult run() {
    if (log_.size() != s_.size())
      return fail("the chunk log has " + std::to_string(log_.size()) + " entries for " + std::to_string(s_.size()) + " transfers");
    if (auto r = index_chunks(); !r) return r;
    if (auto r = check_coverage(); !r) return r;
    ancestors();
    if (auto r = simulate(); !r) return r;
    if (auto r = check_races(); !r) return r;
    return check_final();
  }

 private:
  using Value = std::vector<int>;
  const Schedule& s_;
  const ChunkLog& log_;
  gf::CollectiveCall call_;
  int n_;
  std::map<std::tuple<int32_t, int32_t, int32_t>, int> index_;
  std::vector<Chunk> chunks_;
  std::vector<std::vector<int>> chunk_ids_;        // per transfer: chunk indices, as in the log
  std::vector<std::vector<Value>> carried_;        // per transfer: value carried per chunk
  std::vector<std::vector<uint64_t>> anc_;         // per transfer: bitset of ancestors
  std::vector<std::vector<TransferId>> writes_, reads_;  // per cell (rank * K + chunk)

  static ::testing::AssertionResult fail(const std::string& why) { return ::testing::AssertionFailure() << why; }
  size_t K() const { return chunks_.size(); }
  size_t cell(int rank, int chunk) const { return static_cast<size_t>(rank) * K() + static_cast<size_t>(chunk); }
  std::vector<int> members(int32_t endpoint) const {
    if (!gf::is_group(endpoint)) return {endpoint};
    const auto& g = s_.groups()[static_cast<size_t>(gf::group_index(endpoint))].ranks;
    return {g.begin(), g.end()};
  }
  bool is_ancestor(TransferId a, TransferId b) const {  // a happens before b
    return (anc_[static_cast<size_t>(b)][static_cast<size_t>(a) / 64] >> (static_cast<size_t>(a) % 64)) & 1u;
  }
  bool ordered(TransferId a, TransferId b) const { return a < b ? is_ancestor(a, b) : is_ancestor(b, a); }
  bool reduces(TransferId t) const { return s_.transfer(t).reduce.count() > 0; }

  // Which (owner, dest) a chunk of this collective may have.
  std::string bad_kind(const Chunk& c) const {
    const int32_t all = gf::kEveryRank, root = call_.root;
    auto in_range = [this](int32_t r) { return r >= 0 && r < n_; };
    bool ok = false;
    switch (call_.kind) {
      case CollectiveKind::AllReduce: ok = c.owner == all && c.dest == all; break;
      case CollectiveKind::ReduceScatter: ok = c.owner == all && in_range(c.dest); break;
      case CollectiveKind::Reduce: ok = c.owner == all && c.dest == root; break;
      case CollectiveKind::AllGather: ok = in_range(c.owner) && c.dest == all; break;
      case CollectiveKind::Broadcast: ok = c.owner == root && c.dest == all; break;
      case CollectiveKind::AllToAll: ok = in_range(c.owner) && in_range(c.dest) && c.owner != c.dest; break;
      case CollectiveKind::SendRecv: ok = in_range(c.owner) && c.dest == (c.owner + 1) % n_; break;
    }
    return ok ? "" : describe(c) + " does not belong to a " + gf::to_string(call_.kind);
  }

  ::testing::AssertionResult index_chunks() {
    chunk_ids_.resize(s_.size());
    for (size_t t = 0; t < s_.size(); ++t) {
      int64_t sum = 0;
      for (const Chunk& c : log_[t]) {
        if (std::string why = bad_kind(c); !why.empty()) return fail("transfer " + std::to_string(t) + ": " + why);
        auto key = std::make_tuple(c.owner, c.dest, c.part);
        auto [it, added] = index_.emplace(key, static_cast<int>(chunks_.size()));
        if (added) chunks_.push_back(c);
        else if (chunks_[static_cast<size_t>(it->second)].bytes != c.bytes)
          return fail(describe(c) + " has two sizes");
        chunk_ids_[t].push_back(it->second);
        sum += c.bytes.count();
      }
      if (log_[t].empty()) return fail("transfer " + std::to_string(t) + " carries nothing");
      if (sum != s_.transfer(static_cast<TransferId>(t)).bytes.count())
        return fail("transfer " + std::to_string(t) + " moves " + std::to_string(s_.transfer(static_cast<TransferId>(t)).bytes.count()) +
                    " bytes but its chunks add up to " + std::to_string(sum));
    }
    return ::testing::AssertionSuccess();
  }

  // Every (owner, dest) buffer the collective defines must be covered exactly: S for the
  // whole-buffer collectives, S/n per block for the blocked ones (nccl-tests' S counts all n
  // blocks), within one byte per channel where S does not divide evenly.
  ::testing::AssertionResult check_coverage() const {
    std::map<std::pair<int32_t, int32_t>, int64_t> have;
    for (const Chunk& c : chunks_) have[{c.owner, c.dest}] += c.bytes.count();
    std::vector<std::pair<int32_t, int32_t>> want;
    const int32_t all = gf::kEveryRank;
    bool blocked = false;
    switch (call_.kind) {
      case CollectiveKind::AllReduce: want = {{all, all}}; break;
      case CollectiveKind::Reduce: want = {{all, call_.root}}; break;
      case CollectiveKind::Broadcast: want = {{call_.root, all}}; break;
      case CollectiveKind::ReduceScatter: blocked = true; for (int r = 0; r < n_; ++r) want.push_back({all, r}); break;
      case CollectiveKind::AllGather: blocked = true; for (int r = 0; r < n_; ++r) want.push_back({r, all}); break;
      case CollectiveKind::AllToAll:
        blocked = true;
        for (int a = 0; a < n_; ++a)
          for (int b = 0; b < n_; ++b)
            if (a != b) want.push_back({a, b});
        break;
      case CollectiveKind::SendRecv: for (int r = 0; r < n_; ++r) want.push_back({r, (r + 1) % n_}); break;
    }
    if (have.size() != want.size())
      return fail("the schedule moves " + std::to_string(have.size()) + " distinct buffers, the collective has " +
                  std::to_string(want.size()));
    const int64_t S = call_.bytes.count();
    for (auto w : want) {
      auto it = have.find(w);
      if (it == have.end())
        return fail("nothing of buffer (owner " + std::to_string(w.first) + ", dest " + std::to_string(w.second) + ") moves");
      const int64_t got = it->second;
      const bool exact = !blocked || S % (static_cast<int64_t>(n_) * s_.channels()) == 0;
      const int64_t lo = blocked ? S / n_ - (exact ? 0 : s_.channels()) : S;
      const int64_t hi = blocked ? S / n_ + (exact ? 0 : s_.channels()) : S;
      if (got < lo || got > hi)
        return fail("buffer (owner " + std::to_string(w.first) + ", dest " + std::to_string(w.second) + ") moves " +
                    std::to_string(got) + " bytes, expected " + std::to_string(lo) + (lo == hi ? "" : ".." + std::to_string(hi)));
    }
    return ::testing::AssertionSuccess();
  }

  void ancestors() {
    const size_t words = (s_.size() + 63) / 64;
    anc_.assign(s_.size(), std::vector<uint64_t>(words, 0));
    for (size_t t = 0; t < s_.size(); ++t)
      for (TransferId d : s_.deps(static_cast<TransferId>(t))) {
        for (size_t w = 0; w < words; ++w) anc_[t][w] |= anc_[static_cast<size_t>(d)][w];
        anc_[t][static_cast<size_t>(d) / 64] |= uint64_t{1} << (static_cast<size_t>(d) % 64);
      }
  }

  Value initial(int rank, int chunk) const {
    Value v(static_cast<size_t>(n_), 0);
    const int32_t owner = chunks_[static_cast<size_t>(chunk)].owner;
    if (owner == gf::kEveryRank || owner == rank) v[static_cast<size_t>(rank)] = 1;
    return v;
  }
  int position(TransferId t, int chunk) const {
    const auto& ids = chunk_ids_[static_cast<size_t>(t)];
    return static_cast<int>(std::find(ids.begin(), ids.end(), chunk) - ids.begin());
  }
  void apply(Value& v, TransferId w, int chunk) const {
    const Value& in = carried_[static_cast<size_t>(w)][static_cast<size_t>(position(w, chunk))];
    if (reduces(w))
      for (size_t i = 0; i < v.size(); ++i) v[i] += in[i];
    else
      v = in;
  }
  // What `rank` holds of `chunk` as seen by transfer t (only writes that happen before t count);
  // t < 0: at the end.
  Value holding(int rank, int chunk, TransferId t) const {
    Value v = initial(rank, chunk);
    for (TransferId w : writes_[cell(rank, chunk)])
      if (t < 0 || is_ancestor(w, t)) apply(v, w, chunk);
    return v;
  }

  ::testing::AssertionResult simulate() {
    carried_.resize(s_.size());
    writes_.assign(static_cast<size_t>(n_) * K(), {});
    reads_.assign(static_cast<size_t>(n_) * K(), {});
    for (size_t ut = 0; ut < s_.size(); ++ut) {
      const auto t = static_cast<TransferId>(ut);
      const gf::Transfer& tr = s_.transfer(t);
      for (int x : chunk_ids_[ut]) {
        Value sum(static_cast<size_t>(n_), 0);
        for (int m : members(tr.src)) {
          Value v = holding(m, x, t);
          for (size_t i = 0; i < sum.size(); ++i) sum[i] += v[i];
          reads_[cell(m, x)].push_back(t);
        }
        if (std::all_of(sum.begin(), sum.end(), [](int c) { return c == 0; }))
          return fail("transfer " + std::to_string(t) + " (" + std::to_string(tr.src) + " -> " + std::to_string(tr.dst) +
                      ") sends " + describe(chunks_[static_cast<size_t>(x)]) + " before its source holds any of it");
        carried_[ut].push_back(std::move(sum));
      }
      // A multicast back into its own sender (rank -> group holding it) leaves its value as it was.
      for (int x : chunk_ids_[ut])
        for (int m : members(tr.dst))
          if (m != tr.src) writes_[cell(m, x)].push_back(t);
    }
    return ::testing::AssertionSuccess();
  }

  ::testing::AssertionResult check_races() const {
    for (int r = 0; r < n_; ++r)
      for (size_t x = 0; x < K(); ++x) {
        const auto& W = writes_[cell(r, static_cast<int>(x))];
        const auto& R = reads_[cell(r, static_cast<int>(x))];
        auto where = [&] { return " at rank " + std::to_string(r) + ", " + describe(chunks_[x]); };
        for (size_t i = 0; i < W.size(); ++i)
          for (size_t j = i + 1; j < W.size(); ++j)
            if ((!reduces(W[i]) || !reduces(W[j])) && !ordered(W[i], W[j]))
              return fail("transfers " + std::to_string(W[i]) + " and " + std::to_string(W[j]) + " write unordered" + where());
        for (TransferId w : W)
          for (TransferId rd : R)
            if (w != rd && !ordered(w, rd))
              return fail("transfer " + std::to_string(rd) + " reads while " + std::to_string(w) + " writes, unordered" + where());
      }
    return ::testing::AssertionSuccess();
  }

  ::testing::AssertionResult check_final() const {
    for (size_t x = 0; x < K(); ++x) {
      const Chunk& c = chunks_[x];
      Value want(static_cast<size_t>(n_), 0);
      if (c.owner == gf::kEveryRank) std::fill(want.begin(), want.end(), 1);
      else want[static_cast<size_t>(c.owner)] = 1;
      for (int r = 0; r < n_; ++r) {
        if (c.dest != gf::kEveryRank && c.dest != r) continue;
        Value got = holding(r, static_cast<int>(x), -1);
        if (got != want) {
          std::string g;
          for (int v : got) g += std::to_string(v);
          return fail("rank " + std::to_string(r) + " ends with " + describe(c) + " made of [" + g + "] (one digit per rank)");
        }
      }
    }
    return ::testing::AssertionSuccess();
  }
};

// Builds `algo` for `call` with its chunk log and checks it; use as
// EXPECT_TRUE(algocheck::correct(...)).
inline ::testing::AssertionResult correct(const gf::Algorithm& algo, const gf::Communicator& comm, const gf::CollectiveCall& call,
                                          const gf::AlgorithmOptions& opt = {}) {
  ChunkLog log;
  Schedule s = gf::build_with_chunks(algo, comm, call, opt, log);
  return Checker(s, log, call).run();
}
inline ::testing::AssertionResult correct(const Schedule& s, const ChunkLog& log, const gf::CollectiveCall& call) {
  return Checker(s, log, call).run();
}

// A cluster, its router and a communicator over it, kept together (the communicator points into
// the cluster, the router refers to it).
struct Setup {
  gf::Cluster cluster;
  gf::Router router;
  gf::Communicator comm;
  Setup(const gf::ClusterSpec& spec, int nodes, int ppn)
      : cluster(gf::build_cluster(spec)), router(cluster), comm(gf::make_communicator(cluster, router, nodes, ppn)) {}
};
// `server` preset on `nodes` servers of its usual fabric, `ppn` GPUs each.
inline std::unique_ptr<Setup> setup(const std::string& server, int nodes, int ppn) {
  return std::make_unique<Setup>(gf::resolve_cluster(server, nodes), nodes, ppn);
}

inline const gf::Algorithm& algo(const std::string& name) {
  const gf::Algorithm* a = gf::find_algorithm(name);
  if (!a) throw std::logic_error("no algorithm " + name);
  return *a;
}

inline gf::CollectiveCall call(CollectiveKind kind, int64_t bytes, int root = 0) {
  gf::CollectiveCall c;
  c.kind = kind;
  c.bytes = Bytes(bytes);
  c.root = root;
  return c;
}

inline gf::AlgorithmOptions channels(int c) {
  gf::AlgorithmOptions o;
  o.channels = c;
  return o;
}

inline bool crosses_servers(const gf::Transfer& t, const gf::Communicator& comm) {
  if (gf::is_group(t.src) || gf::is_group(t.dst)) return false;
  return comm.node_of[static_cast<size_t>(t.src)] != comm.node_of[static_cast<size_t>(t.dst)];
}

// How many times the slowest byte crosses the network one after another: over every chunk, the
// most server-to-server transfers on a chain of dependent transfers that all carry that chunk.
// (It follows the data, not every dependency: a ring's boundary rank sends on the network at
// every step, one send after the other, but each piece crosses a boundary only when it reaches
// one.)
inline int chunk_inter_server_depth(const Schedule& s, const ChunkLog& log, const gf::Communicator& comm) {
  std::vector<std::map<std::tuple<int32_t, int32_t, int32_t>, int>> d(s.size());
  int best = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const int here = crosses_servers(s.transfer(static_cast<TransferId>(i)), comm) ? 1 : 0;
    for (const Chunk& c : log[i]) {
      auto key = std::make_tuple(c.owner, c.dest, c.part);
      int before = 0;
      for (TransferId p : s.deps(static_cast<TransferId>(i))) {
        auto it = d[static_cast<size_t>(p)].find(key);
        if (it != d[static_cast<size_t>(p)].end()) before = std::max(before, it->second);
      }
      d[i][key] = before + here;
      best = std::max(best, before + here);
    }
  }
  return best;
}
inline int chunk_inter_server_depth(const gf::Algorithm& a, const gf::Communicator& comm, const gf::CollectiveCall& call,
                                    const gf::AlgorithmOptions& opt = {}) {
  ChunkLog log;
  Schedule s = gf::build_with_chunks(a, comm, call, opt, log);
  return chunk_inter_server_depth(s, log, comm);
}

inline int64_t inter_server_bytes(const Schedule& s, const gf::Communicator& comm) {
  int64_t b = 0;
  for (const auto& t : s.transfers())
    if (crosses_servers(t, comm)) b += t.bytes.count();
  return b;
}

// Every rank sends `sent` and receives `received` bytes (group transfers count for each member).
inline ::testing::AssertionResult each_rank_moves(const Schedule& s, int64_t sent, int64_t received) {
  for (gf::Rank r = 0; r < s.nranks(); ++r)
    if (s.bytes_sent(r).count() != sent || s.bytes_received(r).count() != received)
      return ::testing::AssertionFailure() << "rank " << r << " sends " << s.bytes_sent(r).count() << " and receives "
                                           << s.bytes_received(r).count() << ", expected " << sent << " and " << received;
  return ::testing::AssertionSuccess();
}

inline int64_t total_sent(const Schedule& s) {
  int64_t b = 0;
  for (gf::Rank r = 0; r < s.nranks(); ++r) b += s.bytes_sent(r).count();
  return b;
}

}  // namespace algocheck
