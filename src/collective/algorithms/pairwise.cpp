// Pairwise all-to-all: n-1 rounds; in round k = 1..n-1 rank r sends its block for (r+k) mod n and
// receives from (r-k) mod n (Thakur, Rabenseifner & Gropp, IJHPCA 2005, section 4.6, the pairwise
// exchange MPICH uses for long messages). A rank starts round k once it has finished round k-1,
// both its send and its receive, as MPI_Sendrecv does; so each rank has one message in flight
// each way, the rounds are n-1 steps deep, and each rank sends (n-1)/n x S, as direct does.
#include "collective/algorithms/algorithms.hpp"
#include "collective/algorithms/patterns.hpp"
#include "collective/nccl_constants.hpp"

namespace gf {
namespace {

class Pairwise final : public RunCostedAlgorithm {
 public:
  const AlgorithmTraits& traits() const override {
    static const AlgorithmTraits kTraits{
        "pairwise",
        "all-to-all in n-1 rounds, rank r sending to r+k in round k",
        "Thakur, Rabenseifner & Gropp, IJHPCA 2005 (pairwise exchange)",
        {CollectiveKind::AllToAll},
        ProtocolSet{Protocol::LL, Protocol::LL128, Protocol::Simple},
        // NCCL has no pairwise: it is charged NCCL's Ring figures, the generic per-step costs of its
        // point-to-point steps (an assumption; docs/models.md).
        ring_latencies(),
        AutoChoice::never(),
        InNetwork::None};
    return kTraits;
  }

  std::string unsupported(const Communicator& comm, CollectiveKind kind) const override {
    std::string why = runs_only(traits(), kind, "use ring (or sendrecv for send/recv)");
    if (!why.empty()) return why;
    if (comm.nranks < 2) return "an all-to-all needs at least 2 ranks";
    return "";
  }

  Schedule build_logged(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt,
                        ChunkLog* log) const override {
    const int n = comm.nranks;
    Schedule s("pairwise", n, opt.channels, opt.proto);
    apply_latencies(s, opt.proto);
    s.set_scale_up_efficiency(kAllToAllScaleUpEfficiency);
    Emitter e(s, log);
    std::vector<TransferId> deps;
    for (int c = 0; c < opt.channels; ++c) {
      const Bytes per_channel = piece(call.bytes, opt.channels, c);
      std::vector<TransferId> sent(static_cast<size_t>(n), -1), got(static_cast<size_t>(n), -1);
      for (int k = 1; k < n; ++k) {
        std::vector<TransferId> got_now(static_cast<size_t>(n), -1);
        for (Rank r = 0; r < n; ++r) {
          const Rank to = (r + k) % n;
          const Bytes b = piece(per_channel, n, to);
          deps.clear();
          for (TransferId id : {sent[static_cast<size_t>(r)], got[static_cast<size_t>(r)]})
            if (id >= 0) deps.push_back(id);
          TransferId id = e.add(make_transfer(r, to, b, false, c, k - 1), deps, {Chunk{r, to, c, b}});
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

std::unique_ptr<Algorithm> make_pairwise() { return std::make_unique<Pairwise>(); }

}  // namespace gf
