#include "collective/nccl_pipeline.hpp"

#include <algorithm>

namespace gf {

int64_t nccl_step_data_bytes(Protocol p) {
  switch (p) {
    case Protocol::Simple: return (int64_t{4} << 20) / kNcclSteps;
    case Protocol::LL: return int64_t{8} * 512 * 16 / 2;
    case Protocol::LL128: return int64_t{120} * 640 * 8 * 15 / 16;
  }
  return 0;
}

int64_t nccl_nvlstree_chunk_bytes(int64_t call_bytes, int channels, int heads, int nodes) {
  int64_t chunk = 128 * 1024;
  if (nodes >= 4) chunk = std::min<int64_t>(chunk, 64 * 1024);
  const int64_t ops = int64_t{std::max(channels, 1)} * std::max(heads, 1);
  if (call_bytes < 16 * ops * chunk && chunk > 128 * 1024) chunk = 128 * 1024;
  if (call_bytes < 4 * ops * chunk && chunk > 64 * 1024) chunk = 64 * 1024;
  if (call_bytes < 1 * ops * chunk && chunk > 32 * 1024) chunk = 32 * 1024;
  return chunk;
}

int64_t nccl_nvls_chunk_bytes(int64_t call_bytes, int channels, int heads) {
  int64_t chunk = 128 * 1024;
  const int64_t ops = int64_t{std::max(channels, 1)} * std::max(heads, 1);
  if (call_bytes < 64 * ops * chunk && chunk > 64 * 1024) chunk = 64 * 1024;
  if (call_bytes < 8 * ops * chunk && chunk > 32 * 1024) chunk = 32 * 1024;
  if (call_bytes < 2 * ops * chunk && chunk > 16 * 1024) chunk = 16 * 1024;
  return chunk;
}

int64_t nccl_steps(int64_t bytes, int64_t step_bytes) {
  if (bytes <= 0 || step_bytes <= 0) return 0;
  return (bytes + step_bytes - 1) / step_bytes;
}

Time slotted_edge_time(int64_t steps, Time latency, Time wire) {
  if (steps <= 0) return Time::zero();
  const Time round = std::max(wire * kNcclSteps, latency + wire);
  const int64_t last = steps - 1;
  return round * (last / kNcclSteps) + wire * (last % kNcclSteps) + latency + wire;
}

}  // namespace gf
