#include "collective/algorithms/patterns.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace gf {

std::vector<Handoff> ring_steps(Emitter& e, const std::vector<Rank>& order, int channel, int steps, int reducing,
                                const std::vector<Handoff>& ready, const RingPiece& piece) {
  const int n = static_cast<int>(order.size());
  std::vector<Handoff> done(static_cast<size_t>(n));
  // slot[i][k % kPipelineChunks]: position i's send of step k, whose slot step k + NCCL_STEPS reuses.
  std::vector<std::array<TransferId, kPipelineChunks>> slot(static_cast<size_t>(n));
  for (auto& a : slot) a.fill(-1);
  std::vector<Chunk> chunks;
  std::vector<TransferId> deps;
  for (int k = 0; k < steps; ++k) {
    std::vector<TransferId> into(static_cast<size_t>(n), -1);
    const auto uk = static_cast<size_t>(k % kPipelineChunks);
    for (int i = 0; i < n; ++i) {
      const auto ui = static_cast<size_t>(i);
      chunks.clear();
      Bytes b = piece(i, k, e.logging() ? &chunks : nullptr);
      deps.clear();
      if (done[ui].got >= 0) deps.push_back(done[ui].got);
      if (slot[ui][uk] >= 0) deps.push_back(slot[ui][uk]);
      // Past the first 8 steps the slot's previous send already waited for the earlier phase.
      if (!ready.empty() && k < kPipelineChunks) {
        deps.insert(deps.end(), ready[ui].sent.begin(), ready[ui].sent.end());
        if (ready[ui].got >= 0) deps.push_back(ready[ui].got);
      }
      Transfer t = make_transfer(order[ui], order[static_cast<size_t>((i + 1) % n)], b, k < reducing, channel, k);
      slot[ui][uk] = e.add(t, deps, chunks);
      into[static_cast<size_t>((i + 1) % n)] = slot[ui][uk];
    }
    for (int i = 0; i < n; ++i) done[static_cast<size_t>(i)].got = into[static_cast<size_t>(i)];
  }
  for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
    for (TransferId id : slot[i])
      if (id >= 0) done[i].sent.push_back(id);
  }
  return done;
}

std::vector<std::vector<TransferId>> tree_allreduce(Emitter& e, const Communicator& comm, const std::vector<Rank>& members,
                                                    const std::vector<int>& parent, const std::vector<TransferId>& ready,
                                                    int channel, Bytes bytes, std::span<const Chunk> chunks,
                                                    TreePipe& pipe, int first_step) {
  const size_t n = members.size();
  std::vector<std::vector<int>> children(n);
  int root = -1;
  for (size_t i = 0; i < n; ++i) {
    if (parent[i] < 0) root = static_cast<int>(i);
    else children[static_cast<size_t>(parent[i])].push_back(static_cast<int>(i));
  }
  if (root < 0) throw std::logic_error("tree without a root");
  // Breadth-first order from the root: parents before children; reversed, children first.
  std::vector<int> order{root};
  for (size_t q = 0; q < order.size(); ++q)
    for (int c : children[static_cast<size_t>(order[q])]) order.push_back(c);
  if (order.size() != n) throw std::logic_error("tree parents do not form one tree");

  // Reduce: what arrived at member i from its children (its up-send waits for all of it).
  std::vector<std::vector<TransferId>> arrived(n);
  std::vector<int> level(n, first_step);  // step number for reports: longest chain of sends below
  for (size_t q = n; q-- > 0;) {
    auto i = static_cast<size_t>(order[q]);
    if (ready[i] >= 0) arrived[i].push_back(ready[i]);
    if (parent[i] < 0) continue;
    auto p = static_cast<size_t>(parent[i]);
    std::vector<TransferId> deps = arrived[i];
    if (ready[p] >= 0) deps.push_back(ready[p]);
    TransferId id = add_chunk(e, comm, make_transfer(members[i], members[p], bytes, true, channel, level[i]), std::move(deps),
                              pipe.up[i], chunks);
    pipe.up[i] = id;
    arrived[p].push_back(id);
    level[p] = std::max(level[p], level[i] + 1);
  }
  // Broadcast: the root holds the result once everything arrived; others once their parent sent it.
  std::vector<std::vector<TransferId>> holds(n);
  holds[static_cast<size_t>(root)] = arrived[static_cast<size_t>(root)];
  std::vector<int> down_level(n, level[static_cast<size_t>(root)]);
  for (int i : order) {
    auto ui = static_cast<size_t>(i);
    for (int c : children[ui]) {
      auto uc = static_cast<size_t>(c);
      TransferId id = add_chunk(e, comm, make_transfer(members[ui], members[uc], bytes, false, channel, down_level[ui]),
                                holds[ui], pipe.down[uc], chunks);
      pipe.down[uc] = id;
      holds[uc] = {id};
      down_level[uc] = down_level[ui] + 1;
    }
  }
  return holds;
}

namespace {
// Whether `t` crosses the network: between ranks of two servers (communicator nodes; an NVLink
// domain is one), or into or out of a network switch's group (CollNet). An NVSwitch group does not.
bool crosses_network(const Schedule& s, const Communicator& comm, const Transfer& t) {
  for (int32_t ep : {t.src, t.dst})
    if (is_group(ep) && s.groups()[static_cast<size_t>(group_index(ep))].where == ReductionPoint::NetworkSwitch) return true;
  if (is_group(t.src) || is_group(t.dst)) return false;
  return comm.node_of[static_cast<size_t>(t.src)] != comm.node_of[static_cast<size_t>(t.dst)];
}
}  // namespace

TransferId add_chunk(Emitter& e, const Communicator& comm, Transfer t, std::vector<TransferId> after,
                     TransferId previous, std::span<const Chunk> chunks) {
  if (previous >= 0 && !crosses_network(e.schedule(), comm, t)) {
    t.steps = 0;  // its latency overlaps the chunk before it on this edge
  }
  if (previous >= 0) after.push_back(previous);
  return e.add(t, after, chunks);
}

std::string runs_only(const AlgorithmTraits& algo, CollectiveKind kind, const std::string& instead) {
  if (algo.implements(kind)) return "";
  std::string list;
  for (CollectiveKind k : algo.collectives) list += (list.empty() ? "" : ", ") + std::string(to_string(k));
  return algo.name + " runs " + list + ", not " + to_string(kind) + "; " + instead;
}

std::string nvls_missing(const Communicator& comm) {
  const std::string need = "needs NVSwitch with in-switch reduction (NVLink SHARP: NVSwitch gen 3, Hopper or later)";
  if (comm.nvls) return "";
  if (comm.ppn < 2) return need + "; with one GPU per server no NVSwitch joins the ranks";
  if (!comm.nvlink) return need + "; this cluster's GPUs are joined by PCIe";
  if (!comm.nvswitch) return need + "; this cluster's GPUs are joined by direct NVLink/xGMI links without a switch";
  return need + "; this cluster's NVSwitches do not reduce (" + comm.arch + " GPUs)";
}

std::string collnet_missing(const Communicator& comm) {
  if (comm.nnodes < 2)
    return "collnet reduces in the network between servers; this communicator has one server (use nvls or ring)";
  if (!comm.collnet)
    return "collnet needs InfiniBand switches with SHARP in-network reduction; this fabric's switches do not reduce (a direct fabric, full_mesh or torus, has none)";
  return "";
}

}  // namespace gf
