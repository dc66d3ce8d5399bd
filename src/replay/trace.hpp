// A recorded job as replay sees it, whatever file format it came from (Chakra ET, Kineto JSON):
// one DAG of nodes per rank. Compute nodes carry their recorded duration; communication nodes
// carry what the network model needs (collective, bytes, process group, peer) and their recorded
// duration, reported beside the simulated one.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "collective/collective.hpp"

namespace gf {

// Marker: a node that only orders others (host ops, metadata, memory nodes): it takes no time.
enum class TraceNodeKind { Compute, Collective, Send, Recv, Marker };

struct TraceNode {
  uint64_t id = 0;  // as the file numbers it (Chakra node id; Kineto: the event's index)
  std::string name;
  TraceNodeKind kind = TraceNodeKind::Compute;
  double duration_s = 0;  // recorded
  double start_s = -1;    // recorded start; negative when the file has none
  // Collectives: which and how many bytes (nccl-tests' size: the whole buffer of a gather or
  // scatter); the process group's name ("" = every rank).
  CollectiveKind collective = CollectiveKind::AllReduce;
  int64_t bytes = 0;
  std::string pg;
  // Send/Recv: the other rank, and the tag that pairs a send with its receive.
  int64_t peer = -1;
  int64_t tag = 0;
  std::vector<uint64_t> deps;  // nodes of the same rank this one waits for (data and control)
};

struct RankTrace {
  int64_t rank = 0;
  std::string file;  // for errors
  std::vector<TraceNode> nodes;  // in file order (the issue order NCCL pairs collectives by)
};

struct Trace {
  std::string format;  // "chakra" | "kineto"
  std::string source;  // the directory or file
  std::vector<RankTrace> ranks;  // ranks[r].rank == r
  // Process group name -> member ranks, in order. Empty: inferred from which ranks use each group.
  std::map<std::string, std::vector<int64_t>> groups;
  std::string groups_file;  // where `groups` came from, for errors ("" when inferred)
  std::optional<std::string> gpu;  // the GPU the trace was recorded on, when the file says
  // All-gather sizes are Chakra's comm_size, one rank's input, until finish_trace scales them to
  // nccl-tests' size (the whole output) once the group sizes are known.
  bool allgather_sizes_per_rank = false;
};

}  // namespace gf
