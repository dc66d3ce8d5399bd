// How long `gpufabric goodput`'s job stops to write a checkpoint: the checkpoint's bytes (given,
// or the model's weights and optimizer state) over the narrowest part of the path to storage (the
// job's storage NICs, or the storage system's own bandwidth). docs/failures.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/units.hpp"
#include "topology/cluster_spec.hpp"

namespace gf {

// Mixed-precision Adam holds, per parameter, 16-bit weights (2 B) and gradients (2 B) and FP32
// master weights, momentum and variance (12 B): 16 B in training (Rajbhandari et al., "ZeRO",
// SC'20, section 3.1). A checkpoint keeps all but the gradients, which the next step recomputes.
constexpr double kCheckpointBytesPerParam = 14;

// The storage NICs (`role: storage`) of one server of `spec`, their port bandwidths summed; zero
// when its template has none (no preset lists them; an imported DGX does).
Bandwidth storage_nic_bandwidth(const ClusterSpec& spec);

struct CheckpointWrite {
  double bytes = 0;
  double bytes_per_s = 0;  // the narrower of the job's storage NICs and the storage system
  double seconds = 0;
  std::string limit;  // which of the two set the pace: "storage NICs" or "--storage-bw"
};

// `bytes` over min(servers x per-server storage NICs, storage system); either may be absent (zero
// or nullopt), not both. Throws InputError naming --checkpoint-size when there is no bandwidth.
CheckpointWrite checkpoint_write(double bytes, int64_t servers, Bandwidth per_server_nics,
                                 std::optional<Bandwidth> storage_system);

}  // namespace gf
