// What each transfer of a schedule carries, named so that a checker can prove the schedule is the
// collective it claims to be (tests/algorithm_check.hpp) and a trace can say which data moved.
//
// A Schedule alone says who sends how many bytes after what; it does not say *which* bytes. Every
// built-in algorithm therefore builds through an Emitter, which can record, per transfer, the
// chunks it carries. Building for a model passes no log and pays nothing but a branch.
//
// A chunk is a piece of the collective's data named by whose input it is, which rank must end up
// holding it, and which piece of that (owner, dest) buffer it is:
//   AllReduce      owner kEveryRank, dest kEveryRank
//   ReduceScatter  owner kEveryRank, dest r (rank r's output block)
//   Reduce         owner kEveryRank, dest root
//   AllGather      owner r,          dest kEveryRank
//   Broadcast      owner root,       dest kEveryRank
//   AllToAll       owner s,          dest d (s != d)
//   SendRecv       owner r,          dest (r + 1) % n
// owner kEveryRank means every rank contributes its own operand (a reduction); `part` must be unique
// among the chunks of one (owner, dest) and `bytes` the same wherever the chunk appears.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

#include "collective/algorithm.hpp"
#include "collective/schedule.hpp"

namespace gf {

constexpr int32_t kEveryRank = -1;

struct Chunk {
  int32_t owner = kEveryRank;
  int32_t dest = kEveryRank;
  int32_t part = 0;
  Bytes bytes;
};

using ChunkLog = std::vector<std::vector<Chunk>>;  // indexed by TransferId

// A transfer from `src` to `dst` on `channel` at `step`; a reducing one reduces all it carries.
Transfer make_transfer(int32_t src, int32_t dst, Bytes bytes, bool reduce, int channel, int step);

// Adds transfers to a schedule and, when logging, what each carries.
class Emitter {
 public:
  Emitter(Schedule& s, ChunkLog* log) : s_(s), log_(log) {}
  bool logging() const { return log_ != nullptr; }
  Schedule& schedule() { return s_; }

  TransferId add(const Transfer& t, std::span<const TransferId> deps, std::span<const Chunk> chunks) {
    TransferId id = s_.add(t, deps);
    if (log_) log_->emplace_back(chunks.begin(), chunks.end());
    return id;
  }
  TransferId add(const Transfer& t, std::initializer_list<TransferId> deps, std::initializer_list<Chunk> chunks) {
    return add(t, std::span<const TransferId>(deps.begin(), deps.size()), std::span<const Chunk>(chunks.begin(), chunks.size()));
  }
  TransferId add(const Transfer& t, std::span<const TransferId> deps, std::initializer_list<Chunk> chunks) {
    return add(t, deps, std::span<const Chunk>(chunks.begin(), chunks.size()));
  }

 private:
  Schedule& s_;
  ChunkLog* log_;
};

// Base of the built-in algorithms: build() is build_logged() without a log.
class ChunkedAlgorithm : public Algorithm {
 public:
  Schedule build(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt) const final {
    return build_logged(comm, call, opt, nullptr);
  }
  virtual Schedule build_logged(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt,
                                ChunkLog* log) const = 0;
};

// Builds `a` and fills `log` with what every transfer carries. Throws std::logic_error when `a` is
// not one of the built-in (chunk-logging) algorithms.
Schedule build_with_chunks(const Algorithm& a, const Communicator& comm, const CollectiveCall& call,
                           const AlgorithmOptions& opt, ChunkLog& log);

}  // namespace gf
