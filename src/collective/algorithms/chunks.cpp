#include "collective/algorithms/chunks.hpp"

#include <stdexcept>

namespace gf {

Schedule build_with_chunks(const Algorithm& a, const Communicator& comm, const CollectiveCall& call,
                           const AlgorithmOptions& opt, ChunkLog& log) {
  const auto* chunked = dynamic_cast<const ChunkedAlgorithm*>(&a);
  if (!chunked) throw std::logic_error("algorithm '" + a.name() + "' does not log what its transfers carry");
  log.clear();
  return chunked->build_logged(comm, call, opt, &log);
}

}  // namespace gf
