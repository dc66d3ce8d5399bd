#include "workload/checkpoint_cost.hpp"

#include "core/error.hpp"

namespace gf {

Bandwidth storage_nic_bandwidth(const ClusterSpec& spec) {
  Bandwidth sum;
  for (const auto& n : spec.server.nodes) {
    if (n.kind != NodeKind::Nic || n.role != "storage") continue;
    // A NIC port is one cable of its technology (lanes are NVLink's and PCIe's notion).
    if (const auto id = spec.catalog.find(n.tech)) sum = sum + spec.catalog.tech(*id).per_lane;
  }
  return sum;
}

CheckpointWrite checkpoint_write(double bytes, int64_t servers, Bandwidth per_server_nics,
                                 std::optional<Bandwidth> storage_system) {
  if (!(bytes > 0))
    throw InputError({}, "--checkpoint-size", "must be more than 0 bytes", "e.g. --checkpoint-size 5.7T");
  CheckpointWrite w;
  w.bytes = bytes;
  const double nics = per_server_nics.bytes_per_second() * static_cast<double>(servers);
  if (nics > 0) w.bytes_per_s = nics, w.limit = "storage NICs";
  if (storage_system && (nics <= 0 || storage_system->bytes_per_second() < nics))
    w.bytes_per_s = storage_system->bytes_per_second(), w.limit = "--storage-bw";
  if (!(w.bytes_per_s > 0))
    throw InputError({}, "--checkpoint-size",
                     "no storage path to write the checkpoint over: the cluster's servers have "
                     "no storage NICs",
                     "give the storage system's write bandwidth, e.g. --storage-bw 2TB/s (Meta's Tectonic for Llama 3: "
                     "2 TB/s sustained, 7 TB/s peak), or the write time with --checkpoint-write");
  w.seconds = bytes / w.bytes_per_s;
  return w;
}

}  // namespace gf
