// Ring, as NCCL runs it (NVIDIA/nccl src/device/all_reduce.h runRing; the classic bandwidth-optimal
// ring of Patarasuk and Yuan, JPDC 2009). Each channel c takes 1/C of the data around its own ring
// order (Communicator::ring). With n ranks and S bytes per rank on a channel:
//  - AllReduce: reduce-scatter then all-gather, 2(n-1) steps of S/n: each step's send from rank r
//    waits for what r received in the previous step. Per rank: 2(n-1)/n x S sent.
//  - ReduceScatter / AllGather: the n-1 steps of one half; S/n per step (S = nccl-tests size).
//  - Broadcast / Reduce: a chain from (to) the root, pipelined in n-1 hops of the whole buffer
//    split into chunks (NCCL pipelines by chunk; modelled here as one transfer per hop per chunk).
#include "collective/algorithms/algorithms.hpp"
#include "collective/nccl_constants.hpp"

namespace gf {
namespace {

// Chunks a chain broadcast/reduce pipelines over (NCCL_STEPS = 8 slots per connection).
constexpr int kChainChunks = 8;

class Ring final : public Algorithm {
 public:
  std::string name() const override { return "ring"; }
  std::string description() const override {
    return "ring over NCCL-style channels: NVLink inside a server, rail to rail across servers";
  }
  std::string source() const override { return "NVIDIA/nccl src/device/all_reduce.h (runRing); Patarasuk & Yuan, JPDC 2009"; }

  std::string unsupported(const Communicator& comm, CollectiveKind kind) const override {
    if (kind == CollectiveKind::AllToAll || kind == CollectiveKind::SendRecv)
      return std::string("ring does not run ") + to_string(kind) + "; use direct or pairwise";
    if (comm.nranks < 2) return "a ring needs at least 2 ranks";
    return "";
  }

  Schedule build(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt) const override {
    const int n = comm.nranks, C = opt.channels;
    Schedule s("ring", n, C, opt.proto);
    s.set_base_latency(nccl_base_latency("ring", opt.proto));
    for (int c = 0; c < C; ++c) {
      std::vector<Rank> order = comm.ring(c);
      Bytes per_channel = piece(call.bytes, C, c);
      switch (call.kind) {
        case CollectiveKind::AllReduce:
          add_steps(s, order, c, piece_of(per_channel, n), 2 * (n - 1), n - 1);
          break;
        case CollectiveKind::ReduceScatter:
          add_steps(s, order, c, piece_of(per_channel, n), n - 1, n - 1);
          break;
        case CollectiveKind::AllGather:
          add_steps(s, order, c, piece_of(per_channel, n), n - 1, 0);
          break;
        case CollectiveKind::Broadcast:
        case CollectiveKind::Reduce:
          add_chain(s, order, c, per_channel, call.root, call.kind == CollectiveKind::Reduce);
          break;
        default:
          break;
      }
    }
    return s;
  }

 private:
  static Bytes piece_of(Bytes per_channel, int n) { return Bytes((per_channel.count() + n - 1) / n); }

  // `steps` ring steps of `chunk` bytes; the first `reducing` steps reduce on arrival.
  static void add_steps(Schedule& s, const std::vector<Rank>& order, int c, Bytes chunk, int steps, int reducing) {
    const int n = static_cast<int>(order.size());
    std::vector<TransferId> into(static_cast<size_t>(n), -1);  // last transfer into ring position i
    for (int k = 0; k < steps; ++k) {
      std::vector<TransferId> next(static_cast<size_t>(n));
      for (int i = 0; i < n; ++i) {
        Transfer t;
        t.src = order[static_cast<size_t>(i)];
        t.dst = order[static_cast<size_t>((i + 1) % n)];
        t.bytes = chunk;
        t.reduce = k < reducing ? chunk : Bytes(0);
        t.channel = static_cast<int16_t>(c);
        t.step = static_cast<int16_t>(k);
        TransferId prev = into[static_cast<size_t>(i)];
        next[static_cast<size_t>((i + 1) % n)] = prev < 0 ? s.add(t) : s.add(t, {prev});
      }
      into = next;
    }
  }

  // A pipelined chain: the root's data (or, for Reduce, every rank's contribution toward the
  // root) moves hop by hop in kChainChunks chunks; chunk j of hop h waits for chunk j of hop h-1.
  static void add_chain(Schedule& s, const std::vector<Rank>& order, int c, Bytes bytes, int root, bool reduce) {
    const int n = static_cast<int>(order.size());
    int at = 0;
    for (int i = 0; i < n; ++i)
      if (order[static_cast<size_t>(i)] == root) at = i;
    // Broadcast walks forward from the root; Reduce walks toward it (starting after it).
    std::vector<Rank> chain;
    for (int i = 0; i < n; ++i)
      chain.push_back(reduce ? order[static_cast<size_t>((at + 1 + i) % n)] : order[static_cast<size_t>((at + i) % n)]);
    int chunks = static_cast<int>(std::min<int64_t>(kChainChunks, std::max<int64_t>(1, bytes.count())));
    std::vector<TransferId> prev(static_cast<size_t>(chunks), -1);
    for (int h = 0; h + 1 < n; ++h) {
      for (int j = 0; j < chunks; ++j) {
        Transfer t;
        t.src = chain[static_cast<size_t>(h)];
        t.dst = chain[static_cast<size_t>(h + 1)];
        t.bytes = piece(bytes, chunks, j);
        t.reduce = reduce ? t.bytes : Bytes(0);
        t.channel = static_cast<int16_t>(c);
        t.step = static_cast<int16_t>(h);
        TransferId p = prev[static_cast<size_t>(j)];
        prev[static_cast<size_t>(j)] = p < 0 ? s.add(t) : s.add(t, {p});
      }
    }
  }
};

}  // namespace

std::unique_ptr<Algorithm> make_ring() { return std::make_unique<Ring>(); }

}  // namespace gf
