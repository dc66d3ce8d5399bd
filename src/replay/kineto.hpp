// PyTorch profiler (Kineto) traces: Chrome Trace Event JSON, one file per rank
// (../shared/validation/formats/chrome-trace-and-pytorch-kineto.md). Read: GPU kernels (`ph` "X",
// `cat` "kernel"), their stream (`tid`/args.stream), `ts` and `dur` (microseconds). An NCCL kernel
// (`ncclDevKernel_*` / `ncclKernel_*`) is a collective: its kind from args "Collective name" (or
// the kernel's name), its bytes max("In msg nelems", "Out msg nelems") x the size of args "dtype",
// its process group args "Process Group Name" and, when not cut short, "Process Group Ranks".
// Every other kernel is compute with its recorded duration.
//
// Kineto records no dependencies, so the DAG is the recorded order: a kernel waits for the
// previous kernel of its stream, and for the latest kernel of each other stream that had ended
// before it started. That keeps every ordering the recording shows (it may add waits the program
// did not have: two streams that happened not to overlap are replayed as if synchronized).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "replay/trace.hpp"

namespace gf {

// The rank of each file is its args distributedInfo.rank, or its place in `files` (sorted) when
// the trace has none. Throws InputError naming the file and the event index (the node id).
Trace load_kineto(const std::vector<std::filesystem::path>& files, const std::string& source);

// One file's text as rank `rank` (tests).
RankTrace parse_kineto(const std::string& text, const std::string& file, int64_t rank, Trace& into);

}  // namespace gf
