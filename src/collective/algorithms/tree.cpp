// Tree all-reduce as NCCL runs it (NVIDIA/nccl src/graph/trees.cc ncclGetDtree for the trees,
// src/graph/connect.cc connectTrees for how servers and chains join, src/device/all_reduce.h
// runTreeSplit for the data flow; Sanders, Speck & Traeff, Parallel Computing 2009, for the double
// binary tree). Inside each server the ranks form a chain; across servers the chains' heads form a
// binary tree. Every rank reduces what its children send with its own data and passes it up; the
// root then broadcasts the result down the same edges.
//
// NCCL builds two such trees (the double binary tree: tree 1 mirrors or shifts tree 0 so a server
// interior in one is mostly a leaf in the other) and gives each half of the data; each half is
// pipelined in chunks, each edge carrying them in order. So per channel and tree, a byte climbs
// ppn-1 chain hops and log2(nodes) server-to-server hops, then comes back down:
// 2((ppn-1) + log2(nodes)) hops, the latency NCCL's tuner charges (tuning.cc:
// 2 x ((ppn-1) x intraLat + log2(nNodes) x interLat)), plus one step per further chunk.
//
// Simplification: all of a server's traffic to other servers goes through its chain head (NCCL's
// NCCL_TOPO_PATTERN_TREE); NCCL's balanced/split patterns spread parent and children over two GPUs.
#include "collective/algorithms/algorithms.hpp"
#include "collective/algorithms/patterns.hpp"
#include "collective/algorithms/steady_state.hpp"
#include "collective/nccl_constants.hpp"

namespace gf {
namespace {

class Tree final : public ChunkedAlgorithm {
 public:
  std::string name() const override { return "tree"; }
  std::string description() const override {
    return "double binary tree across servers, chain inside each: reduce up, broadcast down, pipelined";
  }
  std::string source() const override {
    return "NVIDIA/nccl src/graph/trees.cc (ncclGetDtree), src/device/all_reduce.h (runTreeSplit); "
           "Sanders, Speck & Traeff, Parallel Computing 2009";
  }

  std::string unsupported(const Communicator& comm, CollectiveKind kind) const override {
    std::string why = runs_only("tree", kind, {CollectiveKind::AllReduce}, "use ring (NCCL's tree runs only AllReduce)");
    if (!why.empty()) return why;
    if (comm.nranks < 2) return "a tree needs at least 2 ranks";
    return "";
  }

  Schedule build_logged(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt,
                        ChunkLog* log) const override {
    const int C = opt.channels;
    if (!log && use_steady_state(tree_step_transfers(comm, call, C))) return steady_tree(comm, call, opt);
    Schedule s("tree", comm.nranks, C, opt.proto);
    apply_nccl_latencies(s, "tree", opt.proto);
    Emitter e(s, log);
    const std::vector<TransferId> none(static_cast<size_t>(comm.nranks), -1);
    std::vector<Rank> members(static_cast<size_t>(comm.nranks));
    for (Rank r = 0; r < comm.nranks; ++r) members[static_cast<size_t>(r)] = r;
    for (int c = 0; c < C; ++c) {
      const Bytes per_channel = piece(call.bytes, C, c);
      for (int t = 0; t < 2; ++t) {
        const std::vector<int> parent = tree_rank_parents(comm, c, t);
        const Bytes half = piece(per_channel, 2, t);
        const int chunks = pipeline_chunks(half);
        TreePipe pipe(members.size());
        for (int j = 0; j < chunks; ++j) {
          const Bytes b = piece(half, chunks, j);
          const Chunk what{kEveryRank, kEveryRank, (c * 2 + t) * kPipelineChunks + j, b};
          tree_allreduce(e, members, parent, none, c, b, std::span<const Chunk>(&what, 1), pipe);
        }
      }
    }
    return s;
  }
};

}  // namespace

std::unique_ptr<Algorithm> make_tree() { return std::make_unique<Tree>(); }

}  // namespace gf
