// Steady-state CollNet (see collective/steady_state.hpp): one transfer per edge of the pattern and channel.
//
// CollNet Direct (collnet_direct.cpp): per channel and slice l, every other GPU of a server sends
// GPU l its slice (reduced), the rail-l GPUs' group reduces in the network, and GPU l copies the
// result back: 3 steps (1 on one GPU per server), plus K - 1 network steps (add_chunk).
// CollNet Chain (collnet_chain.cpp): per channel, each server's chain reduces up to its head, the
// heads' group reduces in the network, the result goes back down: 2(ppn-1) + 1 steps, plus K - 1
// network steps (later chunks hide their latency inside a server only: add_chunk).
#include <algorithm>
#include <map>

#include "collective/algorithms/patterns.hpp"
#include "collective/algorithms/steady_forms.hpp"
#include "collective/nccl_constants.hpp"

namespace gf {

namespace {

void add_steady(Schedule& s, int32_t src, int32_t dst, Bytes b, bool reduce, int channel, int steps) {
  Transfer t = make_transfer(src, dst, b, reduce, channel, 0);
  t.steps = steps;
  s.add(t);
}

}  // namespace

Schedule steady_collnet_direct(const Algorithm& a, const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt) {
  const int C = opt.channels, ppn = comm.ppn, nodes = comm.nnodes;
  const int64_t per_channel = static_cast<int64_t>(ppn) * (2 * static_cast<int64_t>(nodes) * (ppn - 1) + 1);
  const int kept = steady_channels(C, per_channel, [](int, int) { return true; });  // same slices on every channel
  Schedule s("collnet_direct", comm.nranks, kept, opt.proto);
  a.apply_latencies(s, opt.proto);
  std::vector<int32_t> rail(static_cast<size_t>(ppn));
  for (int l = 0; l < ppn; ++l) {
    RankGroup g;
    g.where = ReductionPoint::NetworkSwitch;
    for (int k = 0; k < nodes; ++k) g.ranks.push_back(comm.rank(k, l));
    rail[static_cast<size_t>(l)] = group_endpoint(s.add_group(std::move(g)));
  }
  for (int k = 0; k < kept; ++k)
    for (int l = 0; l < ppn; ++l) {
      int64_t slice = 0;
      for (int c = k; c < C; c += kept) slice += piece(piece(call.bytes, C, c), ppn, l).count();
      // Critical path: scatter, network, broadcast, then one network step per further chunk.
      const int chunks = pipeline_chunks(piece(piece(call.bytes, C, k), ppn, l));
      const Time a = intra_step(s, comm), n = inter_step(s);
      const Time path = (ppn > 1 ? a * 2 : Time::zero()) + n * chunks;
      const int intra = steps_for(path, a), inter = steps_for(path, n);
      const Bytes b(slice);
      for (int node = 0; node < nodes; ++node)
        for (int m = 0; m < ppn; ++m)
          if (m != l) add_steady(s, comm.rank(node, m), comm.rank(node, l), b, true, k, intra);
      add_steady(s, rail[static_cast<size_t>(l)], rail[static_cast<size_t>(l)], b, false, k, inter);
      for (int node = 0; node < nodes; ++node)
        for (int m = 0; m < ppn; ++m)
          if (m != l) add_steady(s, comm.rank(node, l), comm.rank(node, m), b, false, k, intra);
    }
  return s;
}

Schedule steady_collnet_chain(const Algorithm& a, const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt) {
  const int C = opt.channels, ppn = comm.ppn, nodes = comm.nnodes;
  const int64_t per_channel = 2 * static_cast<int64_t>(nodes) * (ppn - 1) + 1;
  // node_chain rotates by the channel modulo ppn: channels equal modulo ppn share their chains.
  const int kept = steady_channels(C, per_channel, [ppn](int c, int k) { return c % ppn == k % ppn; });
  Schedule s("collnet_chain", comm.nranks, kept, opt.proto);
  a.apply_latencies(s, opt.proto);
  std::map<int, int32_t> heads_of;  // head's local index -> group of the heads on every server
  for (int k = 0; k < kept; ++k) {
    std::vector<std::vector<Rank>> chain(static_cast<size_t>(nodes));
    for (int node = 0; node < nodes; ++node) chain[static_cast<size_t>(node)] = node_chain(comm, node, k);
    const int head_local = comm.local_of[static_cast<size_t>(chain[0][0])];
    if (!heads_of.count(head_local)) {
      RankGroup g;
      g.where = ReductionPoint::NetworkSwitch;
      for (int node = 0; node < nodes; ++node) g.ranks.push_back(chain[static_cast<size_t>(node)][0]);
      heads_of[head_local] = group_endpoint(s.add_group(std::move(g)));
    }
    const Bytes b = merged_channel_bytes(call.bytes, C, kept, k);
    // Critical path: up the chain, the network, down the chain, one network step per further chunk.
    const int chunks = pipeline_chunks(piece(call.bytes, C, k));
    const Time a = intra_step(s, comm), n = inter_step(s);
    const Time path = a * (2 * (ppn - 1)) + n * chunks;
    const int intra = steps_for(path, a), inter = steps_for(path, n);
    for (const auto& ch : chain)
      for (int i = ppn - 1; i >= 1; --i)
        add_steady(s, ch[static_cast<size_t>(i)], ch[static_cast<size_t>(i - 1)], b, true, k, intra);
    add_steady(s, heads_of[head_local], heads_of[head_local], b, false, k, inter);
    for (const auto& ch : chain)
      for (int i = 0; i + 1 < ppn; ++i)
        add_steady(s, ch[static_cast<size_t>(i)], ch[static_cast<size_t>(i + 1)], b, false, k, intra);
  }
  return s;
}

}  // namespace gf
