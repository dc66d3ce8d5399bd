// Recursive halving and doubling (Rabenseifner's all-reduce; Thakur, Rabenseifner & Gropp,
// "Optimization of Collective Communication Operations in MPICH", IJHPCA 2005, section 4.5; MPICH
// src/mpi/coll/allreduce/allreduce_intra_reduce_scatter_allgather.c).
// On p = 2^k ranks the buffer is cut into p blocks:
//  - reduce-scatter by recursive halving: at step j (mask 2^j, partner r xor 2^j) each rank keeps
//    half of its current window of blocks and sends the partner the other half, which the partner
//    adds into its own; windows halve, so a rank sends S/2 + S/4 + ... + S/p = (p-1)/p x S;
//  - all-gather by recursive doubling: the same exchanges in reverse order, windows doubling.
// In all 2 log2(p) steps and 2(p-1)/p x S per rank, as a ring, but with log instead of linear
// latency. Distance 1 comes first (MPICH's order), so the largest exchanges stay inside a server
// when ranks are numbered server by server.
// Other n (the paper's remedy): with p the largest power of two below n and q = n - p, ranks 2i and
// 2i+1 (i < q) first fold: the even one sends its whole buffer to the odd one, which joins the p
// ranks; at the end the odd one sends the result back. Those q pairs move S more each.
// ReduceScatter and AllGather use one half each and need n a power of two.
#include "collective/algorithms/algorithms.hpp"
#include "collective/algorithms/patterns.hpp"
#include "collective/nccl_constants.hpp"

namespace gf {
namespace {

bool power_of_two(int n) { return n > 0 && (n & (n - 1)) == 0; }

// Window position -> output owner for ReduceScatter/AllGather: after halving with masks 1, 2, ...
// rank r keeps the block whose index is r's bits reversed, so that block is rank r's output.
int bit_reverse(int x, int bits) {
  int y = 0;
  for (int i = 0; i < bits; ++i) y |= ((x >> i) & 1) << (bits - 1 - i);
  return y;
}

class Rhd final : public RunCostedAlgorithm {
 public:
  const AlgorithmTraits& traits() const override {
    static const AlgorithmTraits kTraits{
        "rhd",
        "recursive halving reduce-scatter + recursive doubling all-gather (Rabenseifner), log2(n) steps each",
        "Thakur, Rabenseifner & Gropp, IJHPCA 2005; MPICH allreduce_intra_reduce_scatter_allgather.c",
        {CollectiveKind::AllReduce, CollectiveKind::ReduceScatter, CollectiveKind::AllGather},
        ProtocolSet{Protocol::LL, Protocol::LL128, Protocol::Simple},
        // NCCL has no rhd: it is charged NCCL's Ring figures, the generic per-step costs of its
        // point-to-point steps (an assumption; docs/models.md).
        ring_latencies(),
        AutoChoice::never(),
        InNetwork::None};
    return kTraits;
  }

  std::string unsupported(const Communicator& comm, CollectiveKind kind) const override {
    std::string why = runs_only(traits(), kind, "use ring");
    if (!why.empty()) return why;
    if (comm.nranks < 2) return "rhd needs at least 2 ranks";
    if (kind != CollectiveKind::AllReduce && !power_of_two(comm.nranks))
      return std::string("rhd runs ") + to_string(kind) + " on a power-of-two number of ranks; this communicator has " +
             std::to_string(comm.nranks) + " (use ring or pat)";
    return "";
  }

  Schedule build_logged(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt,
                        ChunkLog* log) const override {
    const int n = comm.nranks;
    Schedule s("rhd", n, opt.channels, opt.proto);
    apply_latencies(s, opt.proto);
    Emitter e(s, log);
    for (int c = 0; c < opt.channels; ++c) build_channel(e, n, call.kind, c, piece(call.bytes, opt.channels, c));
    return s;
  }

 private:
  static void build_channel(Emitter& e, int n, CollectiveKind kind, int c, Bytes bytes) {
    int p = 1, bits = 0;
    while (p * 2 <= n) p *= 2, ++bits;
    const int q = n - p;
    const bool all_reduce = kind == CollectiveKind::AllReduce;
    // The p ranks that run the power-of-two part: the odd one of each folded pair, then the rest.
    auto real = [q](int v) { return v < q ? 2 * v + 1 : v + q; };
    // Block b of the buffer: for AllReduce a piece of S; otherwise the input/output block of the
    // rank whose window it ends up in.
    auto owner = [&](int b) { return real(bit_reverse(b, bits)); };
    auto block = [&](int b) { return all_reduce ? piece(bytes, p, b) : piece(bytes, n, owner(b)); };
    auto chunk = [&](int b) {
      if (kind == CollectiveKind::AllReduce) return Chunk{kEveryRank, kEveryRank, c * p + b, block(b)};
      if (kind == CollectiveKind::ReduceScatter) return Chunk{kEveryRank, owner(b), c, block(b)};
      return Chunk{owner(b), kEveryRank, c, block(b)};
    };
    std::vector<Chunk> all(static_cast<size_t>(p));
    for (int b = 0; b < p; ++b) all[static_cast<size_t>(b)] = chunk(b);

    // Per virtual rank: last send and last receive (a step forwards what the previous brought).
    std::vector<TransferId> sent(static_cast<size_t>(p), -1), got(static_cast<size_t>(p), -1);
    int step = 0;
    if (all_reduce)  // fold: 2i -> 2i+1, the whole buffer, reduced
      for (int v = 0; v < q; ++v)
        got[static_cast<size_t>(v)] = e.add(make_transfer(2 * v, 2 * v + 1, bytes, true, c, step), {}, all);
    if (all_reduce && q > 0) ++step;

    // Window [lo, lo + len) of blocks each virtual rank is responsible for.
    std::vector<int> lo(static_cast<size_t>(p), 0);
    int len = p;
    std::vector<Chunk> carried;
    std::vector<TransferId> deps;
    auto exchange = [&](int mask, bool reduce, bool halving) {
      std::vector<TransferId> got_now(static_cast<size_t>(p), -1);
      std::vector<int> new_lo = lo;
      for (int v = 0; v < p; ++v) {
        const int partner = v ^ mask;
        // Halving: send the half the partner keeps; doubling: send the whole current window.
        int from = lo[static_cast<size_t>(v)], count = len;
        if (halving) {
          count = len / 2;
          const bool keep_low = (v & mask) == 0;
          from = keep_low ? from + count : from;
          new_lo[static_cast<size_t>(v)] = keep_low ? lo[static_cast<size_t>(v)] : lo[static_cast<size_t>(v)] + count;
        } else {
          new_lo[static_cast<size_t>(v)] = std::min(lo[static_cast<size_t>(v)], lo[static_cast<size_t>(partner)]);
        }
        carried.clear();
        int64_t total = 0;
        for (int b = from; b < from + count; ++b) {
          total += block(b).count();
          if (e.logging()) carried.push_back(all[static_cast<size_t>(b)]);
        }
        deps.clear();
        for (TransferId id : {sent[static_cast<size_t>(v)], got[static_cast<size_t>(v)]})
          if (id >= 0) deps.push_back(id);
        TransferId id = e.add(make_transfer(real(v), real(partner), Bytes(total), reduce, c, step), deps, carried);
        sent[static_cast<size_t>(v)] = id;
        got_now[static_cast<size_t>(partner)] = id;
      }
      // A rank's next send also needs what it received now; keep the newest of its receives.
      got = std::move(got_now);
      lo = std::move(new_lo);
      len = halving ? len / 2 : len * 2;
      ++step;
    };

    if (kind != CollectiveKind::AllGather)
      for (int mask = 1; mask < p; mask <<= 1) exchange(mask, true, true);
    if (kind == CollectiveKind::AllGather) {
      // Start where a reduce-scatter would have left off: virtual rank v holds block bitrev(v).
      for (int v = 0; v < p; ++v) lo[static_cast<size_t>(v)] = bit_reverse(v, bits);
      len = 1;
    }
    if (kind != CollectiveKind::ReduceScatter)
      for (int mask = p / 2; mask >= 1; mask >>= 1) exchange(mask, false, false);

    if (all_reduce)  // unfold: 2i+1 -> 2i, the result
      for (int v = 0; v < q; ++v) {
        deps.clear();
        for (TransferId id : {sent[static_cast<size_t>(v)], got[static_cast<size_t>(v)]})
          if (id >= 0) deps.push_back(id);
        e.add(make_transfer(2 * v + 1, 2 * v, bytes, false, c, step), deps, all);
      }
  }
};

}  // namespace

std::unique_ptr<Algorithm> make_rhd() { return std::make_unique<Rhd>(); }

}  // namespace gf
