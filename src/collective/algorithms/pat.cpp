// PAT, "Parallel Aggregated Trees" (Jeaugey, arXiv:2506.20252, 2025; NVIDIA/nccl
// src/include/collectives.h PatAGAlgorithm / PatRSAlgorithm, used since NCCL 2.23 for AllGather and
// ReduceScatter with one GPU per node). It is the Bruck all-gather (Bruck et al., IEEE TPDS 1997)
// with its dimensions reversed: the far exchanges come first, while they carry little data, and
// the last, largest exchange is with the nearest rank. L = ceil(log2 n) steps.
//
// AllGather, step k = 0..L-1, distance d = 2^(L-1-k): rank s holds the blocks of ranks s+o for
// every o that is a multiple of 2d (o < n); it sends those with o + d < n to rank s-d, for which
// they are the blocks at offset o+d. Each offset 1..n-1 is reached exactly once (its binary
// digits, highest first), so every rank sends and receives (n-1) blocks: (n-1)/n x S, as a ring
// does, but in L steps instead of n-1.
// ReduceScatter is the same exchange transposed: step j = 0..L-1, distance d = 2^j, rank r sends
// to r+d its partial sums of the blocks of ranks r+p for every p < n with p mod 2d = d, which the
// receiver adds into its own; a rank's contribution to block b follows the binary digits of the
// distance to b, lowest first, and arrives exactly once.
//
// Simplification: NCCL bounds the aggregation by its intermediate buffer and splits a large step
// into several; this is the unbounded form (all of a step's blocks in one transfer).
#include "collective/algorithms/algorithms.hpp"
#include "collective/algorithms/patterns.hpp"
#include "collective/nccl_constants.hpp"

namespace gf {
namespace {

int ceil_log2(int n) {
  int l = 0;
  while ((1 << l) < n) ++l;
  return l;
}

class Pat final : public RunCostedAlgorithm {
 public:
  const AlgorithmTraits& traits() const override {
    static const AlgorithmTraits kTraits{
        "pat",
        "Parallel Aggregated Trees: Bruck-like AllGather/ReduceScatter in log2(n) steps, one GPU per node",
        "Jeaugey, PAT, arXiv:2506.20252 (2025); NVIDIA/nccl src/include/collectives.h (PatAGAlgorithm, PatRSAlgorithm)",
        {CollectiveKind::AllGather, CollectiveKind::ReduceScatter},
        ProtocolSet{Protocol::LL, Protocol::LL128, Protocol::Simple},
        // NCCL's PAT row (tuning.cc baseLat 8.0, hwLat[...][PAT]).
        NcclLatencies{{8.0, 8.0, 8.0}, {0, 0, 4.0}, {0, 0, 4.0}, {0, 0, 14.0}, false},
        AutoChoice::tie_rank(7),
        InNetwork::None};
    return kTraits;
  }

  std::string unsupported(const Communicator& comm, CollectiveKind kind) const override {
    std::string why = runs_only(traits(), kind, "use ring");
    if (!why.empty()) return why;
    if (comm.ppn != 1)
      return "pat runs AllGather/ReduceScatter with one GPU per node; this communicator has " + std::to_string(comm.ppn) +
             " per node (use ring, or --gpus-per-node 1)";
    if (comm.nranks < 2) return "pat needs at least 2 ranks";
    return "";
  }

  Schedule build_logged(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt,
                        ChunkLog* log) const override {
    const int n = comm.nranks, C = opt.channels, L = ceil_log2(n);
    const bool gather = call.kind == CollectiveKind::AllGather;
    Schedule s("pat", n, C, opt.proto);
    apply_latencies(s, opt.proto);
    Emitter e(s, log);
    std::vector<Chunk> carried;
    std::vector<TransferId> deps;
    for (int c = 0; c < C; ++c) {
      const Bytes per_channel = piece(call.bytes, C, c);
      // Last send from and last receive into each rank: a step forwards what earlier steps brought.
      std::vector<TransferId> sent(static_cast<size_t>(n), -1), got(static_cast<size_t>(n), -1);
      for (int k = 0; k < L; ++k) {
        const int d = gather ? 1 << (L - 1 - k) : 1 << k;
        std::vector<TransferId> got_now(static_cast<size_t>(n), -1);
        for (Rank r = 0; r < n; ++r) {
          carried.clear();
          int64_t bytes = 0;
          // Offsets (relative to r) of the blocks this step carries.
          for (int o = gather ? 0 : d; o < n; o += 2 * d) {
            if (gather && o + d >= n) break;
            const Rank block = (r + o) % n;
            const Bytes b = piece(per_channel, n, block);
            bytes += b.count();
            if (e.logging()) carried.push_back(gather ? Chunk{block, kEveryRank, c, b} : Chunk{kEveryRank, block, c, b});
          }
          const Rank to = gather ? (r - d + n) % n : (r + d) % n;
          deps.clear();
          for (TransferId id : {sent[static_cast<size_t>(r)], got[static_cast<size_t>(r)]})
            if (id >= 0) deps.push_back(id);
          TransferId id = e.add(make_transfer(r, to, Bytes(bytes), !gather, c, k), deps, carried);
          sent[static_cast<size_t>(r)] = id;
          got_now[static_cast<size_t>(to)] = id;
        }
        got = std::move(got_now);
      }
    }
    return s;
  }
};

}  // namespace

std::unique_ptr<Algorithm> make_pat() { return std::make_unique<Pat>(); }

}  // namespace gf
