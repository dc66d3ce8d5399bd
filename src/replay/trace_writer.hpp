// A Trace written as a Chakra directory: PREFIX.N.et per rank (replay/chakra_et) and
// comm_group.json (ASTRA-sim's comm-group file) for its process groups.
#pragma once

#include <string>

#include "replay/trace.hpp"

namespace gf {

// Writes into `dir` (created when missing). Refuses a directory that already holds .et files.
// All-gather sizes are written as Chakra records them, each rank's input (nccl-tests' size / the
// group's ranks), so that load_trace gives back the sizes of `trace`.
void write_chakra_dir(const Trace& trace, const std::string& dir, const std::string& prefix = "trace");

}  // namespace gf
