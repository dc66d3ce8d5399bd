// A training job's layout as `train` and `goodput` read it from the command line: --tp, --pp, --dp,
// --vpp, --ep, --cp, the uneven end stages, batches, sequence, recompute, sequence parallelism,
// ZeRO, overlap, data type, rank order and attention kernel. One definition, so that `goodput
// --model ...` runs exactly the step `train` runs for the same flags.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <gpufabric/gpufabric.hpp>
#include <string>

namespace gfcli {

struct TrainLayoutArgs {
  std::string recompute = "none", overlap = "dp,pp", dtype = "bf16", attention = "flash";
  std::string order = "tp-cp-dp-pp";  // --order: rank order, innermost first
  std::string cp_comm = "ring";       // --cp-comm: how CP ranks get K/V
  std::string tp_overlap_cfg;         // --tp-comm-overlap-cfg: userbuffers' YAML (empty: TE's defaults)
  int64_t tp = 1, pp = 1, dp = 1, vpp = 1, micro_batch = 1, global_batch = 0, seq = 0, ep = 1, cp = 1;
  int64_t pp_first = -1, pp_last = -1;  // -1: not given (an even share)
  int zero = 0;
  bool sequence_parallel = false, no_sequence_parallel = false;

  void add(CLI::App* sub);
  // Any of the parallelism flags given (--search refuses them).
  static bool gave_layout(const CLI::App* sub);
  // The layout for `model`; throws InputError naming the flag for an unknown mode or list entry.
  gf::TrainLayout layout(const gf::ModelShape& model) const;
};

}  // namespace gfcli
