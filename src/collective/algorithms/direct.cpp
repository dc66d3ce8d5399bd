// Direct all-to-all: every rank sends its block for every other rank at once (NCCL's AllToAll is a
// group of ncclSend/ncclRecv to every peer, NVIDIA/nccl-tests src/alltoall.cu; Thakur, Rabenseifner
// & Gropp, IJHPCA 2005, section 4.6, for the short-message variant). With S the nccl-tests size
// (all n blocks), each rank sends (n-1)/n x S in one step of n-1 concurrent sends; the block a
// rank keeps for itself never leaves it. As in NCCL, each send is split into a few parts on
// channels of its own (collective/p2p_channels.hpp), not over every channel as a collective is.
#include "collective/algorithms/algorithms.hpp"
#include "collective/algorithms/patterns.hpp"
#include "collective/nccl_constants.hpp"
#include "collective/p2p_channels.hpp"

namespace gf {
namespace {

class Direct final : public RunCostedAlgorithm {
 public:
  const AlgorithmTraits& traits() const override {
    static const AlgorithmTraits kTraits{
        "direct",
        "all-to-all with every pair exchanging at once",
        "NVIDIA/nccl-tests src/alltoall.cu (ncclSend/ncclRecv to every peer); Thakur, Rabenseifner & Gropp, IJHPCA 2005",
        {CollectiveKind::AllToAll},
        ProtocolSet{Protocol::LL, Protocol::LL128, Protocol::Simple},
        // NCCL has no direct: it is charged NCCL's Ring figures, the generic per-step costs of its
        // point-to-point steps (an assumption; docs/models.md).
        ring_latencies(),
        AutoChoice::tie_rank(8),
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
    Schedule s("direct", n, opt.channels, opt.proto);
    apply_latencies(s, opt.proto);
    s.set_scale_up_efficiency(kAllToAllScaleUpEfficiency);
    s.set_pxn(library_uses_pxn(comm));  // ncclSend/ncclRecv: NCCL relays to the receiver's rail
    Emitter e(s, log);
    const int parts = p2p_parts_per_peer(comm, opt.channels);
    s.reserve(static_cast<size_t>(n) * static_cast<size_t>(n - 1) * static_cast<size_t>(parts), 0);
    for (Rank src = 0; src < n; ++src)
      for (int round = 1; round < n; ++round) {
        const Rank dst = (src + round) % n;
        const Bytes block = piece(call.bytes, n, dst);  // src's block for dst
        for (int k = 0; k < parts; ++k) {
          const Bytes b = piece(block, parts, k);
          const int c = p2p_channel(round, k, parts, opt.channels);
          e.add(make_transfer(src, dst, b, false, c, 0), {}, {Chunk{src, dst, c, b}});
        }
      }
    return s;
  }
};

}  // namespace

std::unique_ptr<Algorithm> make_direct() { return std::make_unique<Direct>(); }

}  // namespace gf
