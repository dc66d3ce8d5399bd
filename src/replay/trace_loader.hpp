// A trace directory or file in: Chakra (`PREFIX.N.et`, one file per rank N = 0..R-1, optional
// `comm_group.json`) or Kineto (PyTorch profiler JSON, one file per rank). Everything is checked
// here, before any simulation: every rank present, every dependency naming a node of its rank, no
// dependency cycle, every collective's process group known and its members agreeing on the calls.
#pragma once

#include <string>

#include "replay/trace.hpp"

namespace gf {

// Reads and checks. Throws InputError naming the file and the node id (the key) on bad input.
Trace load_trace(const std::string& path);

// The process groups resolved and the trace checked (what load_trace does after reading); public
// so tests and writers can check a Trace built in memory. Chakra's comm_size (a collective's
// input bytes, as Chakra's PyTorch converter sums them) becomes nccl-tests' size here: an
// all-gather's input is one rank's share, so its size is comm_size x the group's ranks.
void finish_trace(Trace& trace);

// The comm-group file ASTRA-sim reads (--comm-group-configuration): a JSON object mapping each
// process group's name to its ranks, {"1": [0, 1, 2, 3], ...}. Written beside the .et files.
constexpr const char* kCommGroupFile = "comm_group.json";

}  // namespace gf
