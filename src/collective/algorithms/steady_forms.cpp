// The step-by-step transfer counts that decide when a steady form is used.
// Each count mirrors the loops of the algorithm's file (named beside it); a test compares them
// with the size of the schedules actually built.
#include "collective/algorithms/steady_forms.hpp"

#include <algorithm>

#include "collective/algorithms/patterns.hpp"

namespace gf {

int steps_for(Time path, Time per_step) {
  if (per_step <= Time::zero()) return 1;
  const int64_t q = (path.picoseconds() + per_step.picoseconds() - 1) / per_step.picoseconds();
  return static_cast<int>(std::max<int64_t>(1, q));
}

Time intra_step(const Schedule& s, const Communicator& comm) { return s.step_latency()[comm.nvlink ? 0 : 1]; }
Time inter_step(const Schedule& s) { return s.step_latency()[2]; }

namespace {
int64_t i64(int v) { return static_cast<int64_t>(v); }
}  // namespace

int64_t ring_step_transfers(const Communicator& comm, const CollectiveCall& call, int channels) {
  const int64_t n = comm.nranks, C = channels;
  switch (call.kind) {  // ring.cpp: ring_steps per channel, or add_chain's hops x chunks
    case CollectiveKind::AllReduce: return C * n * 2 * (n - 1);
    case CollectiveKind::ReduceScatter:
    case CollectiveKind::AllGather: return C * n * (n - 1);
    case CollectiveKind::Broadcast:
    case CollectiveKind::Reduce: return C * (n - 1) * pipeline_chunks(piece(call.bytes, channels, 0));
    default: return 0;
  }
}

int64_t tree_step_transfers(const Communicator& comm, const CollectiveCall& call, int channels) {
  // tree.cpp: per channel, 2 trees x chunks x (n-1 edges up + n-1 down).
  const Bytes half = piece(piece(call.bytes, channels, 0), 2, 0);
  return i64(channels) * 2 * pipeline_chunks(half) * 2 * (i64(comm.nranks) - 1);
}

int nvls_tree_heads(const Communicator& comm) { return std::max(1, std::min(comm.ppn, kNvlsMaxArity)); }

int nvls_tree_head(const Communicator& comm, int heads, int j) {
  return static_cast<int>(static_cast<int64_t>(j) * comm.ppn / std::max(1, heads));
}

int64_t nvlstree_step_transfers(const Communicator& comm, const CollectiveCall& call, int channels) {
  // nvlstree.cpp: per channel, head and tree, chunks x (a switch reduction and a multicast per
  // server + nodes-1 edges up and down).
  const int heads = nvls_tree_heads(comm);
  const Bytes half = piece(piece(piece(call.bytes, channels, 0), heads, 0), 2, 0);
  const int64_t nodes = comm.nnodes;
  return i64(channels) * heads * 2 * pipeline_chunks(half) * (2 * nodes + 2 * (nodes - 1));
}

int64_t collnet_direct_step_transfers(const Communicator& comm, const CollectiveCall& call, int channels) {
  // collnet_direct.cpp: per channel and slice, chunks x (ppn-1 scatters and broadcasts per server
  // + 1 network transfer).
  const Bytes slice = piece(piece(call.bytes, channels, 0), comm.ppn, 0);
  return i64(channels) * comm.ppn * pipeline_chunks(slice) * (2 * i64(comm.nnodes) * (comm.ppn - 1) + 1);
}

int64_t collnet_chain_step_transfers(const Communicator& comm, const CollectiveCall& call, int channels) {
  // collnet_chain.cpp: per channel, chunks x (ppn-1 hops up and down per server + 1 network).
  const Bytes per_channel = piece(call.bytes, channels, 0);
  return i64(channels) * pipeline_chunks(per_channel) * (2 * i64(comm.nnodes) * (comm.ppn - 1) + 1);
}

}  // namespace gf
