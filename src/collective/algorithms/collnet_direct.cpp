// CollNet Direct: in-network reduction in the InfiniBand switches (SHARP), with the server's GPUs
// talking to each other directly over NVSwitch (NVIDIA/nccl src/device/all_reduce.h,
// NCCL_ALGO_COLLNET_DIRECT: scatter, reduce, send to network, receive, broadcast; Graham et al.,
// "Scalable Hierarchical Aggregation Protocol (SHArP)", COMHPC 2016). Every GPU heads one slice
// S/ppn of the buffer:
//  1. every other GPU of its server sends it its slice, which it reduces (ppn-1 transfers);
//  2. the heads of slice l on every server hand their partial sums to the fabric, whose switches
//     add them and multicast the total back (one group -> same group transfer);
//  3. the head copies the result to every other GPU of its server.
// Three steps whatever the size of the job (each slice is pipelined in chunks, each edge carrying
// them in order, later chunks hiding their latency inside a server: patterns.hpp add_chunk); per GPU, only S/ppn crosses the network each way
// (ring: about 2S/ppn).
#include "collective/algorithms/algorithms.hpp"
#include "collective/algorithms/patterns.hpp"
#include "collective/algorithms/steady_forms.hpp"
#include "collective/nccl_constants.hpp"

namespace gf {
namespace {

class CollNetDirect final : public ChunkedAlgorithm {
 public:
  const AlgorithmTraits& traits() const override {
    static const AlgorithmTraits kTraits{
        "collnet_direct",
        "SHARP in-network reduction across servers; each GPU heads a slice, exchanged directly over NVSwitch",
        "NVIDIA/nccl src/device/all_reduce.h (NCCL_ALGO_COLLNET_DIRECT); Graham et al., SHArP, COMHPC 2016",
        {CollectiveKind::AllReduce},
        ProtocolSet{Protocol::Simple},
        // NCCL's CollNetDirect row (tuning.cc hwLat[...][CollNetDirect]); Simple only.
        NcclLatencies{{0, 0, 0}, {0, 0, 3.7}, {0, 0, 3.7}, {0, 0, 31.0}, false},
        AutoChoice::tie_rank(3),
        InNetwork::CollNet};
    return kTraits;
  }

  int channels(const Communicator& comm) const override { return nccl_search_channels(comm); }
  // NCCL's CollNetDirect estimate (tuning.cc): bwIntra, x0.85 on Hopper and later, halved for the
  // two directions. (NCCL's GPU-per-NIC factor is left out: one NIC per GPU makes it 1 on DGX servers.)
  std::optional<Time> estimate(const EstimateInput& in, Protocol p, int) const override {
    if (!in.all_reduce() || p != Protocol::Simple) return std::nullopt;
    const StepLatency l = step_latency(traits().latency, p, in);
    double b = in.bw_intra;
    if (in.arch == "hopper" || in.arch == "blackwell") b *= 0.85;
    const double lat = l.base + 2 * (std::min(1, in.ppn - 1) * l.intra + (in.ppn - 1) * 0.4) + l.inter;
    return nccl_time(lat, b * 0.5, in.bytes);
  }
  int64_t step_transfers(const Communicator& comm, const CollectiveCall& call, int channels) const override {
    return collnet_direct_step_transfers(comm, call, channels);
  }
  Schedule build_steady(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt) const override {
    return steady_collnet_direct(*this, comm, call, opt);
  }

  std::string unsupported(const Communicator& comm, CollectiveKind kind) const override {
    std::string why = runs_only(traits(), kind, "use ring");
    if (!why.empty()) return why;
    if (std::string m = collnet_missing(comm); !m.empty()) return m;
    // NCCL enables CollNetDirect only where every GPU reaches every other through NVSwitch.
    if (comm.ppn > 1 && !comm.nvswitch)
      return "collnet_direct needs NVSwitch inside the server (every GPU sends straight to every other); use collnet_chain";
    return "";
  }

  Schedule build_logged(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt,
                        ChunkLog* log) const override {
    const int C = opt.channels, ppn = comm.ppn, nodes = comm.nnodes;
    if (!log && use_steady_state(collnet_direct_step_transfers(comm, call, C)))
      return steady_collnet_direct(*this, comm, call, opt);
    Schedule s("collnet_direct", comm.nranks, C, opt.proto);
    apply_latencies(s, opt.proto);
    Emitter e(s, log);
    std::vector<int32_t> rail(static_cast<size_t>(ppn));  // heads of slice l on every server
    for (int l = 0; l < ppn; ++l) {
      RankGroup g;
      g.where = ReductionPoint::NetworkSwitch;
      for (int k = 0; k < nodes; ++k) g.ranks.push_back(comm.rank(k, l));
      rail[static_cast<size_t>(l)] = group_endpoint(s.add_group(std::move(g)));
    }
    std::vector<TransferId> gathered;
    for (int c = 0; c < C; ++c) {
      const Bytes per_channel = piece(call.bytes, C, c);
      for (int l = 0; l < ppn; ++l) {
        const Bytes slice = piece(per_channel, ppn, l);
        const int chunks = pipeline_chunks(slice);
        // Chunks go in order on every edge: per rank its scatter and its broadcast, and the network.
        std::vector<TransferId> prev_scatter(static_cast<size_t>(comm.nranks), -1), prev_bcast(static_cast<size_t>(comm.nranks), -1);
        TransferId prev_net = -1;
        const int32_t g = rail[static_cast<size_t>(l)];
        const int net_step = ppn > 1 ? 1 : 0;
        for (int j = 0; j < chunks; ++j) {
          const Bytes b = piece(slice, chunks, j);
          const Chunk what{kEveryRank, kEveryRank, (c * ppn + l) * kPipelineChunks + j, b};
          gathered.clear();
          for (int k = 0; k < nodes; ++k)
            for (int m = 0; m < ppn; ++m) {
              if (m == l) continue;
              auto from = static_cast<size_t>(comm.rank(k, m));
              prev_scatter[from] = add_chunk(e, comm, make_transfer(comm.rank(k, m), comm.rank(k, l), b, true, c, 0), {},
                                             prev_scatter[from], what);
              gathered.push_back(prev_scatter[from]);
            }
          prev_net = add_chunk(e, comm, make_transfer(g, g, b, false, c, net_step), gathered, prev_net, what);
          for (int k = 0; k < nodes; ++k)
            for (int m = 0; m < ppn; ++m) {
              if (m == l) continue;
              auto to = static_cast<size_t>(comm.rank(k, m));
              prev_bcast[to] = add_chunk(e, comm, make_transfer(comm.rank(k, l), comm.rank(k, m), b, false, c, net_step + 1),
                                         {prev_net}, prev_bcast[to], what);
            }
        }
      }
    }
    return s;
  }
};

}  // namespace

std::unique_ptr<Algorithm> make_collnet_direct() { return std::make_unique<CollNetDirect>(); }

}  // namespace gf
