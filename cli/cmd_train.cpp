// gpufabric train --model M --tp T --pp P --dp D [--vpp V] --global-batch B [--micro-batch b]
//     [--seq S] [--recompute none|selective|full] [--sequence-parallel | --no-sequence-parallel] [--zero 0-3]
//     [--cp C] [--cp-comm ring|all-gather] [--pp-first-layers N --pp-last-layers N] [--overlap dp,pp,tp|none] [--dtype bf16|fp8] [--attention
//     flash|unfused] [--gpu NAME]
//     [--tokens 15T | --flops 1e24] [--model-fidelity analytical|flow|packet] [--format text|json]
//     [--step composed|dag]
// gpufabric train --model M --global-batch B --search [--gpus N] [--max-memory 80G] [--refine K] ...
// One training step of a model on a cluster: step time and its breakdown, MFU, memory per GPU
// (docs/training.md).
#include <gpufabric/gpufabric.hpp>
#include <iostream>
#include <memory>
#include <tuple>

#include "cluster_args.hpp"
#include "commands.hpp"
#include "progress.hpp"
#include "report_file.hpp"
#include "train_layout_args.hpp"

namespace gfcli {

namespace {

struct TrainArgs {
  ClusterArgs cluster;
  TrainLayoutArgs layout;  // --tp, --pp, --dp, ... (train_layout_args.hpp)
  std::string model, gpu;
  std::string tokens, flops, fidelity = "flow", format = "text";
  std::string step = "composed";  // --step composed|dag: also run the step as one DAG (docs/training.md)
  std::string emit_chakra;  // --emit-chakra DIR: the step's DAG as a Chakra trace (docs/replay.md)
  std::string trace, trace_ranks;  // --trace FILE: the step as a Perfetto timeline (docs/reports.md)
  std::string html;                // --html FILE: the step as a page with its time breakdown
  bool force = false;              // --force: --trace / --html may replace FILE
  const CLI::App* app = nullptr;   // for the page's command line
  double matmul_eff = 0, memory_eff = 0;  // 0: the documented table's
  bool search = false;
  // --search: the job's GPUs, a memory cap, how many estimates to run on the network model; and
  // which layout flags were given (those the search then holds fixed, or refuses).
  int64_t gpus = 0, refine = 3;
  std::string max_memory;
  std::vector<std::string> stragglers;  // --straggler serverS/gpuK=F
  bool gave_recompute = false, gave_zero = false, gave_micro_batch = false, gave_layout = false;
};

int run_train(const TrainArgs& a) {
  if (a.format != "text" && a.format != "json")
    throw gf::InputError({}, "--format", "unknown format '" + a.format + "'", gf::suggest(a.format, {"text", "json"}));
  if (a.search && a.gave_layout)
    throw gf::InputError({}, "--search", "--search chooses TP, CP, PP, DP, EP and VPP itself",
                         "drop --tp, --cp, --pp, --dp, --ep, --vpp and --pp-first/last-layers, or drop --search");
  if (!a.search && (a.gpus != 0 || !a.max_memory.empty()))
    throw gf::InputError({}, a.gpus != 0 ? "--gpus" : "--max-memory", "only used with --search",
                         "add --search, or give the layout with --tp, --pp, --dp");
  if (a.model.empty())
    throw gf::InputError({}, "--model", "no model given",
                         "e.g. --model llama3-70b (gpufabric list models), or a YAML model file");
  if (!a.tokens.empty() && !a.flops.empty())
    throw gf::InputError({}, "--flops", "give --tokens or --flops, not both", "drop one of them");
  gf::require_model(a.fidelity, {}, "--model-fidelity");
  const gf::ModelShape m = gf::find_model(a.model);
  if (a.search && a.layout.global_batch <= 0)
    throw gf::InputError({}, "--global-batch", "--search needs the global batch (sequences per step)",
                         "e.g. --global-batch 1024");
  const gf::TrainLayout l = a.layout.layout(m);
  gf::TrainOptions opt;
  opt.network_model = a.fidelity;
  for (auto [v, flag, dst] : {std::tuple{a.matmul_eff, "--matmul-efficiency", &opt.efficiency.matmul},
                              std::tuple{a.memory_eff, "--memory-efficiency", &opt.efficiency.memory}}) {
    if (v == 0) continue;
    if (!(v > 0 && v <= 1))
      throw gf::InputError({}, flag, "must be above 0 and at most 1, got " + std::to_string(v),
                           "e.g. " + std::string(flag) + " 0.7");
    *dst = v;
    opt.efficiency.source = "set on the command line";
  }
  if (!a.tokens.empty()) opt.tokens = gf::parse_quantity(a.tokens, "--tokens");
  if (!a.flops.empty()) opt.flops = gf::parse_quantity(a.flops, "--flops");
  const gf::Simulation sim = a.cluster.load();
  for (const std::string& s : a.stragglers)
    opt.slow_gpus.push_back(gf::parse_gpu_slowdown(sim.cluster(), "--straggler", s));
  if (a.search && !opt.slow_gpus.empty())
    throw gf::InputError({}, "--straggler", "a straggler is a GPU of one layout; --search tries many",
                         "run --search first, then the layout it picks with --straggler");
  gf::TrainingGpu gpu;
  if (!a.gpu.empty()) {
    auto g = gf::find_training_gpu(a.gpu);
    if (!g) {
      std::vector<std::string> names;
      for (const auto& x : gf::training_gpus()) names.push_back(x.model);
      throw gf::InputError({}, "--gpu", "unknown GPU '" + a.gpu + "'",
                           gf::suggest(a.gpu, names) +
                               " (gpufabric list gpus); or drop --gpu and give the cluster's server a custom entry: "
                               "`gpu: {model: MyGPU, arch: hopper, memory_bw: 3350GB/s, bf16_tflops: 989}`");
    }
    gpu = *g;
  } else {
    gpu = gf::training_gpu_for(sim.spec().server.gpu);
  }
  if (a.step != "composed" && a.step != "dag")
    throw gf::InputError({}, "--step", "unknown step model '" + a.step + "'",
                         gf::suggest(a.step, {"composed", "dag"}) +
                             " (composed: kinds timed apart and a pipeline schedule; dag: also the step as one "
                             "per-rank DAG with every group's collectives contending)");
  if (a.search && a.step == "dag")
    throw gf::InputError({}, "--step", "--step dag runs one layout's step, not a search",
                         "give the layout, drop --search");
  if (a.search && !a.emit_chakra.empty())
    throw gf::InputError({}, "--emit-chakra", "writes one layout's step, not a search",
                         "give the layout, drop --search");
  if (a.search && !a.trace.empty())
    throw gf::InputError({}, "--trace", "draws one layout's step, not a search", "give the layout, drop --search");
  if (a.search && !a.html.empty())
    throw gf::InputError({}, "--html", "draws one layout's step, not a search", "give the layout, drop --search");
  if (!a.html.empty()) check_new_file(a.html, a.force, "--html");
  if (a.trace.empty() && !a.trace_ranks.empty())
    throw gf::InputError({}, "--trace-ranks", "only shapes a --trace timeline", "add --trace FILE");
  std::vector<std::pair<int, int>> trace_ranks;
  if (!a.trace.empty()) {
    check_new_file(a.trace, a.force, "--trace");
    if (!a.trace_ranks.empty()) trace_ranks = gf::parse_rank_ranges(a.trace_ranks, "--trace-ranks");
  }
  gf::TrainTimeline timeline;
  if (!a.trace.empty()) opt.timeline = &timeline;
  // On a terminal, a line follows each group collective as the network model times it: the
  // timing run_training does by default (time_groups on --model-fidelity), followed as it goes.
  Progress progress("gpufabric train");
  if (!a.search)
    opt.timer = [&](const std::vector<std::vector<int64_t>>& groups, gf::CollectiveKind kind, gf::Bytes bytes,
                    const std::string& flag) {
      progress.phase(flag.substr(2) + " " + gf::to_string(kind), true);
      gf::RunTick tick;
      tick.every = Progress::kTickEvents;
      tick.fn = [&](gf::Time now, size_t events, double done) { progress.tick(now, events, done); };
      return gf::time_groups_ticked(sim.cluster(), sim.router(), opt.network_model, groups, kind, bytes, flag, tick);
    };
  if (a.search) {
    gf::SearchOptions so;
    so.gpus = a.gpus;
    if (a.gpus < 0) throw gf::InputError({}, "--gpus", "must be at least 1", "e.g. --gpus 1024");
    if (!a.max_memory.empty()) {
      try {
        so.max_memory = static_cast<double>(gf::parse_size(a.max_memory).count());
      } catch (const gf::UnitError& e) {
        throw gf::InputError({}, "--max-memory", e.what(), "e.g. --max-memory 80G (GiB)");
      }
      if (so.max_memory <= 0) throw gf::InputError({}, "--max-memory", "must be above 0", "e.g. --max-memory 80G");
    }
    if (a.refine < 1) throw gf::InputError({}, "--refine", "must be at least 1", "e.g. --refine 3");
    so.refine = static_cast<size_t>(a.refine);
    if (a.gave_recompute) so.recompute = {l.recompute};
    if (a.gave_zero) so.zero = {l.zero};
    if (a.gave_micro_batch) so.micro_batches = {l.micro_batch};
    so.sequence_parallel = !a.layout.no_sequence_parallel;
    const gf::SearchResult r = gf::search_layouts(sim.cluster(), sim.router(), m, l, opt, gpu, so);
    progress.finish();
    if (a.format == "json")
      std::cout << json_text(gf::search_json(r, sim.name(), a.fidelity)) << "\n";
    else
      std::cout << gf::search_text(r, sim.name(), a.fidelity);
    return 0;
  }
  gf::TrainResult r = gf::run_training(sim.cluster(), sim.router(), m, l, opt, gpu);
  progress.finish();
  opt.timer = {};  // --emit-chakra's and --step dag's second pass runs quietly
  if (a.step == "dag") r.dag = gf::run_training_dag(sim.cluster(), sim.router(), m, l, opt, gpu);
  if (!a.emit_chakra.empty()) {
    const gf::Trace trace = gf::training_trace(sim.cluster(), sim.router(), m, l, opt, gpu);
    gf::write_chakra_dir(trace, a.emit_chakra);
    std::cerr << "gpufabric: wrote " << trace.ranks.size() << " Chakra rank files to " << a.emit_chakra << "\n";
  }
  if (!a.trace.empty()) {
    std::ofstream out(a.trace, std::ios::binary);
    const size_t events = gf::write_train_trace(out, sim.cluster(), r, timeline, trace_ranks);
    out.flush();
    if (!out)
      throw gf::InputError({}, "--trace", "could not write '" + a.trace + "'",
                           "check the folder exists and is writable");
    std::cerr << "gpufabric: wrote " << a.trace << ": " << events
              << " trace events; open it in https://ui.perfetto.dev or chrome://tracing\n";
  }
  if (!a.html.empty()) {
    write_file(a.html, gf::html::train_html(r, sim.name(), {command_line(*a.app), version_text()}), "--html");
    std::cerr << "gpufabric: wrote " << a.html << " (open it in a browser; it needs no network)\n";
  }
  if (a.format == "json")
    std::cout << json_text(gf::train_json(r, sim.name())) << "\n";
  else
    std::cout << gf::train_text(r, sim.name());
  return 0;
}

}  // namespace

Command add_train(CLI::App& root) {
  auto a = std::make_shared<TrainArgs>();
  CLI::App* sub = root.add_subcommand(
      "train", "One training step of a model on a cluster: step time, breakdown, MFU, memory (docs/training.md)");
  a->cluster.add(sub, false, "Servers in the cluster (default: the preset's)");
  sub->add_option("--model", a->model, "Model preset (gpufabric list models) or YAML model file")->required();
  a->layout.add(sub);
  sub->add_option("--gpu", a->gpu, "Price compute on this catalog GPU instead of the cluster's (gpufabric list gpus)");
  sub->add_option("--tokens", a->tokens, "Tokens to train on (e.g. 15T): prints days to train");
  sub->add_option("--flops", a->flops, "Training compute budget in model FLOPs (e.g. 1e24): prints days to train");
  sub->add_option("--model-fidelity", a->fidelity,
                  "Network model for the collectives: analytical, flow or packet (default flow)");
  sub->add_option("--matmul-efficiency", a->matmul_eff,
                  "Share of tensor peak large GEMMs reach (default: docs/training.md's table)");
  sub->add_option("--memory-efficiency", a->memory_eff,
                  "Share of memory bandwidth element-wise kernels reach (default: the table's)");
  sub->add_flag("--search", a->search,
                "Find the fastest layout (TP, PP, DP, VPP, micro-batch, recompute, ZeRO) that fits memory");
  sub->add_option("--gpus", a->gpus, "With --search: GPUs of the job (default: the cluster's)");
  sub->add_option("--max-memory", a->max_memory, "With --search: memory per GPU, e.g. 80G (default: the GPU's)");
  sub->add_option("--refine", a->refine,
                  "With --search: how many of the best closed-form estimates run on the network model (default 3)");
  sub->add_option("--straggler", a->stragglers,
                  "A slow GPU, NAME=FRACTION of its compute speed (e.g. server7/gpu3=0.8); repeatable");
  sub->add_option("--format", a->format, "text or json");
  sub->add_option("--step", a->step,
                  "composed (default) or dag: also run the step as one per-rank DAG of compute and collectives, "
                  "every group's collectives sharing the fabric, and print its step time beside the composed one");
  sub->add_option("--emit-chakra", a->emit_chakra,
                  "Also write the step as a Chakra trace, one .et file per rank, into this directory (docs/replay.md)");
  sub->add_option("--trace", a->trace,
                  "Write the step as a timeline (Trace Event Format JSON, opens in Perfetto or chrome://tracing): "
                  "per pipeline stage its passes, PP sends and DP collectives (docs/reports.md)");
  sub->add_option("--trace-ranks", a->trace_ranks,
                  "With --trace: these ranks' tracks, e.g. 0-15,32 (default one rank per pipeline stage)");
  sub->add_option("--html", a->html,
                  "Also write the step as one self-contained HTML page: its time breakdown and communication");
  sub->add_flag("--force", a->force, "With --trace or --html: replace the file if it exists");
  a->app = sub;
  return {sub, [a, sub] {
            a->gave_recompute = sub->count("--recompute") > 0;
            a->gave_zero = sub->count("--zero") > 0;
            a->gave_micro_batch = sub->count("--micro-batch") > 0;
            a->gave_layout = TrainLayoutArgs::gave_layout(sub);
            return run_train(*a);
          }};
}

}  // namespace gfcli
