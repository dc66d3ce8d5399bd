// Send/receive as nccl-tests' sendrecv_perf runs it (NVIDIA/nccl-tests src/sendrecv.cu): every rank
// sends its whole buffer S to rank (r+1) mod n and receives S from (r-1) mod n, all at once. One
// step; per rank S out and S in (busbw = algbw).
#include "collective/algorithms/algorithms.hpp"
#include "collective/algorithms/patterns.hpp"
#include "collective/nccl_constants.hpp"

namespace gf {
namespace {

class SendRecv final : public RunCostedAlgorithm {
 public:
  const AlgorithmTraits& traits() const override {
    static const AlgorithmTraits kTraits{
        "sendrecv",
        "each rank sends its buffer to the next rank, all at once",
        "NVIDIA/nccl-tests src/sendrecv.cu",
        {CollectiveKind::SendRecv},
        ProtocolSet{Protocol::LL, Protocol::LL128, Protocol::Simple},
        // NCCL has no sendrecv: it is charged NCCL's Ring figures, the generic per-step costs of its
        // point-to-point steps (an assumption; docs/models.md).
        ring_latencies(),
        AutoChoice::tie_rank(9),
        InNetwork::None};
    return kTraits;
  }

  std::string unsupported(const Communicator& comm, CollectiveKind kind) const override {
    std::string why = runs_only(traits(), kind, "use ring, direct or pairwise");
    if (!why.empty()) return why;
    if (comm.nranks < 2) return "send/recv needs at least 2 ranks";
    return "";
  }

  Schedule build_logged(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt,
                        ChunkLog* log) const override {
    const int n = comm.nranks;
    Schedule s("sendrecv", n, opt.channels, opt.proto);
    apply_latencies(s, opt.proto);
    s.set_pxn(library_uses_pxn(comm));  // ncclSend/ncclRecv: NCCL relays to the receiver's rail
    Emitter e(s, log);
    for (int c = 0; c < opt.channels; ++c) {
      const Bytes b = piece(call.bytes, opt.channels, c);
      for (Rank r = 0; r < n; ++r) e.add(make_transfer(r, (r + 1) % n, b, false, c, 0), {}, {Chunk{r, (r + 1) % n, c, b}});
    }
    return s;
  }
};

}  // namespace

std::unique_ptr<Algorithm> make_sendrecv() { return std::make_unique<SendRecv>(); }

}  // namespace gf
