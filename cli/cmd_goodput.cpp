// gpufabric goodput [--cluster C] [--nodes N] --days D [--checkpoint-interval auto|30m]
//                   [--checkpoint-write 60s | --checkpoint-size 5.7T --storage-bw 2TB/s] [--restart 10m]
//                   [--repair 24h] [--spares K] [--rates FILE] [--seed S] [--runs R]
//                   [--step-time T | --model M --tp T --pp P --dp D ...] [--format text|json]
// A training job's life under component failures, simulated many times (docs/failures.md).
#include <fmt/format.h>

#include <algorithm>
#include <gpufabric/gpufabric.hpp>
#include <iostream>
#include <memory>
#include <optional>

#include "cluster_args.hpp"
#include "commands.hpp"
#include "train_layout_args.hpp"

namespace gfcli {

namespace {

struct GoodputArgs {
  ClusterArgs where;
  std::string days, interval = "auto", write, restart = "10m", repair = "24h", step, rates, format = "text";
  std::string checkpoint_size, storage_bw;  // the checkpoint's write time from its size over the storage path
  std::string model, fidelity = "flow";     // the step time from `train`'s engine
  TrainLayoutArgs layout;
  int64_t spares = -1, seed = 0, runs = 1000;
};

// The job's step from `train`'s engine, on the job's servers, as `train` runs it for the same flags.
gf::TrainResult train_step(const GoodputArgs& a, const gf::ClusterOverrides& job, const gf::ModelShape& m) {
  gf::require_model(a.fidelity, {}, "--model-fidelity");
  const gf::Simulation sim = gf::Simulation::load(a.where.name(), job);
  gf::TrainOptions opt;
  opt.network_model = a.fidelity;
  return gf::run_training(sim.cluster(), sim.router(), m, a.layout.layout(m), opt,
                          gf::training_gpu_for(sim.spec().server.gpu));
}

std::string bytes_text(double b) {
  return b >= 1e12 ? fmt::format("{:.2f} TB", b / 1e12) : fmt::format("{:.1f} GB", b / 1e9);
}

std::string hours(double s) {
  if (s < 120) return fmt::format("{:.0f} s", s);
  if (s < 7200) return fmt::format("{:.1f} min", s / 60);
  return fmt::format("{:.2f} h", s / 3600);
}

int run_goodput_cmd(const GoodputArgs& a) {
  const std::vector<std::string> formats = {"text", "json"};
  if (std::find(formats.begin(), formats.end(), a.format) == formats.end())
    throw gf::InputError({}, "--format", "unknown format '" + a.format + "'", gf::suggest(a.format, formats));
  if (a.days.empty()) throw gf::InputError({}, "--days", "the job's length is required", "e.g. --days 54");
  gf::GoodputOptions o;
  o.days = gf::parse_duration_s("--days",
                                a.days + (a.days.find_first_not_of("0123456789.") == std::string::npos ? "d" : "")) /
           86400;
  if (a.interval != "auto") o.interval_s = gf::parse_duration_s("--checkpoint-interval", a.interval);
  o.restart_s = gf::parse_duration_s("--restart", a.restart);
  o.repair_s = gf::parse_duration_s("--repair", a.repair);
  if (!a.step.empty() && !a.model.empty())
    throw gf::InputError({}, "--step-time", "give --step-time or --model (whose step `train` times), not both",
                         "drop one of them");
  if (!a.step.empty()) o.step_s = gf::parse_duration_s("--step-time", a.step);
  if (a.seed < 0) throw gf::InputError({}, "--seed", "must be 0 or more", "e.g. --seed 1");
  o.seed = static_cast<uint64_t>(a.seed);
  if (a.runs < 1 || a.runs > 1000000)
    throw gf::InputError({}, "--runs", "must be from 1 to 1,000,000", "e.g. --runs 1000");
  o.runs = static_cast<int>(a.runs);
  const gf::FailureRates rates = a.rates.empty() ? gf::llama3_rates() : gf::load_failure_rates(a.rates);

  // The job holds --nodes servers of the cluster (all of them by default); the rest are spares.
  gf::ClusterOverrides over = a.where.overrides();
  const std::optional<int64_t> nodes = over.nodes;
  over.nodes.reset();
  const gf::ClusterSpec spec = gf::resolve_cluster(a.where.name(), over);
  const gf::ClusterCounts counts = gf::count_cluster(spec);
  const int64_t servers = nodes.value_or(spec.servers);
  o.servers = servers;
  o.gpus = servers * counts.shape.gpus_per_server;
  o.nics = servers * counts.shape.nics_per_server;
  int64_t switches = 0;
  for (const auto& t : counts.fabric.tiers) switches += t.switches;
  o.switches = spec.servers > 0 ? switches * servers / spec.servers : 0;
  o.spares = a.spares >= 0 ? a.spares : std::max<int64_t>(0, spec.servers - servers);
  gf::ClusterOverrides job = a.where.overrides();
  job.nodes = servers;
  // The fabric as built: which servers each leaf alone cables, and the leaves' spine links. The
  // job's servers are the cluster's first; a server named as the cluster is as many as the job.
  const gf::ClusterSpec fabric = spec.servers >= servers ? spec : gf::resolve_cluster(a.where.name(), job);
  if (gf::count_cluster(fabric).links_directed <= gf::kMaxBuildLinks) {
    const gf::FabricExposure e = gf::fabric_exposure(gf::build_cluster(fabric), servers);
    o.leaf_cut_off = e.cut_off;
    o.spine_links = e.spine_links;
  }
  std::optional<gf::TrainResult> step;
  std::optional<gf::ModelShape> shape;
  if (!a.model.empty()) {
    shape = gf::find_model(a.model);
    step = train_step(a, job, *shape);
    o.step_s = step->step_time_s;
  }
  // Checkpoint write: its size (given, or the model's weights and Adam state) over the job's
  // storage NICs or the storage system, whichever is narrower; else --checkpoint-write (60 s).
  std::optional<gf::CheckpointWrite> ckpt;
  const gf::Bandwidth nics = gf::storage_nic_bandwidth(spec);
  std::optional<gf::Bandwidth> storage;
  if (!a.storage_bw.empty()) {
    try {
      storage = gf::parse_bandwidth(a.storage_bw);
    } catch (const gf::UnitError& e) {
      throw gf::InputError({}, "--storage-bw", e.what(), "e.g. --storage-bw 2TB/s");
    }
  }
  std::optional<double> size;
  if (!a.checkpoint_size.empty())
    size = gf::parse_quantity(a.checkpoint_size, "--checkpoint-size");
  else if (shape)
    size = shape->parameters() * gf::kCheckpointBytesPerParam;
  const bool path_known = storage || nics.bytes_per_second() > 0;
  if (!a.write.empty() && (!a.checkpoint_size.empty() || storage))
    throw gf::InputError({}, "--checkpoint-write", "give the write time, or the size and storage bandwidth, not both",
                         "drop --checkpoint-write, or drop --checkpoint-size and --storage-bw");
  if (storage && !size)
    throw gf::InputError({}, "--storage-bw", "no checkpoint size to write over it",
                         "add --checkpoint-size (bytes, e.g. 5.7T) or --model");
  if (size && (path_known || !a.checkpoint_size.empty()) && a.write.empty()) {
    ckpt = gf::checkpoint_write(*size, servers, nics, storage);
    o.checkpoint_write_s = ckpt->seconds;
  } else {
    o.checkpoint_write_s = gf::parse_duration_s("--checkpoint-write", a.write.empty() ? "60s" : a.write);
  }

  const gf::GoodputResult r = gf::run_goodput(rates, o);
  // Tokens trained per day of wall time: the step's tokens at its pace, times the share of time
  // that is kept work.
  const double tokens_per_day = step ? step->tokens_per_step / step->step_time_s * 86400 * r.ett : 0;
  if (a.format == "json") {
    nlohmann::ordered_json j;
    j["cluster"] = spec.name.empty() ? a.where.name() : spec.name;
    j["servers"] = o.servers;
    j["gpus"] = o.gpus;
    j["spares"] = o.spares;
    j["days"] = o.days;
    j["runs"] = o.runs;
    j["seed"] = o.seed;
    j["rates_source"] = rates.source;
    j["checkpoint_interval_s"] = r.interval_s;
    j["checkpoint_write_s"] = o.checkpoint_write_s;
    if (ckpt) j["checkpoint"] = {{"bytes", ckpt->bytes}, {"bytes_per_s", ckpt->bytes_per_s}, {"limit", ckpt->limit}};
    if (step) {
      j["step_time_s"] = step->step_time_s;
      j["tokens_per_step"] = step->tokens_per_step;
      j["tokens_per_day"] = tokens_per_day;
    }
    j["leaves"] = o.leaf_cut_off.size();
    j["spine_links"] = o.spine_links;
    j["restart_s"] = o.restart_s;
    j["interruptions"] = {{"mean", r.interruptions}, {"sd", r.interruptions_sd}};
    j["mtbi_hours"] = r.mtbi_h;
    j["effective_training_time"] = {{"mean", r.ett}, {"sd", r.ett_sd}, {"p5", r.ett_p5}, {"p95", r.ett_p95}};
    j["lost_gpu_hours"] = r.lost_gpu_hours;
    nlohmann::ordered_json causes = nlohmann::ordered_json::array();
    for (const auto& c : r.causes)
      causes.push_back({{"cause", c.name},
                        {"blast", gf::to_string(c.blast)},
                        {"interruptions", c.interruptions},
                        {"slowdowns", c.slowdowns},
                        {"lost_gpu_hours", c.lost_gpu_hours}});
    j["causes"] = causes;
    j["slowdowns"] = r.slowdowns;
    j["best_checkpoint_interval_s"] = {{"simulated", r.best_s}, {"young", r.young_s}, {"daly", r.daly_s}};
    std::cout << json_text(j) << "\n";
    return 0;
  }
  std::string out;
  out += fmt::format("# goodput: {} servers x {} GPUs = {} GPUs of {}, {} spare servers, {:g} days, {} runs, seed {}\n",
                     o.servers, counts.shape.gpus_per_server, o.gpus, spec.name.empty() ? a.where.name() : spec.name,
                     o.spares, o.days, o.runs, o.seed);
  out += "# rates: " + rates.source + "\n";
  if (step)
    out += fmt::format("# step {:.3f} s ({}: {} x {} tokens; gpufabric train's engine, {} network model)\n",
                       step->step_time_s, step->model, step->layout.global_batch, step->layout.seq, a.fidelity);
  if (ckpt)
    out += fmt::format("# checkpoint {} ({}) over {:.1f} GB/s ({}): {:.1f} s to write\n", bytes_text(ckpt->bytes),
                       a.checkpoint_size.empty() ? fmt::format("{:.1f}B parameters x {:g} B", shape->parameters() / 1e9,
                                                               gf::kCheckpointBytesPerParam)
                                                 : "--checkpoint-size",
                       ckpt->bytes_per_s / 1e9, ckpt->limit, ckpt->seconds);
  size_t cut = 0;
  for (int64_t k : o.leaf_cut_off) cut += k > 0;
  out += fmt::format("# fabric: {} leaves ({} of them cut servers off when down), {} spine links (only slow the job)\n",
                     o.leaf_cut_off.size(), cut, o.spine_links);
  out += fmt::format("# checkpoint every {} of compute ({}), write {}, restart {}, repair {}\n", hours(r.interval_s),
                     a.interval == "auto" ? "auto: best simulated" : "given", hours(o.checkpoint_write_s),
                     hours(o.restart_s), hours(o.repair_s));
  gf::TextTable t({"cause", ">interruptions", ">lost GPU-hours"});
  for (const auto& c : r.causes)
    if (c.interruptions > 0)
      t.add({c.name, fmt::format("{:.2f}", c.interruptions), fmt::format("{:.0f}", c.lost_gpu_hours)});
  for (const auto& c : r.causes)
    if (c.slowdowns > 0) t.add({c.name + " (slows only)", fmt::format("({:.2f})", c.slowdowns), "-"});
  t.add({"total", fmt::format("{:.2f}", r.interruptions), fmt::format("{:.0f}", r.lost_gpu_hours)});
  out += t.render();
  out += fmt::format("interruptions per run     {:.1f} (sd {:.1f})\n", r.interruptions, r.interruptions_sd);
  out += fmt::format("mean time between them   {:.2f} h\n", r.mtbi_h);
  out += fmt::format("effective training time  {:.2f}% (sd {:.2f}, p5 {:.2f}%, p95 {:.2f}%)\n", 100 * r.ett,
                     100 * r.ett_sd, 100 * r.ett_p5, 100 * r.ett_p95);
  if (step) out += fmt::format("tokens per day           {:.4g} (at that effective training time)\n", tokens_per_day);
  out += fmt::format("best checkpoint interval simulated {} ({:.2f}%), Young {}, Daly {}\n", hours(r.best_s),
                     100 * r.best_ett, hours(r.young_s), hours(r.daly_s));
  std::cout << out;
  return 0;
}

}  // namespace

Command add_goodput(CLI::App& root) {
  auto a = std::make_shared<GoodputArgs>();
  CLI::App* sub = root.add_subcommand(
      "goodput",
      "A training job's life under failures: interruptions by cause, effective training time, checkpoint interval");
  a->where.add(sub, false, "Servers the job runs on (default: all of the cluster's; the rest are spares)");
  sub->add_option("--days", a->days, "The job's wall-clock length in days, e.g. 54 (or 36h)");
  sub->add_option("--checkpoint-interval", a->interval, "auto (the best simulated) or a duration of compute, e.g. 30m");
  sub->add_option("--checkpoint-write", a->write,
                  "Time the job stops to write a checkpoint (default 60s, or the size over the storage path)");
  sub->add_option("--checkpoint-size", a->checkpoint_size,
                  "Checkpoint bytes, e.g. 5.7T (powers of 1000; default with --model: 14 B per parameter, weights + "
                  "Adam state)");
  sub->add_option("--storage-bw", a->storage_bw,
                  "Storage system write bandwidth, e.g. 2TB/s (default: the servers' storage NICs, if listed)");
  sub->add_option("--restart", a->restart, "From detection to computing again (default 10m)");
  sub->add_option("--repair", a->repair, "A failed server back in the spare pool (default 24h)");
  sub->add_option("--spares", a->spares, "Spare servers (default: the cluster's servers beyond --nodes)");
  sub->add_option("--rates", a->rates, "YAML file of failure rates (default: a fit to Llama 3's 54 days)");
  sub->add_option("--seed", a->seed, "Seed of the Monte Carlo (default 0)");
  sub->add_option("--runs", a->runs, "Monte Carlo runs (default 1000)");
  sub->add_option("--step-time", a->step, "Training step time: checkpoints fall on step boundaries");
  sub->add_option("--model", a->model,
                  "Model preset or YAML file: the step time from `gpufabric train` with the layout flags below, and "
                  "the checkpoint size");
  a->layout.add(sub);
  sub->add_option("--model-fidelity", a->fidelity,
                  "With --model: network model for the step's collectives: analytical, flow or packet (default flow)");
  sub->add_option("--format", a->format, "text or json");
  return {sub, [a] { return run_goodput_cmd(*a); }};
}

}  // namespace gfcli
