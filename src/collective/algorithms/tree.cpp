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
// 2 x ((ppn-1) x intraLat + log2(nNodes) x interLat)); inside a server later chunks follow
// without latency of their own, only their wire time, across servers each pays a step
// (patterns.hpp add_chunk).
//
// Simplification: all of a server's traffic to other servers goes through its chain head (NCCL's
// NCCL_TOPO_PATTERN_TREE); NCCL's balanced/split patterns spread parent and children over two GPUs.
#include "collective/algorithms/algorithms.hpp"
#include "collective/algorithms/patterns.hpp"
#include "collective/algorithms/steady_forms.hpp"
#include "collective/nccl_constants.hpp"

namespace gf {
namespace {

class Tree final : public ChunkedAlgorithm {
 public:
  const AlgorithmTraits& traits() const override {
    static const AlgorithmTraits kTraits{
        "tree",
        "double binary tree across servers, chain inside each: reduce up, broadcast down, pipelined",
        "NVIDIA/nccl src/graph/trees.cc (ncclGetDtree), src/device/all_reduce.h (runTreeSplit); "
        "Sanders, Speck & Traeff, Parallel Computing 2009",
        {CollectiveKind::AllReduce},
        ProtocolSet{Protocol::LL, Protocol::LL128, Protocol::Simple},
        // NCCL's Tree row (tuning.cc baseLat, hwLat[NVLINK|PCI|NET][Tree]).
        NcclLatencies{{6.8, 14.0, 8.4}, {0.6, 1.25, 4.0}, {1.0, 1.9, 4.0}, {5.0, 8.5, 14.0}, false},
        AutoChoice::tie_rank(6),
        InNetwork::None};
    return kTraits;
  }

  int channels(const Communicator& comm) const override { return nccl_search_channels(comm); }
  // NCCL's tree estimate (tuning.cc): a chain of ppn-1 intra hops and log2(nodes) network hops,
  // up and down; bandwidth capped per channel (perChMaxTreeBws, perChMaxTreeLL128Bws), LL at
  // bus / 3.8, then NCCL's treeCorrectionFactor. tree.cpp sends all of a server's traffic
  // through its chain head: NCCL's TREE pattern, x0.85.
  std::optional<Time> estimate(const EstimateInput& in, Protocol p, int channels) const override {
    if (!in.all_reduce()) return std::nullopt;
    const StepLatency l = step_latency(traits().latency, p, in);
    const int nodes = in.nnodes, nch = std::max(1, channels);
    const double lat = l.base + 2 * ((in.ppn - 1) * l.intra + in.log2_nodes() * l.inter);
    const double bus = in.bus();
    // NCCL applies the refinements one after another (tuning.cc ncclTopoTuneModel): the protocol's
    // factor scales the already capped all-reduce figure.
    double b = std::min(0.92 * bus, nch * nccl_tree_per_channel_bw(in.arch, nodes));
    if (p == Protocol::LL) b = std::min(b / 3.8, nccl_ll_max_bw(in.arch, nodes));
    if (p == Protocol::LL128)
      b = std::min(b * (nodes <= 1 ? 7.0 / 9.0 : 120.0 / 128.0), nch * nccl_tree_ll128_per_channel_bw(in.arch, nodes));
    return nccl_time(lat, b * 0.85 * 0.5 * nccl_tree_correction(p, in.bytes), in.bytes);
  }
  int64_t step_transfers(const Communicator& comm, const CollectiveCall& call, int channels) const override {
    return tree_step_transfers(comm, call, channels);
  }
  Schedule build_steady(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt) const override {
    return steady_tree(*this, comm, call, opt);
  }

  std::string unsupported(const Communicator& comm, CollectiveKind kind) const override {
    std::string why = runs_only(traits(), kind, "use ring (NCCL's tree runs only AllReduce)");
    if (!why.empty()) return why;
    if (comm.nranks < 2) return "a tree needs at least 2 ranks";
    return "";
  }

  Schedule build_logged(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt,
                        ChunkLog* log) const override {
    const int C = opt.channels;
    if (!log && use_steady_state(tree_step_transfers(comm, call, C))) return steady_tree(*this, comm, call, opt);
    Schedule s("tree", comm.nranks, C, opt.proto);
    apply_latencies(s, opt.proto);
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
          // Tree t on NCCL's channel c + t C (engine/transfer_routes.hpp: its own connections).
          tree_allreduce(e, comm, members, parent, none, c + t * C, b, std::span<const Chunk>(&what, 1), pipe);
        }
      }
    }
    return s;
  }
};

}  // namespace

std::unique_ptr<Algorithm> make_tree() { return std::make_unique<Tree>(); }

}  // namespace gf
