// Steady-state ring (see collective/steady_state.hpp): one transfer per (ring edge, channel) carrying what
// ring.cpp's steps put on that edge, Transfer::steps = the step count.
//
// What position i of a ring of n sends, summed over ring.cpp's steps (per channel of P bytes,
// piece(P, n, p) the p-th of n near-equal pieces):
//  - AllReduce: steps k = 0..n-2 send pieces (i-k-1) mod n, every piece but i: P - piece(i),
//    reduced on arrival; steps n-1..2n-3 every piece but (i+1) mod n: P - piece(i+1). In all
//    2(n-1)/n x P up to rounding, over 2(n-1) steps.
//  - ReduceScatter: blocks of ranks order[(i-k-1) mod n], k = 0..n-2: all but order[i]'s; reduced.
//  - AllGather: blocks of order[(i-k) mod n], k = 0..n-2: all but order[(i+1) mod n]'s.
//  - Broadcast / Reduce: every hop of the chain carries the whole channel, pipelined in K chunks
//    over n-1 hops: n-1 + K-1 steps.
#include "collective/algorithms/patterns.hpp"
#include "collective/algorithms/steady_forms.hpp"
#include "collective/nccl_constants.hpp"

namespace gf {

Schedule steady_ring(const Algorithm& a, const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt) {
  const int n = comm.nranks, C = opt.channels;
  std::vector<std::vector<Rank>> orders;
  for (int c = 0; c < C; ++c) orders.push_back(comm.ring(c));
  const int64_t per_channel = call.kind == CollectiveKind::Broadcast || call.kind == CollectiveKind::Reduce ? n - 1 : n;
  const int kept = steady_channels(C, per_channel, [&](int c, int k) { return orders[static_cast<size_t>(c)] == orders[static_cast<size_t>(k)]; });
  Schedule s("ring", n, kept, opt.proto);
  a.apply_latencies(s, opt.proto);
  auto at = [n](int i) { return static_cast<size_t>(((i % n) + n) % n); };
  for (int k = 0; k < kept; ++k) {
    const std::vector<Rank>& order = orders[static_cast<size_t>(k)];
    auto emit = [&](int i, int64_t bytes, int64_t reduced, int steps) {
      Transfer t = make_transfer(order[at(i)], order[at(i + 1)], Bytes(bytes), false, k, 0);
      t.reduce = Bytes(reduced);
      t.steps = steps;
      s.add(t);
    };
    switch (call.kind) {
      case CollectiveKind::AllReduce:
        for (int i = 0; i < n; ++i) {
          int64_t rs = 0, ag = 0;
          for (int c = k; c < C; c += kept) {
            const Bytes P = piece(call.bytes, C, c);
            rs += P.count() - piece(P, n, static_cast<int>(at(i))).count();
            ag += P.count() - piece(P, n, static_cast<int>(at(i + 1))).count();
          }
          emit(i, rs + ag, rs, 2 * (n - 1));
        }
        break;
      case CollectiveKind::ReduceScatter:
      case CollectiveKind::AllGather: {
        const bool rs = call.kind == CollectiveKind::ReduceScatter;
        for (int i = 0; i < n; ++i) {
          const Rank skip = rs ? order[at(i)] : order[at(i + 1)];
          int64_t b = 0;
          for (int c = k; c < C; c += kept) {
            const Bytes P = piece(call.bytes, C, c);
            b += P.count() - piece(P, n, skip).count();
          }
          emit(i, b, rs ? b : 0, n - 1);
        }
        break;
      }
      case CollectiveKind::Broadcast:
      case CollectiveKind::Reduce: {
        const bool reduce = call.kind == CollectiveKind::Reduce;
        int root_at = 0;
        for (int i = 0; i < n; ++i)
          if (order[static_cast<size_t>(i)] == call.root) root_at = i;
        const Bytes P = merged_channel_bytes(call.bytes, C, kept, k);
        const int steps = n - 1 + pipeline_chunks(piece(call.bytes, C, k)) - 1;
        // Broadcast walks forward from the root; Reduce walks toward it, starting after it.
        for (int h = 0; h + 1 < n; ++h)
          emit(reduce ? root_at + 1 + h : root_at + h, P.count(), reduce ? P.count() : 0, steps);
        break;
      }
      default:
        break;
    }
  }
  return s;
}

}  // namespace gf
