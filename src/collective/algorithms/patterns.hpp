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

// How a rank finishes a phase of ring steps: its last send and its last receive (-1 for none).
// Each ring send waits for the rank's previous send and receive, so these two follow every
// transfer of the phase into the rank: the next phase, waiting for both, sees all of it.
struct Handoff {
  TransferId sent = -1, got = -1;
};

// `steps` steps around the ring `order` (Patarasuk & Yuan, JPDC 2009): at step k every position i
// sends piece(i, k) to position i+1; the first `reducing` steps reduce on arrival. A send waits for
// what its sender received in the previous step (the piece it forwards), for its sender's previous
// send (a GPU runs a channel's steps in order) and for ready[i] (how position i finished an
// earlier phase; `ready` may be empty). Returns how each position finished this one.
std::vector<Handoff> ring_steps(Emitter& e, const std::vector<Rank>& order, int channel, int steps, int reducing,
                                const std::vector<Handoff>& ready, const RingPiece& piece);

// What the previous chunk of one pipeline left on each tree edge: per member, its last send up
// and the last send down into it (-1 before the first chunk). Chunk j on an edge waits for chunk
// j-1 on that edge: a channel works through its chunks in order (NCCL's loop over steps, NCCL_STEPS
// slots per connection), which is what lets a model overlap the chunks' hops rather than move all
// chunks at once, hop by hop.
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
std::vector<std::vector<TransferId>> tree_allreduce(Emitter& e, const std::vector<Rank>& members,
                                                    const std::vector<int>& parent, const std::vector<TransferId>& ready,
                                                    int channel, Bytes bytes, std::span<const Chunk> chunks, TreePipe& pipe,
                                                    int first_step = 0);

// The dependencies of a pipelined transfer: `after` plus, when >= 0, the previous chunk's
// transfer on the same edge.
std::vector<TransferId> with_previous(std::vector<TransferId> after, TransferId previous);

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
