// A collective algorithm turns one call into a Schedule for a communicator. One algorithm per
// file in algorithms/; each is registered in algorithm_registry.cpp with its name (the NCCL_ALGO
// spelling where NCCL has one), a one-line description and its source.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "collective/collective.hpp"
#include "collective/communicator.hpp"
#include "collective/schedule.hpp"
#include "core/protocol.hpp"

namespace gf {

struct AlgorithmOptions {
  Protocol proto = Protocol::Simple;
  int channels = 1;  // parallel channels (NCCL's nChannels); each carries bytes / channels
};

class Algorithm {
 public:
  virtual ~Algorithm() = default;
  virtual std::string name() const = 0;         // "ring", "tree", "nvls", ...
  virtual std::string description() const = 0;  // one line
  virtual std::string source() const = 0;       // where its communication pattern comes from
  // "" when it can run this collective on this communicator; otherwise why not, in words a user
  // can act on ("NVLS needs NVSwitch with in-switch reduction (Hopper or later)").
  virtual std::string unsupported(const Communicator& comm, CollectiveKind kind) const = 0;
  // Only called when unsupported() is "". Per-rank payload follows CollectiveCall::bytes.
  virtual Schedule build(const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt) const = 0;
};

const std::vector<std::unique_ptr<Algorithm>>& algorithm_registry();
const Algorithm* find_algorithm(const std::string& name);  // nullptr if unknown
std::vector<std::string> algorithm_names();

// Payload each rank contributes or receives in total, from nccl-tests' printed size: for
// AllGather/ReduceScatter/AllToAll the printed size already counts all ranks' pieces.
// Splits `total` into `parts` nearly equal pieces (the first `total % parts` get one more byte).
Bytes piece(Bytes total, int parts, int index);

}  // namespace gf
