// NVLS tree: in-switch reduction inside each server, a double binary tree across servers
// (NVIDIA/nccl src/device/all_reduce.h runNvlsTree; src/transport/nvls.cc connects the trees with
// ncclGetDtree). Every GPU of a server is the head of one slice S/ppn of the buffer:
//  1. NVLS reduce-scatter inside the server: the switch sums slice l over the server's GPUs and
//     hands it to GPU l (a group -> rank transfer);
//  2. the GPUs with local index l on every server all-reduce their slice over two binary trees,
//     half the slice each (reduce up, broadcast down), so server-to-server traffic stays on rail l;
//  3. NVLS multicast inside the server: GPU l stores the result into every GPU of its server.
// Every slice is pipelined in chunks, each edge carrying them in order. Critical path for one
// chunk: 1 + 2 log2(nodes) + 1 steps (NCCL's tuner: base + intraLat + 2 log2(nNodes) x interLat),
// plus one step per further chunk. Per rank: S to the switch, S/ppn up and S/ppn down
// the trees (on 2 servers each of the two trees has one edge), S/ppn multicast.
//
// Simplification: NCCL's NVLS heads are the GPUs next to a NIC, one per NVLS channel; here every
// GPU is a head, which is what an 8-GPU, 8-NIC server such as the DGX H100 gives.
#include "collective/algorithms/algorithms.hpp"
#include "collective/algorithms/patterns.hpp"
#include "collective/algorithms/steady_forms.hpp"
#include "collective/nccl_constants.hpp"

namespace gf {
namespace {

class NvlsTree final : public ChunkedAlgorithm {
 public:
  const AlgorithmTraits& traits() const override {
    static const AlgorithmTraits kTraits{
        "nvlstree",
        "NVSwitch in-switch reduction inside each server, double binary tree across servers",
        "NVIDIA/nccl src/device/all_reduce.h (runNvlsTree), src/transport/nvls.cc",
        {CollectiveKind::AllReduce},
        ProtocolSet{Protocol::Simple},
        // NCCL's NVLSTree row (tuning.cc hwLat[...][NVLSTree]); Simple only, NVLink figure once per call.
        NcclLatencies{{0, 0, 0}, {0, 0, 25.0}, {0, 0, 0}, {0, 0, 20.9}, true},
        AutoChoice::tie_rank(2),
        InNetwork::Nvls};
    return kTraits;
  }

  // NCCL runs NVLS on 16 channels inside an NVSwitch domain (its NVLS channel count on H100 and B200).
  int channels(const Communicator&) const override { return 16; }
  // NCCL's NVLS-tree estimate (tuning.cc): nvls_intra_bw, capped by the network (x2 on two servers, where the two trees
  // split the traffic) and by perChMaxNVLSTreeBws per channel; latency intraLat plus a tree of
  // 2 log2(nodes) network hops.
  std::optional<Time> estimate(const EstimateInput& in, Protocol p, int channels) const override {
    if (p != Protocol::Simple) return std::nullopt;
    const StepLatency l = step_latency(traits().latency, p, in);
    const int nodes = in.nnodes, nch = std::max(1, channels);
    double b = nvls_intra_bw(in, nch);
    if (nodes > 1) b = std::min(b, in.bw_inter * (nodes <= 2 ? 2.0 : 1.0));
    b = std::min(b, nch * nccl_nvlstree_per_channel_bw(in.arch, nodes));
    const double lat = l.base + l.intra + 2 * in.log2_nodes() * l.inter;
    return nccl_time(lat, b * in.ring_factor(), in.bytes);
  }
  int64_t step_transfers(const Communicator& comm, const CollectiveCall& call, int channels) const override {
    return nvlstree_step_transfers(comm, call, channels);
  }
  Schedule build_steady(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt) const override {
    return steady_nvlstree(*this, comm, call, opt);
  }

  std::string unsupported(const Communicator& comm, CollectiveKind kind) const override {
    std::string why = runs_only(traits(), kind, "use ring");
    if (!why.empty()) return why;
    if (comm.nnodes < 2) return "nvlstree joins servers over the network; this communicator has one server (use nvls)";
    if (std::string m = nvls_missing(comm); !m.empty()) return "nvlstree " + m;
    if (comm.one_domain)
      return "nvlstree joins servers over the network; these ranks share one NVLink domain (use nvls)";
    return "";
  }

  Schedule build_logged(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt,
                        ChunkLog* log) const override {
    const int C = opt.channels, ppn = comm.ppn, nodes = comm.nnodes;
    if (!log && use_steady_state(nvlstree_step_transfers(comm, call, C))) return steady_nvlstree(*this, comm, call, opt);
    Schedule s("nvlstree", comm.nranks, C, opt.proto);
    apply_latencies(s, opt.proto);
    // NCCL's nvlsEfficiency (tuning.cc): Hopper 0.85, Blackwell 0.74 of the NVLink bandwidth.
    s.set_in_network_efficiency(nccl_nvls_efficiency(comm.arch));
    Emitter e(s, log);
    std::vector<int32_t> server(static_cast<size_t>(nodes));  // group endpoint of each server's GPUs
    for (int k = 0; k < nodes; ++k) {
      RankGroup g{node_chain(comm, k, 0), ReductionPoint::NvSwitch};
      server[static_cast<size_t>(k)] = group_endpoint(s.add_group(std::move(g)));
    }
    const std::vector<int> trees[2] = {dtree_parents(nodes, 0), dtree_parents(nodes, 1)};
    const int tree_steps = 2 * std::max(tree_height(trees[0]), tree_height(trees[1]));
    std::vector<Rank> heads(static_cast<size_t>(nodes));
    std::vector<TransferId> reduced(static_cast<size_t>(nodes));
    for (int c = 0; c < C; ++c) {
      const Bytes per_channel = piece(call.bytes, C, c);
      for (int l = 0; l < ppn; ++l) {
        for (int k = 0; k < nodes; ++k) heads[static_cast<size_t>(k)] = comm.rank(k, l);
        const Bytes slice = piece(per_channel, ppn, l);
        for (int t = 0; t < 2; ++t) {
          const Bytes half = piece(slice, 2, t);
          const int chunks = pipeline_chunks(half);
          // Chunks go in order on every edge: the switch reductions, the tree, the multicasts.
          TreePipe pipe(static_cast<size_t>(nodes));
          std::vector<TransferId> prev_reduce(static_cast<size_t>(nodes), -1), prev_cast(static_cast<size_t>(nodes), -1);
          for (int j = 0; j < chunks; ++j) {
            const Bytes b = piece(half, chunks, j);
            const Chunk what{kEveryRank, kEveryRank, ((c * ppn + l) * 2 + t) * kPipelineChunks + j, b};
            for (size_t k = 0; k < static_cast<size_t>(nodes); ++k)
              reduced[k] = prev_reduce[k] = e.add(make_transfer(server[k], heads[k], b, false, c, 0),
                                                  with_previous({}, prev_reduce[k]), {what});
            auto holds = tree_allreduce(e, heads, trees[t], reduced, c, b, std::span<const Chunk>(&what, 1), pipe, 1);
            for (size_t k = 0; k < static_cast<size_t>(nodes); ++k)
              prev_cast[k] = e.add(make_transfer(heads[k], server[k], b, false, c, 1 + tree_steps),
                                   with_previous(holds[k], prev_cast[k]), {what});
          }
        }
      }
    }
    return s;
  }
};

}  // namespace

std::unique_ptr<Algorithm> make_nvlstree() { return std::make_unique<NvlsTree>(); }

}  // namespace gf
