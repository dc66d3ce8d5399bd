// NVLS: reduction inside the NVSwitch chips (NVLink SHARP), as NCCL runs it within one NVLink
// domain (NVIDIA/nccl src/device/all_reduce.h, NCCL_ALGO_NVLS; NVIDIA H100 architecture white
// paper, "NVLink SHARP"). Every rank owns a slice S/n of the buffer:
//  - reduce-scatter: rank p issues a multimem load-reduce on its slice: the switch reads the slice
//    from every member, adds them and returns one copy to p (a group -> rank transfer);
//  - all-gather: rank p stores its slice to the multicast address: the switch writes it into every
//    member (a rank -> group transfer).
// AllReduce is both, each slice pipelined in chunks so the two overlap (NCCL's tuner counts them as
// "two pipelined ops"). Per rank, AllReduce puts S (its share of every load-reduce) + S/n (its
// multicast) on its NVLinks and takes back S/n + S, in 2 steps per chunk whatever n is.
// NCCL's AllReduce slices belong to its NVLS heads (nvls.nHeads, one per NVLS graph channel, the
// same heads as NVLS-tree: nvls_tree_heads), so on a domain of more GPUs than heads (an NVL72
// rack: 32 of 64 or 72) a head carries S + S/H each way and the other GPUs S. Chunks are NCCL's
// (nccl_nvls_chunk_bytes, 16-128 KiB), at most kNvlsMaxChunks a slice.
#include <algorithm>

#include "collective/algorithms/algorithms.hpp"
#include "collective/algorithms/patterns.hpp"
#include "collective/algorithms/steady_forms.hpp"
#include "collective/nccl_constants.hpp"
#include "collective/nccl_pipeline.hpp"
#include "collective/nvls_switch_rate.hpp"

namespace gf {
namespace {

// At most this many chunks a slice: past it (K + 1) / K is within 0.8 % of NCCL's count (1 GiB
// on 8 GPUs and 16 channels is 64 chunks of 128 KiB), and the schedule stays small.
constexpr int64_t kNvlsMaxChunks = 128;

class Nvls final : public ChunkedAlgorithm {
 public:
  const AlgorithmTraits& traits() const override {
    static const AlgorithmTraits kTraits{
        "nvls",
        "in-switch reduction on NVSwitch (NVLink SHARP) within one NVLink domain",
        "NVIDIA/nccl src/device/all_reduce.h (NCCL_ALGO_NVLS); NVIDIA H100 Tensor Core GPU architecture white paper",
        {CollectiveKind::AllReduce, CollectiveKind::ReduceScatter, CollectiveKind::AllGather},
        ProtocolSet{Protocol::Simple},
        // NCCL's NVLS row (tuning.cc hwLat[...][NVLS]); Simple only, NVLink figure once per call.
        NcclLatencies{{0, 0, 0}, {0, 0, 25.0}, {0, 0, 0}, {0, 0, 18.0}, true},
        AutoChoice::tie_rank(1),
        InNetwork::Nvls};
    return kTraits;
  }

  // NCCL runs NVLS on 16 channels inside an NVSwitch domain (its NVLS channel count on H100 and B200).
  int channels(const Communicator&) const override { return 16; }
  // NCCL's NVLS estimate (tuning.cc): nvls_intra_bw, across servers capped by the network;
  // latency intraLat once, plus interLat across servers.
  std::optional<Time> estimate(const EstimateInput& in, Protocol p, int channels) const override {
    if (p != Protocol::Simple) return std::nullopt;
    const StepLatency l = step_latency(traits().latency, p, in);
    const int nodes = in.nnodes, nch = std::max(1, channels);
    double b = nvls_intra_bw(in, nch);
    if (nodes > 1) b = std::min(b, in.bw_inter);
    const double lat = l.intra + (nodes > 1 ? l.inter : 0);
    return nccl_time(lat, b * in.ring_factor(), in.bytes);
  }
  int64_t step_transfers(const Communicator&, const CollectiveCall&, int) const override { return kNoSteadyForm; }

  std::string unsupported(const Communicator& comm, CollectiveKind kind) const override {
    std::string why = runs_only(traits(), kind, "use ring or direct");
    if (!why.empty()) return why;
    if (comm.nranks < 2) return "nvls needs at least 2 ranks";
    if (std::string m = nvls_missing(comm); !m.empty()) return "nvls " + m;
    if (!comm.one_domain)
      return "nvls reduces inside one NVLink domain; these " + std::to_string(comm.nnodes) +
             " servers are joined by the network (use nvlstree, or collnet where the switches reduce)";
    return "";
  }

  Schedule build_logged(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt,
                        ChunkLog* log) const override {
    const int n = comm.nranks, C = opt.channels;
    Schedule s("nvls", n, C, opt.proto);
    apply_latencies(s, opt.proto);
    Emitter e(s, log);
    RankGroup all;
    for (Rank r = 0; r < n; ++r) all.ranks.push_back(r);
    all.where = ReductionPoint::NvSwitch;
    const int32_t G = group_endpoint(s.add_group(std::move(all)));
    const bool reduce_phase = call.kind != CollectiveKind::AllGather;
    const bool gather_phase = call.kind != CollectiveKind::ReduceScatter;
    const bool all_reduce = call.kind == CollectiveKind::AllReduce;
    // AllReduce slices: one per head (one server or NVLink domain: nnodes == 1 here, whole
    // domains count as one node); ReduceScatter/AllGather blocks: one per rank.
    const int owners = all_reduce && comm.nnodes == 1 ? nvls_tree_heads(comm) : n;
    // NCCL's nvlsEfficiency (tuning.cc: Hopper 0.85, Blackwell 0.74 of the NVLink bandwidth), held
    // to the per-GPU NVLS rate (nvls_switch_rate.hpp): an owner moves S + S/owners.
    s.set_in_network_efficiency(nvls_switch_efficiency(comm.arch, owners));
    const int64_t chunk = nccl_nvls_chunk_bytes(call.bytes.count(), C, owners);
    for (int c = 0; c < C; ++c) {
      const Bytes per_channel = piece(call.bytes, C, c);
      for (int o = 0; o < owners; ++o) {
        const Rank p = owners == n ? o : comm.rank(0, nvls_tree_head(comm, owners, o));
        const Bytes slice = piece(per_channel, owners, o);
        const int chunks = static_cast<int>(std::clamp<int64_t>((slice.count() + chunk - 1) / chunk, 1, kNvlsMaxChunks));
        // A channel works through its chunks in order (NCCL's loop over steps): chunk j's reduce
        // follows chunk j-1's, and its multicast follows both its own reduce and chunk j-1's
        // multicast, so the reduce of one chunk overlaps the multicast of the one before.
        TransferId prev_reduce = -1, prev_gather = -1;
        for (int j = 0; j < chunks; ++j) {
          const Bytes b = piece(slice, chunks, j);
          const auto part = static_cast<int32_t>(c * kNvlsMaxChunks + j);
          // AllReduce: slice o of everyone's buffer; ReduceScatter: rank p's output block;
          // AllGather: rank p's input block.
          const Chunk what = all_reduce                                   ? Chunk{kEveryRank, kEveryRank, static_cast<int32_t>(o * C * kNvlsMaxChunks) + part, b}
                             : call.kind == CollectiveKind::ReduceScatter ? Chunk{kEveryRank, p, part, b}
                                                                          : Chunk{p, kEveryRank, part, b};
          // The switch reduces, so the receiving GPU does not (reduce = 0).
          TransferId reduced = -1;
          if (reduce_phase) {
            std::vector<TransferId> deps;
            if (prev_reduce >= 0) deps.push_back(prev_reduce);
            reduced = prev_reduce = e.add(make_transfer(G, p, b, false, c, 0), deps, {what});
          }
          if (gather_phase) {
            Transfer t = make_transfer(p, G, b, false, c, reduce_phase ? 1 : 0);
            std::vector<TransferId> deps;
            if (reduced >= 0) deps.push_back(reduced);
            if (prev_gather >= 0) deps.push_back(prev_gather);
            prev_gather = e.add(t, deps, {what});
          }
        }
      }
    }
    return s;
  }
};

}  // namespace

double nvls_intra_bw(const EstimateInput& in, int channels) {
  const double eff = nccl_nvls_efficiency(in.arch) * (channels - 1) / channels;
  return in.bw_intra * eff * (in.all_reduce() ? 2.0 : static_cast<double>(in.ppn - 1) / in.ppn);
}

std::unique_ptr<Algorithm> make_nvls() { return std::make_unique<Nvls>(); }

}  // namespace gf
