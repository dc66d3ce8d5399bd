// nccl-tests' GPUs chosen by index: `perf --gpus 0,1,6,7`, or CUDA_VISIBLE_DEVICES from the
// environment as a real run takes it (CUDA numbers the listed devices 0.. in the order given, and
// nccl-tests with one process per GPU gives rank r of a server the r-th of them). The positions
// are a server's GPU indices, the same on every server taking part.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gfcli {

struct VisibleGpus {
  std::vector<int> positions;  // in the order given
  std::string from;            // "--gpus" or "CUDA_VISIBLE_DEVICES", for errors and the preamble
};

// `--gpus` when given (it wins), else CUDA_VISIBLE_DEVICES when set and not empty, else nullopt
// (every GPU of a server). A list that is not comma-separated indices (a CUDA UUID such as
// GPU-..., a range, a negative or repeated index) is an InputError naming its source; an index
// the server does not have is one too, once `gpus_per_server` is known (check_visible_gpus).
std::optional<VisibleGpus> visible_gpus(const std::string& flag_value, bool flag_given);
void check_visible_gpus(const VisibleGpus& v, int gpus_per_server);
// "GPUs 0,1,6,7 of each server (CUDA_VISIBLE_DEVICES)", for a `# note:` line.
std::string visible_gpus_line(const VisibleGpus& v);

}  // namespace gfcli
