// Ring, as NCCL runs it (NVIDIA/nccl src/device/all_reduce.h runRing; the classic bandwidth-optimal
// ring of Patarasuk and Yuan, JPDC 2009). Each channel c takes 1/C of the data around its own ring
// order (Communicator::ring). With n ranks and S bytes per rank on a channel:
//  - AllReduce: reduce-scatter then all-gather, 2(n-1) steps of S/n: each step's send from rank r
//    waits for what r received in the previous step. Per rank: 2(n-1)/n x S sent.
//  - ReduceScatter / AllGather: the n-1 steps of one half; S/n per step (S = nccl-tests size).
//  - Broadcast / Reduce: a chain from (to) the root, pipelined in n-1 hops of the whole buffer
//    split into chunks (NCCL pipelines by chunk; modelled here as one transfer per hop per chunk,
//    each hop carrying the chunks in order): n-1 + chunks-1 steps.
// Which piece moves when: ring position i sends at step k the piece that belongs to position
// (i-k-1) mod n (runRing's first send is chunk ringIx-1), so after the n-1 reduce-scatter steps
// position j holds piece j fully reduced, and the all-gather steps (the same formula continued)
// hand it on around the ring.
#include "collective/algorithms/algorithms.hpp"
#include "collective/algorithms/patterns.hpp"
#include "collective/algorithms/steady_forms.hpp"
#include "collective/nccl_constants.hpp"

namespace gf {
namespace {

class Ring final : public ChunkedAlgorithm {
 public:
  const AlgorithmTraits& traits() const override {
    static const AlgorithmTraits kTraits{
        "ring",
        "ring over NCCL-style channels: NVLink inside a server, rail to rail across servers",
        "NVIDIA/nccl src/device/all_reduce.h (runRing); Patarasuk & Yuan, JPDC 2009",
        {CollectiveKind::AllReduce, CollectiveKind::ReduceScatter, CollectiveKind::AllGather, CollectiveKind::Broadcast, CollectiveKind::Reduce},
        ProtocolSet{Protocol::LL, Protocol::LL128, Protocol::Simple},
        // NCCL's Ring row (ring_latencies(), below).
        ring_latencies(),
        AutoChoice::tie_rank(5),
        InNetwork::None};
    return kTraits;
  }

  int channels(const Communicator& comm) const override { return nccl_search_channels(comm); }
  // NCCL's ring estimate (tuning.cc): per-step latency by hop class, NCCL_NET_OVERHEAD (1 us, the
  // x86 Intel default, tripled for Simple) bounding an intra step from below, and NCCL's x1.4
  // "plateau effect" for Simple all-reduce across servers; LL at half the bus bandwidth up to
  // llMaxBws, LL128 at 0.92 of it up to perChMaxRingLL128Bws per channel.
  std::optional<Time> estimate(const EstimateInput& in, Protocol p, int channels) const override {
    const bool ar = in.all_reduce();
    if (!(ar || in.kind == CollectiveKind::AllGather || in.kind == CollectiveKind::ReduceScatter)) return std::nullopt;
    const StepLatency l = step_latency(traits().latency, p, in);
    const int nodes = in.nnodes, nch = std::max(1, channels);
    const double net_overhead = nodes > 1 ? (p == Protocol::Simple ? 3.0 : 1.0) : 0.0;
    const int inter_steps = nodes > 1 ? (ar ? 2 * (nodes - 1) : nodes - 1) : 0;
    double lat = (in.nsteps() - inter_steps) * std::max(l.intra, net_overhead) + inter_steps * l.inter;
    if (p == Protocol::Simple && nodes > 1 && ar) lat *= 1.4;
    lat += l.base;
    const double bus = in.bus();
    double b = bus;
    if (p == Protocol::LL) b = std::min(nccl_ll_max_bw(in.arch, nodes), 0.5 * bus);
    if (p == Protocol::LL128) b = std::min(0.92 * bus, nch * nccl_ring_ll128_per_channel_bw(in.arch));
    return nccl_time(lat, b * in.ring_factor(), in.bytes);
  }
  int64_t step_transfers(const Communicator& comm, const CollectiveCall& call, int channels) const override {
    return ring_step_transfers(comm, call, channels);
  }
  Schedule build_steady(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt) const override {
    return steady_ring(*this, comm, call, opt);
  }

  std::string unsupported(const Communicator& comm, CollectiveKind kind) const override {
    if (kind == CollectiveKind::AllToAll || kind == CollectiveKind::SendRecv)
      return std::string("ring does not run ") + to_string(kind) + "; use direct or pairwise";
    if (comm.nranks < 2) return "a ring needs at least 2 ranks";
    return "";
  }

  Schedule build_logged(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt,
                        ChunkLog* log) const override {
    const int n = comm.nranks, C = opt.channels;
    if (!log && use_steady_state(ring_step_transfers(comm, call, C))) return steady_ring(*this, comm, call, opt);
    Schedule s("ring", n, C, opt.proto);
    apply_latencies(s, opt.proto);
    Emitter e(s, log);
    auto at = [n](int i) { return static_cast<size_t>(((i % n) + n) % n); };
    for (int c = 0; c < C; ++c) {
      const std::vector<Rank> order = comm.ring(c);
      const Bytes per_channel = piece(call.bytes, C, c);
      switch (call.kind) {
        case CollectiveKind::AllReduce:
          // Pieces are numbered by ring position; every rank contributes to and ends with each.
          ring_steps(e, order, c, 2 * (n - 1), n - 1, {}, [&](int i, int k, std::vector<Chunk>* out) {
            int p = static_cast<int>(at(i - k - 1));
            Bytes b = piece(per_channel, n, p);
            if (out) out->push_back({kEveryRank, kEveryRank, c * n + p, b});
            return b;
          });
          break;
        case CollectiveKind::ReduceScatter:
          // Rank d's output is block d of the input (nccl-tests), reduced over every rank.
          ring_steps(e, order, c, n - 1, n - 1, {}, [&](int i, int k, std::vector<Chunk>* out) {
            Rank d = order[at(i - k - 1)];
            Bytes b = piece(per_channel, n, d);
            if (out) out->push_back({kEveryRank, d, c, b});
            return b;
          });
          break;
        case CollectiveKind::AllGather:
          // Position i first sends its own block, then forwards what it received.
          ring_steps(e, order, c, n - 1, 0, {}, [&](int i, int k, std::vector<Chunk>* out) {
            Rank o = order[at(i - k)];
            Bytes b = piece(per_channel, n, o);
            if (out) out->push_back({o, kEveryRank, c, b});
            return b;
          });
          break;
        case CollectiveKind::Broadcast:
        case CollectiveKind::Reduce:
          add_chain(e, comm, order, c, per_channel, call.root, call.kind == CollectiveKind::Reduce);
          break;
        default:
          break;
      }
    }
    return s;
  }

 private:
  // A pipelined chain: the root's data (or, for Reduce, every rank's contribution toward the
  // root) moves hop by hop in pipeline chunks; chunk j of hop h waits for chunk j of hop h-1 and,
  // since a channel sends its chunks in order, for chunk j-1 of hop h (add_chunk: inside a server
  // its latency overlaps that chunk's).
  static void add_chain(Emitter& e, const Communicator& comm, const std::vector<Rank>& order, int c, Bytes bytes, int root, bool reduce) {
    const int n = static_cast<int>(order.size());
    int at = 0;
    for (int i = 0; i < n; ++i)
      if (order[static_cast<size_t>(i)] == root) at = i;
    // Broadcast walks forward from the root; Reduce walks toward it (starting after it).
    std::vector<Rank> chain;
    for (int i = 0; i < n; ++i)
      chain.push_back(reduce ? order[static_cast<size_t>((at + 1 + i) % n)] : order[static_cast<size_t>((at + i) % n)]);
    const int chunks = pipeline_chunks(bytes);
    std::vector<TransferId> prev(static_cast<size_t>(chunks), -1);  // chunk j's last hop
    for (int h = 0; h + 1 < n; ++h) {
      TransferId before = -1;  // chunk j-1 on this hop
      for (int j = 0; j < chunks; ++j) {
        Bytes b = piece(bytes, chunks, j);
        Chunk what = reduce ? Chunk{kEveryRank, root, c * kPipelineChunks + j, b}
                            : Chunk{root, kEveryRank, c * kPipelineChunks + j, b};
        Transfer t = make_transfer(chain[static_cast<size_t>(h)], chain[static_cast<size_t>(h + 1)], b, reduce, c, h);
        std::vector<TransferId> deps;
        if (prev[static_cast<size_t>(j)] >= 0) deps.push_back(prev[static_cast<size_t>(j)]);
        prev[static_cast<size_t>(j)] = before = add_chunk(e, comm, t, std::move(deps), before, what);
      }
    }
  }
};

}  // namespace

const NcclLatencies& ring_latencies() {
  // NCCL's Ring row (tuning.cc): base LL 6.6, LL128 14.0, Simple 8.4 us; per step NVLink
  // 0.6/1.9/3.4, PCI 1.0/2.5/5.7, NET 2.7/4.0/14.0 us.
  static const NcclLatencies kRing{{6.6, 14.0, 8.4}, {0.6, 1.9, 3.4}, {1.0, 2.5, 5.7}, {2.7, 4.0, 14.0}, false};
  return kRing;
}

std::unique_ptr<Algorithm> make_ring() { return std::make_unique<Ring>(); }

}  // namespace gf
