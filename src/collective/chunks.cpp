#include "collective/chunks.hpp"

#include <stdexcept>

namespace gf {

Transfer make_transfer(int32_t src, int32_t dst, Bytes bytes, bool reduce, int channel, int step) {
  Transfer t;
  t.src = src;
  t.dst = dst;
  t.bytes = bytes;
  t.reduce = reduce ? bytes : Bytes(0);
  t.channel = static_cast<int16_t>(channel);
  t.step = static_cast<int16_t>(step);
  return t;
}

Schedule build_with_chunks(const Algorithm& a, const Communicator& comm, const CollectiveCall& call,
                           const AlgorithmOptions& opt, ChunkLog& log) {
  const auto* chunked = dynamic_cast<const ChunkedAlgorithm*>(&a);
  if (!chunked) throw std::logic_error("algorithm '" + a.name() + "' does not log what its transfers carry");
  log.clear();
  return chunked->build_logged(comm, call, opt, &log);
}

}  // namespace gf
