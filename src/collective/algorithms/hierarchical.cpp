// Hierarchical (two-level) collectives: rings inside each server over NVLink, rings across servers
// among the GPUs with the same local index (so each crosses the network on its own rail). The
// pattern of Horovod's hierarchical all-reduce and of "2D" rings (Sergeev & Del Balso, arXiv:
// 1802.05799; Ueno & Yokota, CCGRID 2019; Jia et al., "Highly scalable deep learning training system
// with mixed-precision", arXiv:1807.11205). With p = ppn GPUs per server and m servers:
//  - AllReduce: reduce-scatter inside the server (GPU l ends with slice l, S/p, summed over its
//    server), all-reduce of slice l across servers (ring: 2(m-1) steps of S/(pm)), all-gather inside
//    the server. Per rank: 2(p-1)/p x S inside + 2(m-1)/(mp) x S across; (p-1)+2(m-1)+(p-1) steps.
//  - ReduceScatter: inside, GPU l gathers the server's partial sums of the blocks of every GPU l
//    (m blocks); across, a reduce-scatter ring among the GPUs l leaves each its own block.
//  - AllGather: the reverse: an all-gather ring across servers among the GPUs l, then inside the
//    server each GPU passes on its m blocks.
// Phases hand over per rank: a rank's sends in a phase wait for its last send and last receive of
// the previous one (the phases overlap across ranks, as they do when each GPU runs them in order).
#include "collective/algorithms/algorithms.hpp"
#include "collective/algorithms/patterns.hpp"
#include "collective/nccl_constants.hpp"

namespace gf {
namespace {

class Hierarchical final : public RunCostedAlgorithm {
 public:
  const AlgorithmTraits& traits() const override {
    static const AlgorithmTraits kTraits{
        "hierarchical",
        "two-level rings: inside each server over NVLink, across servers among same-index GPUs (one rail each)",
        "Sergeev & Del Balso, Horovod, arXiv:1802.05799; Ueno & Yokota, CCGRID 2019 (2D ring); Jia et al., arXiv:1807.11205",
        {CollectiveKind::AllReduce, CollectiveKind::ReduceScatter, CollectiveKind::AllGather},
        ProtocolSet{Protocol::LL, Protocol::LL128, Protocol::Simple},
        // NCCL has no hierarchical: it is charged NCCL's Ring figures, the generic per-step costs of its
        // point-to-point steps (an assumption; docs/models.md).
        ring_latencies(),
        AutoChoice::never(),
        InNetwork::None};
    return kTraits;
  }

  std::string unsupported(const Communicator& comm, CollectiveKind kind) const override {
    std::string why = runs_only(traits(), kind, "use ring");
    if (!why.empty()) return why;
    if (comm.nranks < 2) return "hierarchical needs at least 2 ranks";
    return "";
  }

  Schedule build_logged(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt,
                        ChunkLog* log) const override {
    Schedule s("hierarchical", comm.nranks, opt.channels, opt.proto);
    apply_latencies(s, opt.proto);
    Emitter e(s, log);
    for (int c = 0; c < opt.channels; ++c) {
      const Bytes per_channel = piece(call.bytes, opt.channels, c);
      Phases ph{e, comm, c, per_channel, std::vector<Handoff>(static_cast<size_t>(comm.nranks))};
      switch (call.kind) {
        case CollectiveKind::AllReduce:
          ph.inside(true, Kind::AllReduce);
          ph.across(Kind::AllReduce);
          ph.inside(false, Kind::AllReduce);
          break;
        case CollectiveKind::ReduceScatter:
          ph.inside(true, Kind::ReduceScatter);
          ph.across(Kind::ReduceScatter);
          break;
        case CollectiveKind::AllGather:
          ph.across(Kind::AllGather);
          ph.inside(false, Kind::AllGather);
          break;
        default:
          break;
      }
    }
    return s;
  }

 private:
  using Kind = CollectiveKind;

  // One channel's phases; `last[r]` is how rank r finished its latest phase (what its next phase
  // waits for).
  struct Phases {
    Emitter& e;
    const Communicator& comm;
    int c;
    Bytes per_channel;
    std::vector<Handoff> last;

    int ppn() const { return comm.ppn; }
    int nodes() const { return comm.nnodes; }

    // Slice l (held by GPU l of each server after the inside reduce-scatter), sub-piece m of it
    // (held by server m's GPU l after the across reduce-scatter), for AllReduce.
    Bytes slice(int l) const { return piece(per_channel, ppn(), l); }
    Bytes sub(int l, int m) const { return piece(slice(l), nodes(), m); }
    // Block of rank r (ReduceScatter output, AllGather input): nccl-tests' per-rank share.
    Bytes block(Rank r) const { return piece(per_channel, comm.nranks, r); }

    // What slice l means as chunks: for AllReduce its sub-pieces; otherwise the blocks of the
    // GPUs l of every server (their outputs or inputs). Returns the total size.
    Bytes slice_chunks(Kind kind, int l, std::vector<Chunk>* out) const {
      int64_t total = 0;
      for (int m = 0; m < nodes(); ++m) {
        const Rank r = comm.rank(m, l);
        const Bytes b = kind == Kind::AllReduce ? sub(l, m) : block(r);
        total += b.count();
        if (!out) continue;
        if (kind == Kind::AllReduce) out->push_back({kEveryRank, kEveryRank, (c * ppn() + l) * nodes() + m, b});
        else if (kind == Kind::ReduceScatter) out->push_back({kEveryRank, r, c, b});
        else out->push_back({r, kEveryRank, c, b});
      }
      return Bytes(total);
    }

    // A ring inside every server: reduce-scatter (ends with GPU l holding slice l) or all-gather
    // (GPU l starts with slice l). Position i sends at step k the slice of position (i-k-1) when
    // reducing, (i-k) when gathering (the ring's usual labelling).
    void inside(bool reduce_scatter, Kind kind) {
      const int p = ppn();
      if (p < 2) return;
      for (int k = 0; k < nodes(); ++k) {
        std::vector<Rank> order = node_chain(comm, k, c);
        std::vector<Handoff> ready;
        for (Rank r : order) ready.push_back(last[static_cast<size_t>(r)]);
        auto done = ring_steps(e, order, c, p - 1, reduce_scatter ? p - 1 : 0, ready,
                               [&](int i, int step, std::vector<Chunk>* out) {
                                 int pos = ((i - step - (reduce_scatter ? 1 : 0)) % p + p) % p;
                                 return slice_chunks(kind, comm.local_of[static_cast<size_t>(order[static_cast<size_t>(pos)])], out);
                               });
        for (size_t i = 0; i < order.size(); ++i) last[static_cast<size_t>(order[i])] = done[i];
      }
    }

    // Rings across servers, one per local index l, over the servers in order.
    void across(Kind kind) {
      const int m = nodes();
      if (m < 2) return;
      const int steps = kind == Kind::AllReduce ? 2 * (m - 1) : m - 1;
      const int reducing = kind == Kind::AllGather ? 0 : m - 1;
      for (int l = 0; l < ppn(); ++l) {
        std::vector<Rank> order;
        std::vector<Handoff> ready;
        for (int k = 0; k < m; ++k) {
          order.push_back(comm.rank(k, l));
          ready.push_back(last[static_cast<size_t>(order.back())]);
        }
        auto done = ring_steps(e, order, c, steps, reducing, ready, [&](int i, int step, std::vector<Chunk>* out) {
          // AllReduce and ReduceScatter send position (i-k-1)'s piece, AllGather position (i-k)'s.
          const int pos = ((i - step - (kind == Kind::AllGather ? 0 : 1)) % m + m) % m;
          const Rank r = order[static_cast<size_t>(pos)];
          const Bytes b = kind == Kind::AllReduce ? sub(l, pos) : block(r);
          if (out) {
            if (kind == Kind::AllReduce) out->push_back({kEveryRank, kEveryRank, (c * ppn() + l) * m + pos, b});
            else if (kind == Kind::ReduceScatter) out->push_back({kEveryRank, r, c, b});
            else out->push_back({r, kEveryRank, c, b});
          }
          return b;
        });
        for (int k = 0; k < m; ++k) last[static_cast<size_t>(order[static_cast<size_t>(k)])] = done[static_cast<size_t>(k)];
      }
    }
  };
};

}  // namespace

std::unique_ptr<Algorithm> make_hierarchical() { return std::make_unique<Hierarchical>(); }

}  // namespace gf
