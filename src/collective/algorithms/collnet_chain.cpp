// CollNet Chain: in-network reduction in the InfiniBand switches (SHARP), with the GPUs of a server
// in a chain (NVIDIA/nccl src/device/all_reduce.h, NCCL_ALGO_COLLNET_CHAIN; Graham et al., SHArP,
// COMHPC 2016). Per channel, each server's chain reduces from its tail up to its head; the heads of
// every server hand their sums to the fabric, whose switches add them and multicast the total back
// (one group -> same group transfer); each head then passes the result back down its chain. The
// data is pipelined in chunks, each edge carrying them in order. Critical path for one chunk:
// 2(ppn-1) chain hops + 1 network step (NCCL's tuner: base + 2(ppn-1) x intraLat + interLat);
// later chunks hide their latency inside a server, not on the network step (patterns.hpp
// add_chunk). Needs no NVSwitch, unlike collnet_direct; channels rotate
// the head (and so the NIC) over the server's GPUs.
#include <map>

#include "collective/algorithms/algorithms.hpp"
#include "collective/algorithms/patterns.hpp"
#include "collective/algorithms/steady_forms.hpp"
#include "collective/nccl_constants.hpp"

namespace gf {
namespace {

class CollNetChain final : public ChunkedAlgorithm {
 public:
  const AlgorithmTraits& traits() const override {
    static const AlgorithmTraits kTraits{
        "collnet_chain",
        "SHARP in-network reduction across servers; a chain inside each server reduces to and broadcasts from its head",
        "NVIDIA/nccl src/device/all_reduce.h (NCCL_ALGO_COLLNET_CHAIN); Graham et al., SHArP, COMHPC 2016",
        {CollectiveKind::AllReduce},
        ProtocolSet{Protocol::Simple},
        // NCCL's CollNetChain row (tuning.cc hwLat[...][CollNetChain]); Simple only.
        NcclLatencies{{0, 0, 0}, {0, 0, 2.8}, {0, 0, 2.8}, {0, 0, 30.0}, false},
        AutoChoice::tie_rank(4),
        InNetwork::CollNet};
    return kTraits;
  }

  int channels(const Communicator& comm) const override { return nccl_search_channels(comm); }
  // NCCL's CollNetChain estimate (tuning.cc): bwIntra halved for the two directions; a chain of
  // ppn-1 intra hops each way plus one network step.
  std::optional<Time> estimate(const EstimateInput& in, Protocol p, int) const override {
    if (!in.all_reduce() || p != Protocol::Simple) return std::nullopt;
    const StepLatency l = step_latency(traits().latency, p, in);
    const double lat = l.base + 2 * (in.ppn - 1) * l.intra + l.inter;
    return nccl_time(lat, in.bw_intra * 0.5, in.bytes);
  }
  int64_t step_transfers(const Communicator& comm, const CollectiveCall& call, int channels) const override {
    return collnet_chain_step_transfers(comm, call, channels);
  }
  Schedule build_steady(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt) const override {
    return steady_collnet_chain(*this, comm, call, opt);
  }

  std::string unsupported(const Communicator& comm, CollectiveKind kind) const override {
    std::string why = runs_only(traits(), kind, "use ring");
    if (!why.empty()) return why;
    return collnet_missing(comm);
  }

  Schedule build_logged(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt,
                        ChunkLog* log) const override {
    const int C = opt.channels, ppn = comm.ppn, nodes = comm.nnodes;
    if (!log && use_steady_state(collnet_chain_step_transfers(comm, call, C)))
      return steady_collnet_chain(*this, comm, call, opt);
    Schedule s("collnet_chain", comm.nranks, C, opt.proto);
    apply_latencies(s, opt.proto);
    Emitter e(s, log);
    std::map<int, int32_t> heads_of;  // head's local index -> group of the heads on every server
    std::vector<std::vector<Rank>> chain(static_cast<size_t>(nodes));
    std::vector<TransferId> into_heads;
    for (int c = 0; c < C; ++c) {
      for (int k = 0; k < nodes; ++k) chain[static_cast<size_t>(k)] = node_chain(comm, k, c);
      const int head_local = comm.local_of[static_cast<size_t>(chain[0][0])];
      if (!heads_of.count(head_local)) {
        RankGroup g;
        g.where = ReductionPoint::NetworkSwitch;
        for (int k = 0; k < nodes; ++k) g.ranks.push_back(chain[static_cast<size_t>(k)][0]);
        heads_of[head_local] = group_endpoint(s.add_group(std::move(g)));
      }
      const int32_t heads = heads_of[head_local];
      const Bytes per_channel = piece(call.bytes, C, c);
      const int chunks = pipeline_chunks(per_channel);
      // Chunks go in order on every edge: per rank its send up and the send down into it, and the
      // network.
      std::vector<TransferId> prev_up(static_cast<size_t>(comm.nranks), -1), prev_down(static_cast<size_t>(comm.nranks), -1);
      TransferId prev_net = -1;
      for (int j = 0; j < chunks; ++j) {
        const Bytes b = piece(per_channel, chunks, j);
        const Chunk what{kEveryRank, kEveryRank, c * kPipelineChunks + j, b};
        into_heads.clear();
        for (const auto& ch : chain) {  // reduce from the tail up to the head
          TransferId prev = -1;
          for (int i = ppn - 1; i >= 1; --i) {
            auto from = static_cast<size_t>(ch[static_cast<size_t>(i)]);
            Transfer t = make_transfer(ch[static_cast<size_t>(i)], ch[static_cast<size_t>(i - 1)], b, true, c, ppn - 1 - i);
            std::vector<TransferId> deps;
            if (prev >= 0) deps.push_back(prev);
            prev = prev_up[from] = add_chunk(e, comm, t, std::move(deps), prev_up[from], what);
          }
          if (prev >= 0) into_heads.push_back(prev);
        }
        prev_net = add_chunk(e, comm, make_transfer(heads, heads, b, false, c, ppn - 1), into_heads, prev_net, what);
        for (const auto& ch : chain) {  // broadcast from the head down to the tail
          TransferId prev = prev_net;
          for (int i = 0; i + 1 < ppn; ++i) {
            auto to = static_cast<size_t>(ch[static_cast<size_t>(i + 1)]);
            Transfer t = make_transfer(ch[static_cast<size_t>(i)], ch[static_cast<size_t>(i + 1)], b, false, c, ppn + i);
            prev = prev_down[to] = add_chunk(e, comm, t, {prev}, prev_down[to], what);
          }
        }
      }
    }
    return s;
  }
};

}  // namespace

std::unique_ptr<Algorithm> make_collnet_chain() { return std::make_unique<CollNetChain>(); }

}  // namespace gf
