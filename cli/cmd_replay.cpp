// gpufabric replay DIR --cluster C [--model analytical|flow|packet] [--gpu-ratio R | --target-gpu G
//     [--recorded-gpu G]] [--format text|json]
// A recorded job (Chakra .et files, one per rank, or Kineto JSON traces) replayed on a cluster:
// the simulated iteration time and communication per collective beside the recorded ones
// (docs/replay.md).
#include <gpufabric/gpufabric.hpp>
#include <iostream>
#include <memory>

#include "cluster_args.hpp"
#include "commands.hpp"

namespace gfcli {

namespace {

struct ReplayArgs {
  ClusterArgs cluster;
  std::string path, model = "analytical", target_gpu, recorded_gpu, format = "text";
  double gpu_ratio = 0;  // 0: not given
  bool no_contention = false;
};

gf::TrainingGpu catalog_gpu(const std::string& name, const char* flag) {
  if (auto g = gf::find_training_gpu(name)) return *g;
  std::vector<std::string> names;
  for (const auto& x : gf::training_gpus()) names.push_back(x.model);
  throw gf::InputError({}, flag, "unknown GPU '" + name + "'", gf::suggest(name, names) + " (gpufabric list gpus)");
}

int run_replay(const ReplayArgs& a) {
  if (a.format != "text" && a.format != "json")
    throw gf::InputError({}, "--format", "unknown format '" + a.format + "'", gf::suggest(a.format, {"text", "json"}));
  gf::require_model(a.model, {}, "--model");
  if (a.gpu_ratio != 0 && !a.target_gpu.empty())
    throw gf::InputError({}, "--target-gpu", "give --gpu-ratio or --target-gpu, not both", "drop one of them");
  if (!a.recorded_gpu.empty() && a.target_gpu.empty())
    throw gf::InputError({}, "--recorded-gpu", "only used with --target-gpu", "add --target-gpu G");
  const gf::Trace trace = gf::load_trace(a.path);
  gf::ReplayOptions opt;
  opt.network_model = a.model;
  opt.contention = !a.no_contention;
  if (a.gpu_ratio != 0) {
    if (!(a.gpu_ratio > 0))
      throw gf::InputError({}, "--gpu-ratio", "must be above 0", "e.g. --gpu-ratio 2 for a GPU twice as fast");
    opt.gpu_ratio = a.gpu_ratio;
  }
  if (!a.target_gpu.empty()) {
    // The ratio of dense BF16 peaks: compute-bound kernels scale with it (docs/replay.md says
    // what this leaves out: memory-bound kernels follow memory bandwidth instead).
    const std::string recorded = !a.recorded_gpu.empty() ? a.recorded_gpu : trace.gpu.value_or("");
    if (recorded.empty())
      throw gf::InputError({}, "--target-gpu", "the trace does not say which GPU recorded it",
                           "add --recorded-gpu G (gpufabric list gpus)");
    const gf::TrainingGpu from = catalog_gpu(recorded, a.recorded_gpu.empty() ? "--recorded-gpu" : "--recorded-gpu");
    const gf::TrainingGpu to = catalog_gpu(a.target_gpu, "--target-gpu");
    opt.gpu_ratio = to.bf16_tflops / from.bf16_tflops;
  }
  const gf::Simulation sim = a.cluster.load();
  const gf::ReplayResult r = gf::run_replay(sim.cluster(), sim.router(), trace, opt);
  if (a.format == "json")
    std::cout << json_text(gf::replay_json(r, sim.name())) << "\n";
  else
    std::cout << gf::replay_text(r, sim.name());
  return 0;
}

}  // namespace

Command add_replay(CLI::App& root) {
  auto a = std::make_shared<ReplayArgs>();
  CLI::App* sub = root.add_subcommand(
      "replay", "Replay a recorded job (Chakra .et directory or Kineto JSON) on a cluster (docs/replay.md)");
  sub->add_option("trace", a->path, "Directory of Chakra PREFIX.N.et files (one per rank), or of Kineto JSON files, "
                                    "or one Kineto JSON file")
      ->required();
  a->cluster.add(sub, false, "Servers in the cluster (default: the preset's)");
  sub->add_option("--model", a->model, "Network model for the collectives: analytical, flow or packet (default analytical)");
  sub->add_option("--gpu-ratio", a->gpu_ratio, "Target GPU speed over the recorded GPU's: compute time is divided by it");
  sub->add_option("--target-gpu", a->target_gpu,
                  "Catalog GPU to replay on: the ratio of dense BF16 peaks to the recorded GPU's (gpufabric list gpus)");
  sub->add_option("--recorded-gpu", a->recorded_gpu,
                  "With --target-gpu: the GPU the trace was recorded on (default: what the trace says)");
  sub->add_flag("--no-contention", a->no_contention,
               "Time each collective alone, as train does per kind (default: collectives in flight at once share the fabric)");
  sub->add_option("--format", a->format, "text or json");
  return {sub, [a] { return run_replay(*a); }};
}

}  // namespace gfcli
