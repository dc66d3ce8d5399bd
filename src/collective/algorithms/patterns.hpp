// Communication patterns several algorithms share (the tree and chain shapes themselves are public,
// in collective/trees.hpp): ring steps with a readiness hand-off between phases, and one pipelined chunk
// of a tree reduce-then-broadcast.
#pragma once

#include <functional>
#include <initializer_list>
#include <string>
#include <span>
#include <vector>

#include "collective/chunks.hpp"
#include "collective/trees.hpp"
#include "collective/communicator.hpp"

namespace gf {

// What ring position `pos` sends at `step`: returns its size and, when `chunks` is not null, fills
// it with what it carries.
using RingPiece = std::function<Bytes(int pos, int step, std::vector<Chunk>* chunks)>;

// How a rank finishes a phase of ring steps: its sends still in flight (the last NCCL_STEPS = 8;
// each send waits for the one 8 before it, so these follow all of its sends) and its last receive
// (-1 for none; each receive follows the one before it). The next phase, waiting for all of them,
// sees every transfer of the phase out of and into the rank.
struct Handoff {
  std::vector<TransferId> sent;
  TransferId got = -1;
};

// `steps` steps around the ring `order` (Patarasuk & Yuan, JPDC 2009): at step k every position i
// sends piece(i, k) to position i+1; the first `reducing` steps reduce on arrival. A send waits for
// what its sender received in the previous step (the piece it forwards), for ready[i] (how
// position i finished an earlier phase; `ready` may be empty) and for the slot it reuses: NCCL
// keeps NCCL_STEPS = 8 slots per connection (NVIDIA/nccl src/include/device.h; a sender's waitPeer
// in src/device/prims_simple.h spins while the receiver's head + NCCL_STEPS is below its step, so
// step k waits for the receiver to have taken step k - 8). A send does not wait for its sender's
// previous send to arrive: up to 8 steps are in flight on one edge, so a step's latency overlaps
// the ones before it and the critical path is the walk of 2(n-1) hops around the ring, each at its
// own class's latency, not 2(n-1) latencies of the slowest edge. Concurrent steps on one edge are
// one connection's: the flow model sends them in order on the wire, their latencies overlapping
// (model/flow/connection_queue.hpp), so the edge still carries every byte at its own rate. Returns
// how each position finished this one.
std::vector<Handoff> ring_steps(Emitter& e, const std::vector<Rank>& order, int channel, int steps, int reducing,
                                const std::vector<Handoff>& ready, const RingPiece& piece);

// What the previous chunk of one pipeline left on each tree edge: per member, its last send up
// and the last send down into it (-1 before the first chunk). Chunk j on an edge follows chunk
// j-1 on that edge (add_chunk): a channel works through its chunks in order, which lets a model
// overlap the chunks' hops rather than move all chunks at once, hop by hop.
struct TreePipe {
  std::vector<TransferId> up, down;
  explicit TreePipe(size_t members) : up(members, -1), down(members, -1) {}
};

// One chunk of a reduce-then-broadcast over a tree of ranks (NCCL's tree all-reduce,
// src/device/all_reduce.h runTreeSplit): parent[i] indexes `members` (-1 at the root). Each member
// sends its partial sum up once its children's partials and ready[i] (-1 for none) have arrived,
// and once its parent is ready too (the parent adds the partial into its own input, which must be
// there: the child's bytes land in a receive buffer until then); the root, then holding the
// result, sends it down and every member forwards what it receives to its children. Each send
// also follows the previous chunk's on the same edge (`pipe`, updated). Returns, per member, the
// transfers after which it holds the result. Transfers are numbered (Transfer::step) from
// `first_step` on.
std::vector<std::vector<TransferId>> tree_allreduce(Emitter& e, const Communicator& comm, const std::vector<Rank>& members,
                                                    const std::vector<int>& parent, const std::vector<TransferId>& ready,
                                                    int channel, Bytes bytes, std::span<const Chunk> chunks, TreePipe& pipe,
                                                    int first_step = 0);

// Adds one chunk's transfer `t` of a pipelined tree or chain: it waits for `after` (the data it
// forwards or reduces) and for `previous`, the previous chunk's transfer on the same edge (-1 for
// the first chunk): a channel sends its chunks in order. Inside a server (NVLink, PCIe, an NVSwitch
// group) only the first chunk on an edge pays the step latency; a later one pays none, because
// NCCL has it in flight behind the one before (up to NCCL_STEPS = 8 per connection, NVIDIA/nccl
// src/include/device.h; the senders in src/device/prims_simple.h and prims_ll*.h post step j as
// soon as its slot is free, without waiting for step j-1 to arrive). With per-hop latency L, chunk
// time s and K chunks over h hops that gives h x L + (h + K - 1) x s, NCCL's pipeline (its tuner
// charges a tree or chain one latency per hop: tuning.cc, 2 x ((ppn-1) intraLat + log2(nNodes)
// interLat)), where waiting for chunk j-1 to arrive charges (h + K - 1) x (L + s). The slot rule
// (chunk j waits for j - 8) binds nothing: a pipeline has at most kPipelineChunks = 8 chunks.
// An edge between servers (or into a network switch's group) still charges every chunk its step
// latency: hiding it there too made the held-out aws-p5 set's 4-256 MiB rows 24-101 % optimistic
// (median 10.0 -> 23.4 %, docs/models.md), so NCCL pays per network step something our 8 coarse
// chunks do not show (its per-protocol chunk sizes and slot rule, its proxy thread); not modelled.
TransferId add_chunk(Emitter& e, const Communicator& comm, Transfer t, std::vector<TransferId> after,
                     TransferId previous, std::span<const Chunk> chunks);
inline TransferId add_chunk(Emitter& e, const Communicator& comm, const Transfer& t, std::vector<TransferId> after,
                            TransferId previous, const Chunk& what) {
  return add_chunk(e, comm, t, std::move(after), previous, std::span<const Chunk>(&what, 1));
}

// "" when `kind` is one of the algorithm's collectives; otherwise "<algo> runs <its collectives>, not
// <kind>; <instead>".
std::string runs_only(const AlgorithmTraits& algo, CollectiveKind kind, const std::string& instead);
// Why the ranks cannot reduce inside NVSwitch (NCCL's NVLS needs NVLink SHARP: NVSwitch gen 3 with
// Hopper or later GPUs, NVIDIA H100 architecture white paper), "" when they can.
std::string nvls_missing(const Communicator& comm);
// Why the scale-out switches cannot reduce for these ranks (CollNet needs SHARP-capable
// InfiniBand switches, NVIDIA Quantum datasheets), "" when they can.
std::string collnet_missing(const Communicator& comm);

}  // namespace gf
