// The shapes NCCL lays its channels out in: pipelining chunks, the binary and double binary trees
// over servers, and each server's chain. Public because the channel graph (`topo --nccl-graph`)
// prints them and tests check them; the algorithms in algorithms/ build their schedules on them.
#pragma once

#include <cstdint>
#include <vector>

#include "collective/communicator.hpp"
#include "core/units.hpp"

namespace gf {

// Chunks a pipelined tree or chain splits its data into: NCCL_STEPS = 8 slots per connection
// (NVIDIA/nccl src/include/device.h), so at most 8 chunks are in flight on one hop. At least
// one chunk, and none smaller than kMinChunkBytes unless the whole message is.
constexpr int kPipelineChunks = 8;
// Smallest piece worth pipelining separately (an estimate: NCCL's LL128/Simple steps carry at least
// a few KiB; a smaller message goes in one piece).
constexpr int64_t kMinChunkBytes = 8 * 1024;
int pipeline_chunks(Bytes bytes);

// NCCL's binary tree over n nodes (NVIDIA/nccl src/graph/trees.cc, ncclGetBtree): node 0 is the
// root with a single child, the largest power of two below n; below it, node r's parent is r with
// its lowest set bit b cleared and bit 2b set, or with b merely cleared when that is out of range.
// Every interior node has at most two children and the height is ceil(log2 n) (log2 n for powers
// of two). Returns parent[r], -1 at the root.
std::vector<int> btree_parents(int n);
// NCCL's double binary tree (ncclGetDtree): tree 0 is the binary tree, tree 1 its mirror
// (r -> n-1-r) when n is even or its shift by one (r -> r+1) when n is odd, so that most nodes are
// a leaf in one tree and interior in the other and the two trees together use every link evenly.
std::vector<int> dtree_parents(int n, int which);
int tree_height(const std::vector<int>& parent);

// The ranks of server `node` in channel `channel`'s order: local positions rotated by the channel,
// the same on every server, so each server's first rank (its "head", which talks to other servers)
// sits on the same rail everywhere and successive channels use successive rails.
std::vector<Rank> node_chain(const Communicator& comm, int node, int channel);

// Parent of every rank in tree `which` (0 or 1) of channel `channel` of NCCL's tree all-reduce
// (tree.cpp): the previous rank of its server's chain (node_chain), or for a chain head, the head
// of its server's parent in the double binary tree over servers. -1 at the root.
std::vector<int> tree_rank_parents(const Communicator& comm, int channel, int which);

}  // namespace gf
