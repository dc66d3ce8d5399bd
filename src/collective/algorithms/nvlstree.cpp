// NVLS tree: in-switch reduction inside each server, a double binary tree across servers
// (NVIDIA/nccl src/device/all_reduce.h runNvlsTree; src/transport/nvls.cc connects the trees with
// ncclGetDtree). A server has H = min(ppn, 32) heads (steady_forms.hpp: NCCL's heads are one
// GPU:NIC pair per NVLS search channel, at most NCCL_MAX_NVLS_ARITY), and head j owns a slice S/H:
//  1. NVLS reduce-scatter inside the server: the switch sums slice j over the server's GPUs and
//     hands it to head j (a group -> rank transfer);
//  2. head j of every server all-reduces its slice over two binary trees, half the slice each
//     (reduce up, broadcast down), so server-to-server traffic stays on head j's rail;
//  3. NVLS multicast inside the server: head j stores the result into every GPU of its server.
// Every slice is pipelined in chunks, each edge carrying them in order. Critical path for one
// chunk: 1 + 2 log2(nodes) + 1 steps (NCCL's tuner: base + intraLat + 2 log2(nNodes) x interLat),
// later chunks hide their latency on the in-switch stages and pay it on the tree's network edges
// (add_chunk). Per rank: S to the switch; per head S/H more from the switch and
// S/H multicast, and over its NIC S/H each way on 2 servers (each tree has one edge) or 2 S/H past
// 2 servers (a head is inner node of one tree, with two children, and leaf of the other), which is
// NCCL's "interBw x 2 on 2 nodes" (tuning.cc). On an 8-GPU, 8-NIC server (DGX H100) every GPU is a
// head; on a 64- or 72-GPU NVL72 rack 32 of them are, and their NICs do not bind (S/32 each way
// on two racks, at most 1.5 S/32 past two).
//
// The step-by-step form caps a slice at kPipelineChunks chunks, so its pipeline fill and drain
// (1 + 2 log2(nodes) + 1 stages over at most 8 chunks) costs up to 1.6x in bandwidth on 4 servers.
// NCCL cuts a slice into 128 KiB NVLS chunks (src/transport/nvls.cc NCCL_NVLS_CHUNKSIZE), so once
// a half-slice holds more than 8 of them the step-by-step fill is far larger than NCCL's; from
// there on the steady form times it, charging the fill of NCCL's own chunk count (steady_tree.cpp),
// which keeps the rate monotonic in the node count. The step-by-step form stays what the checker
// proves.
#include "collective/algorithms/algorithms.hpp"
#include "collective/algorithms/patterns.hpp"
#include "collective/algorithms/steady_forms.hpp"
#include "collective/nccl_constants.hpp"
#include "collective/nvls_switch_rate.hpp"

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
  int channels(const Communicator&) const override { return kNvlsChannels; }
  // NCCL's NVLS-tree estimate (tuning.cc): nvls_intra_bw, capped by the network (x2 on two servers, where the two trees
  // split the traffic) and by perChMaxNVLSTreeBws per channel; latency intraLat plus a tree of
  // 2 log2(nodes) network hops. The cap is taken per CUDA channel: counted per head, as NCCL's NVLS
  // graph has it, it moves NCCL's choice at 1-2 MiB to tree/LL128, whose network edges here still
  // pay a latency per chunk (docs/journal.md, 2026-11-27), so it waits for that.
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
    const int C = opt.channels, nodes = comm.nnodes, H = nvls_tree_heads(comm);
    const bool long_pipeline = piece(piece(piece(call.bytes, C, 0), H, 0), 2, 0).count() > kPipelineChunks * kNvlsChunkBytes;
    if (!log && (long_pipeline || use_steady_state(nvlstree_step_transfers(comm, call, C))))
      return steady_nvlstree(*this, comm, call, opt);
    Schedule s("nvlstree", comm.nranks, C, opt.proto);
    apply_latencies(s, opt.proto);
    // NCCL's nvlsEfficiency (tuning.cc: Hopper 0.85, Blackwell 0.74 of the NVLink bandwidth), held
    // to the per-GPU NVLS rate (nvls_switch_rate.hpp): a head moves S + S/H.
    s.set_in_network_efficiency(nvls_switch_efficiency(comm.arch, H));
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
      for (int l = 0; l < H; ++l) {
        for (int k = 0; k < nodes; ++k) heads[static_cast<size_t>(k)] = comm.rank(k, nvls_tree_head(comm, H, l));
        const Bytes slice = piece(per_channel, H, l);
        for (int t = 0; t < 2; ++t) {
          const Bytes half = piece(slice, 2, t);
          const int chunks = pipeline_chunks(half);
          // Chunks go in order on every edge: the switch reductions, the tree, the multicasts.
          TreePipe pipe(static_cast<size_t>(nodes));
          std::vector<TransferId> prev_reduce(static_cast<size_t>(nodes), -1), prev_cast(static_cast<size_t>(nodes), -1);
          // Tree t on NCCL channels of its own (connectNvls: tree c % 2 on channel c), labelled c + t C
          // here: its switch, tree and multicast steps are connections of their own
          // (engine/transfer_routes.hpp), routed as channel c.
          const int ch = c + t * C;
          for (int j = 0; j < chunks; ++j) {
            const Bytes b = piece(half, chunks, j);
            const Chunk what{kEveryRank, kEveryRank, ((c * H + l) * 2 + t) * kPipelineChunks + j, b};
            for (size_t k = 0; k < static_cast<size_t>(nodes); ++k)
              reduced[k] = prev_reduce[k] = add_chunk(e, comm, make_transfer(server[k], heads[k], b, false, ch, 0), {},
                                                      prev_reduce[k], what);
            auto holds = tree_allreduce(e, comm, heads, trees[t], reduced, ch, b, std::span<const Chunk>(&what, 1), pipe, 1);
            for (size_t k = 0; k < static_cast<size_t>(nodes); ++k)
              prev_cast[k] = add_chunk(e, comm, make_transfer(heads[k], server[k], b, false, ch, 1 + tree_steps), holds[k],
                                       prev_cast[k], what);
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
