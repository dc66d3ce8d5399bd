// gpufabric perf COLLECTIVE [--cluster C] [--nodes N] [--fabric KIND] [--fabric-link TECH] [--gpus-per-node G | --gpus LIST] [-b MIN] [-e MAX] [-f F | -i STEP]
//                [-o OP] [-d TYPE] [-r ROOT] [--algo A] [--proto P] [--model M] [--routing P] [--seed S] [--format F]
// An nccl-tests sweep, simulated: the flags and the table are nccl-tests', so the output can be put
// beside a measured run.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <gpufabric/gpufabric.hpp>
#include <gpufabric/perf_context.hpp>
#include <iostream>
#include <optional>
#include <sstream>

#include "cluster_args.hpp"
#include <filesystem>
#include <fstream>
#include <optional>

#include "commands.hpp"
#include "progress.hpp"
#include "perf_faults.hpp"
#include "perf_noise.hpp"
#include "report_file.hpp"
#include "sweep_run.hpp"
#include "visible_gpus.hpp"

namespace gfcli {

namespace {

struct PerfOptions {
  std::string collective;
  ClusterArgs where;           // --nodes not given: the cluster's own server count
  int64_t gpus_per_node = 0;  // when not given: every GPU of a server
  CLI::Option* gpus_opt = nullptr;
  std::string gpus;            // --gpus 0,1,6,7: GPU indices of each server (else CUDA_VISIBLE_DEVICES)
  CLI::Option* gpus_list_opt = nullptr;
  // nccl-tests' defaults: -b 32M -e 32M, and a 1M linear step unless -f is given.
  std::string minbytes = "32M", maxbytes = "32M", stepbytes;
  double stepfactor = 1;
  CLI::Option* factor_opt = nullptr;
  std::string op = "sum", datatype = "float";
  int64_t root = 0;
  std::string algo = "auto", proto = "auto", model = gf::default_model_name();
  std::string routing = "ecmp";
  int64_t seed = 0;  // signed, so that -1 is refused rather than read as 2^64-1
  // nccl-tests' -g (GPUs per thread), -n / -w (iterations, warm-up) and -c (check data).
  int64_t gpus_per_thread = 1;
  int64_t iters = 20, warmup = 5, check = 1;
  CLI::Option* iters_opt = nullptr;
  CLI::Option* warmup_opt = nullptr;
  CLI::Option* check_opt = nullptr;
  std::string format = "text";
  std::vector<std::string> env;  // --env KEY=VALUE, after the process environment's NCCL_* variables
  std::string trace, trace_ranks, trace_links = "top:32";  // --trace FILE: a Perfetto timeline
  std::string html;                                       // --html FILE: the sweep as a page with charts
  std::string heatmap_size;                               // --heatmap-size: the size whose link loads it draws
  bool force = false;                                     // --force: --trace / --html may replace FILE
  const CLI::App* app = nullptr;                          // for the command line the page prints
  FaultArgs faults;              // --fail, --degrade
  NoiseArgs noise;               // --straggler, --jitter
  SweepArgs sweep;               // --set, --zip, -j: a grid of points (sweep_run.hpp)
};

const std::vector<std::string> kFormats = {"text", "json", "csv"};
const std::vector<std::string> kProtocols = {"auto", "ll", "ll128", "simple"};
const std::vector<std::string> kRedops = {"sum", "prod", "min", "max", "avg"};

std::string shortest(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

std::string lower(const std::string& s) { return gf::ascii_lower(s); }

void check_member(const std::string& flag, const std::string& what, const std::string& value,
                  const std::vector<std::string>& valid) {
  if (std::find(valid.begin(), valid.end(), value) == valid.end())
    throw gf::InputError({}, flag, "unknown " + what + " '" + value + "'", gf::suggest(value, valid));
}

gf::Bytes size_flag(const std::string& flag, const std::string& text) {
  try {
    return gf::parse_size(text);
  } catch (const gf::UnitError& e) {
    throw gf::InputError({}, flag, e.what(), "sizes look like 8, 1K, 128M, 8G");
  }
}

// Everything that can be checked before the cluster is built, so a typo fails fast.
gf::SweepOptions sweep_options(const PerfOptions& o) {
  gf::SweepOptions s;
  auto kind = gf::parse_collective(o.collective);
  if (!kind)
    throw gf::InputError({}, "COLLECTIVE", "unknown collective '" + o.collective + "'",
                         gf::suggest(o.collective, gf::collective_names()) + " (the nccl-tests binary names, e.g. " +
                             "all_reduce_perf, work too)");
  s.call.kind = *kind;
  auto type = gf::parse_datatype(o.datatype);
  if (!type)
    throw gf::InputError({}, "-d", "unknown datatype '" + o.datatype + "'", gf::suggest(o.datatype, gf::datatype_names()));
  s.call.type = *type;
  auto op = gf::parse_redop(o.op);
  if (!op) throw gf::InputError({}, "-o", "unknown reduction '" + o.op + "'", gf::suggest(o.op, kRedops));
  s.call.redop = *op;
  s.call.root = static_cast<int>(std::clamp<int64_t>(o.root, -1, INT32_MAX));

  s.min_bytes = size_flag("-b", o.minbytes);
  s.max_bytes = size_flag("-e", o.maxbytes);
  // A per-rank buffer beyond 1 TiB exceeds any GPU's memory by far.
  for (auto [flag, b] : {std::pair{"-b", s.min_bytes}, std::pair{"-e", s.max_bytes}})
    if (b > gf::Bytes::gib(1024))
      throw gf::InputError({}, flag, std::to_string(b.count()) + " B is more than a GPU could hold", "use at most 1T");
  if (s.min_bytes > s.max_bytes)
    throw gf::InputError({}, "-b",
                         "minimum size " + std::to_string(s.min_bytes.count()) + " B is larger than maximum size (-e) " +
                             std::to_string(s.max_bytes.count()) + " B",
                         "make -b at most -e");
  const int elem = s.call.type.size;
  for (auto [flag, b] : {std::pair{"-b", s.min_bytes}, std::pair{"-e", s.max_bytes}})
    if (b.count() % elem != 0)
      throw gf::InputError({}, flag,
                           std::to_string(b.count()) + " B is not a multiple of the " + s.call.type.name +
                               " element size (" + std::to_string(elem) + " B)",
                           "use a multiple of " + std::to_string(elem));

  // Step: nccl-tests multiplies by -f when it is above 1, else adds -i (default 1M).
  const bool factor_given = o.factor_opt->count() > 0;
  if (factor_given && !o.stepbytes.empty() && o.stepfactor > 1)
    throw gf::InputError({}, "-f", "both -f and -i were given", "use -f for a geometric sweep or -i for a linear one");
  // Bounded so that size x factor stays far inside 64-bit byte counts.
  if (factor_given && !(o.stepfactor >= 1 && o.stepfactor <= 1e6))
    throw gf::InputError({}, "-f", "the step factor must be between 1 and 1e6, got " + shortest(o.stepfactor),
                         "use e.g. -f 2");
  // nccl-tests reads -f as a whole number (strtol), so -f 1.5 there is -f 1; a fraction here would
  // repeat sizes (8 x 1.3 = 10.4 -> 10, ...) or stop after one row (8 x 1.1 = 8.8 -> 8).
  if (factor_given && o.stepfactor != std::floor(o.stepfactor))
    throw gf::InputError({}, "-f", "the step factor must be a whole number, got " + shortest(o.stepfactor),
                         "use -f 2 (nccl-tests reads -f as a whole number too)");
  if (o.stepfactor > 1) {
    s.factor = o.stepfactor;
    s.step_bytes = 0;
  } else {
    gf::Bytes step = o.stepbytes.empty() ? gf::Bytes::mib(1) : size_flag("-i", o.stepbytes);
    if (step.count() <= 0) throw gf::InputError({}, "-i", "the step must be greater than zero", "use e.g. -i 1M");
    if (step.count() % elem != 0)
      throw gf::InputError({}, "-i",
                           std::to_string(step.count()) + " B is not a multiple of the " + s.call.type.name +
                               " element size (" + std::to_string(elem) + " B)",
                           "use a multiple of " + std::to_string(elem));
    s.step_bytes = step.count();
  }

  std::vector<std::string> algos = gf::algorithm_names();
  algos.insert(algos.begin(), "auto");
  s.algo = lower(o.algo);
  check_member("--algo", "algorithm", s.algo, algos);
  s.proto = lower(o.proto);
  check_member("--proto", "protocol", s.proto, kProtocols);
  s.model = lower(o.model);
  gf::require_model(s.model, {}, "--model");
  if (o.seed < 0)
    throw gf::InputError({}, "--seed", "must be 0 or more, got " + std::to_string(o.seed), "use e.g. --seed 1");
  s.seed = static_cast<uint64_t>(o.seed);
  if (o.gpus_per_thread < 1 || o.gpus_per_thread > 64)
    throw gf::InputError({}, "-g", "GPUs per thread must be from 1 to 64, got " + std::to_string(o.gpus_per_thread),
                         "nccl-tests runs one process per GPU with -g 1");
  s.gpus_per_thread = static_cast<int>(o.gpus_per_thread);
  s.compare_choices = true;  // a user comparing with their own run wants to know when forcing helps
  for (auto [flag, v] : {std::pair<const char*, int64_t>{"-n", o.iters}, {"-w", o.warmup}, {"-c", o.check}})
    if (v < 0) throw gf::InputError({}, flag, "must be 0 or more, got " + std::to_string(v), "as nccl-tests takes it");
  const std::string routing = lower(o.routing);
  check_member("--routing", "routing policy", routing, gf::routing_policy_names());
  s.routing = *gf::parse_routing_policy(routing);
  check_member("--format", "format", o.format, kFormats);
  // NCCL's environment: the process's NCCL_* variables, then --env in the order given.
  gf::apply_nccl_env(s.nccl, gf::nccl_vars_from_environment(), "environment", s.algo != "auto", s.proto != "auto");
  std::vector<std::pair<std::string, std::string>> flags;
  for (const std::string& kv : o.env) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw gf::InputError({}, "--env", "'" + kv + "' is not KEY=VALUE", "e.g. --env NCCL_ALGO=ring");
    if (kv.rfind("NCCL_", 0) != 0)
      throw gf::InputError({}, "--env", "'" + kv.substr(0, eq) + "' is not an NCCL_* variable",
                           "gpufabric reads NCCL's settings, e.g. --env NCCL_COLLNET_ENABLE=1");
    flags.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  gf::apply_nccl_env(s.nccl, flags, "--env", s.algo != "auto", s.proto != "auto");
  s.noise = o.noise.options(o.iters, s.seed);
  return s;
}

int run_perf(const PerfOptions& o) {
  gf::SweepOptions s = sweep_options(o);
  const bool gpus_given = o.gpus_opt->count() > 0;
  const std::optional<VisibleGpus> visible = visible_gpus(o.gpus, o.gpus_list_opt->count() > 0);
  if (visible && gpus_given)
    throw gf::InputError({}, "--gpus-per-node", "is given beside " + visible->from + ", which already names the GPUs",
                         "give one of them");
  if (o.sweep.active()) {
    if (visible)
      throw gf::InputError({}, visible->from, "chooses GPUs for one sweep, not a grid of them",
                           "give --gpus-per-node for a grid's points (and unset CUDA_VISIBLE_DEVICES), or drop --set");
    if (!o.trace.empty()) throw gf::InputError({}, "--trace", "draws one sweep, not a grid of them", "drop --set, or --trace");
    if (!o.html.empty()) throw gf::InputError({}, "--html", "draws one sweep, not a grid of them", "drop --set, or --html");
    if (s.noise.any())
      throw gf::InputError({}, "--straggler", "spreads one sweep over iterations, not a grid", "drop --set, or --straggler / --jitter");
    if (!o.faults.requests().empty())
      throw gf::InputError({}, "--fail", "compares one cluster with its healthy self, not a grid", "drop --set, or --fail / --degrade");
    if (gpus_given && o.gpus_per_node < 1)
      throw gf::InputError({}, "--gpus-per-node", "must be at least 1", "e.g. --gpus-per-node 8");
    return run_param_perf(o.sweep, o.where, gpus_given ? o.gpus_per_node : 0, s, o.format);
  }
  if (o.sweep.jobs != 1 || o.sweep.zip)
    throw gf::InputError({}, o.sweep.zip ? "--zip" : "-j", "shapes a sweep over --set keys, and none was given",
                         "add --set KEY=V1,V2,... (docs/sweeps.md)");
  const std::optional<int64_t> nodes = o.where.nodes_given();
  if (gpus_given && o.gpus_per_node < 1)
    throw gf::InputError({}, "--gpus-per-node", "must be at least 1", "e.g. --gpus-per-node 8");
  std::vector<gf::FaultRequest> faults = o.faults.requests();
  // The packet model drops packets at a --degrade loss rate; the other models cost it as a
  // bandwidth penalty on the link (docs/failures.md, "Latency and loss").
  for (gf::FaultRequest& f : faults) f.loss_as_drops = s.model == "packet";
  // rtt= sets the flow model's go-back-N window; the packet model's round trip is its path's own
  // (wires, queues and the NAK's way back), so a given one would be silently unused there.
  if (s.model == "packet")
    for (const std::string& d : o.faults.degrade)
      if (d.find(",rtt=") != std::string::npos)
        throw gf::InputError({}, "--degrade",
                             "'" + d + "': rtt= sets the go-back-N round trip of the flow and analytical models' "
                             "loss penalty; the packet model's round trip is the path's own, so it would be unused",
                             "drop ,rtt=... under --model packet, or use --model flow");
  const gf::FailureResponse response = o.faults.response(s.routing);
  const gf::ClusterOverrides over = gf::with_ib_hca(o.where.overrides(), s.nccl);
  const gf::Simulation sim = faults.empty() ? gf::Simulation::load(o.where.name(), over)
                                            : gf::Simulation::load(o.where.name(), over, faults);
  // The ranks: every server taking part, and on each the GPUs --gpus / CUDA_VISIBLE_DEVICES name
  // (in their order) or the first --gpus-per-node (default: all).
  // --without-failed-servers: the servers a --fail took down leave the job (the failed run only;
  // the baseline is the whole job).
  const auto communicator = [&](const gf::Simulation& on, const std::vector<int64_t>& leave_out) {
    if (!visible && leave_out.empty()) return on.communicator(nodes.value_or(0), gpus_given ? o.gpus_per_node : 0);
    if (visible) check_visible_gpus(*visible, on.cluster().gpus_per_server());
    std::vector<int64_t> servers;
    for (int64_t i = 0; i < nodes.value_or(on.cluster().servers()); ++i)
      if (std::find(leave_out.begin(), leave_out.end(), i) == leave_out.end()) servers.push_back(i);
    if (servers.empty())
      throw gf::InputError({}, "--without-failed-servers", "every server of the job is down; none is left to run on",
                           "fail fewer servers, or give --nodes to include healthy ones");
    std::vector<int> positions;
    if (visible) {
      positions = visible->positions;
    } else {
      const int g = gpus_given ? o.gpus_per_node : on.cluster().gpus_per_server();
      for (int i = 0; i < g; ++i) positions.push_back(i);
    }
    return gf::make_communicator(on.cluster(), on.router(), servers, positions);
  };
  if (o.faults.without_failed && failed_servers(sim).empty())
    throw gf::InputError({}, "--without-failed-servers", "leaves out the servers a --fail takes down, and none is",
                         "add --fail serverN (a whole server), or drop --without-failed-servers");
  const std::vector<int64_t> left_out = o.faults.without_failed ? failed_servers(sim) : std::vector<int64_t>{};
  gf::Communicator comm = communicator(sim, left_out);
  for (const auto& f : sim.faults())
    if (f.gpu != gf::kNoNode) s.slow_gpus.emplace_back(f.gpu, f.compute);
  for (const auto& f : sim.faults())
    for (gf::LinkId l : f.loss > 0 ? f.links : std::vector<gf::LinkId>{}) {
      s.link_losses.emplace_back(l, f.loss);
      s.link_losses.emplace_back(sim.cluster().link(l).reverse, f.loss);
    }
  if (gf::is_rooted(s.call.kind) && (o.root < 0 || o.root >= comm.nranks))
    throw gf::InputError({}, "-r", "root " + std::to_string(o.root) + " is not a rank (there are " +
                                       std::to_string(comm.nranks) + " ranks)",
                         "use -r 0.." + std::to_string(comm.nranks - 1));

  gf::PerfContext ctx = gf::perf_context(sim, comm, s);
  if (visible) ctx.notes.push_back(visible_gpus_line(*visible));
  if (s.noise.any())
    ctx.notes.push_back(noise_line(s.noise));
  else if (o.iters_opt->count() + o.warmup_opt->count() + o.check_opt->count() > 0)
    ctx.notes.push_back("-n, -w and -c are taken as nccl-tests takes them and change nothing here: a simulated call has "
                        "no run-to-run spread to average and no data to check");
  if (s.gpus_per_thread > 1)
    ctx.notes.push_back("-g " + std::to_string(s.gpus_per_thread) + ": one thread launches " +
                        std::to_string(s.gpus_per_thread) + " GPUs' kernels one after another, so each call ends " +
                        std::to_string(s.gpus_per_thread - 1) + " x 2.4 us later (fitted to NVIDIA/nccl-tests #123)");

  if (!faults.empty()) {
    const std::vector<int64_t> lost = sim.unreachable(comm);
    if (!lost.empty()) {
      std::cout << unreachable_report(sim, comm, lost);
      return 1;
    }
    for (auto& l : fault_lines(sim)) ctx.notes.push_back(std::move(l));
    if (!left_out.empty())
      ctx.notes.push_back(fmt::format("--without-failed-servers: the job runs on its {} servers left ({} ranks); the "
                                      "baseline is the whole job",
                                      comm.nnodes, comm.nranks));
  }
  if (!o.html.empty()) check_new_file(o.html, o.force, "--html");
  std::ofstream trace_out;
  RemoveUnlessKept trace_file;
  std::optional<gf::TraceWriter> trace;
  gf::Time at = gf::Time::zero();
  if (!o.trace.empty()) {
    if (std::filesystem::exists(o.trace) && !o.force)
      throw gf::InputError({}, "--trace", "'" + o.trace + "' exists and was not overwritten", "name another file, or add --force");
    gf::TraceOptions to;
    if (!o.trace_ranks.empty()) to.ranks = gf::parse_rank_ranges(o.trace_ranks, "--trace-ranks");
    to.top_links = gf::parse_top_links(o.trace_links, "--trace-links");
    trace.emplace(comm, sim.router(), to);
    // Each size's events go to the file when its call is drawn (TraceWriter::stream): the records
    // of the whole sweep are not kept. A sweep that fails leaves no file behind (trace_file).
    trace_out.open(o.trace, std::ios::binary);
    if (!trace_out) throw gf::InputError({}, "--trace", "could not write '" + o.trace + "'", "check the folder exists and is writable");
    trace_file.path = o.trace;
    trace->stream(trace_out);
    s.port_timelines = true;  // the packet model's queues, for the busiest links' counters
    // Sizes one after another on the timeline, 10 us apart so each call's slices stand apart.
    s.on_run = [&](const gf::SweepRow& row, const gf::Schedule& sched, const gf::ScheduleRun& run,
                   gf::RouteCache& routes) {
      trace->add_call(std::string(gf::to_string(s.call.kind)) + " " + gf::to_string(row.size), sched, run, at, s.seed,
                      s.routing, &routes);
      at = at + run.duration + gf::Time::us(10);
    };
  } else if (!o.trace_ranks.empty() || o.trace_links != "top:32") {
    throw gf::InputError({}, o.trace_ranks.empty() ? "--trace-links" : "--trace-ranks", "only shapes a --trace timeline",
                         "add --trace FILE");
  }
  Progress progress("gpufabric perf " + std::string(gf::to_string(s.call.kind)));
  s.progress = [&](size_t done, size_t total, gf::Bytes last) {
    progress.update(done, total, gf::to_string(last) + " done");
  };
  // Inside each size's run too, so the line moves within a size that takes seconds (only on a
  // terminal: off one nothing is followed).
  gf::RunTick tick;
  tick.every = Progress::kTickEvents;
  tick.fn = [&](gf::Time now, size_t events, double done) { progress.tick(now, events, done); };
  if (progress.on()) {
    s.tick = &tick;
    // After a size's chosen option, the others it is compared with (the faster-choice note): LL
    // on a large size can take longer than the chosen run.
    s.option_progress = [&](size_t k, size_t n, const std::string& algorithm, gf::Protocol proto) {
      progress.run("other option " + algorithm + "/" + std::string(gf::to_string(proto)) + ", " + std::to_string(k + 1) +
                   " of " + std::to_string(n));
    };
    progress.update(0, static_cast<size_t>(std::max<int64_t>(1, gf::sweep_row_count(s))), "first size");
  }
  // With failures: the links that carried the cost are the largest size's, from its own routes.
  // The link-load pass routes the whole schedule once more, so it runs for that size alone: the
  // sweep reports progress before each size but the first, with the index of the size it starts.
  std::vector<double> failed_busy, base_busy;
  const size_t last_size = faults.empty() ? 0 : gf::sweep_sizes(s).size() - 1;
  size_t failed_at = 0, base_at = 0;  // the size each sweep is running
  if (!faults.empty()) {
    auto traced = s.on_run;
    s.on_run = [&, traced](const gf::SweepRow& row, const gf::Schedule& sched, const gf::ScheduleRun& run,
                           gf::RouteCache& routes) {
      if (traced) traced(row, sched, run, routes);
      if (failed_at == last_size) failed_busy = gf::link_busy_seconds(sched, comm, sim.router(), s.seed, s.routing);
    };
    auto shown = s.progress;
    s.progress = [&, shown](size_t done, size_t total, gf::Bytes last) {
      failed_at = done;
      shown(done, total, last);
    };
  }
  // --html: the link loads of one size's call (the largest, or --heatmap-size) for its heatmap, and
  // each size's time split for the breakdown.
  std::optional<gf::html::PerfHeat> heat;
  std::vector<gf::html::PerfSplit> splits;
  if (!o.html.empty()) {
    const std::vector<gf::Bytes> sizes = gf::sweep_sizes(s);
    const gf::Bytes target = o.heatmap_size.empty() ? sizes.back() : size_flag("--heatmap-size", o.heatmap_size);
    if (std::find(sizes.begin(), sizes.end(), target) == sizes.end())
      throw gf::InputError({}, "--heatmap-size", std::to_string(target.count()) + " B is not one of the sweep's sizes",
                           "use one of -b .. -e, e.g. --heatmap-size " + std::to_string(sizes.back().count()));
    auto before = s.on_run;
    s.on_run = [&, before, target](const gf::SweepRow& row, const gf::Schedule& sched, const gf::ScheduleRun& run,
                                   gf::RouteCache& routes) {
      if (before) before(row, sched, run, routes);
      splits.push_back({row.size, sched.base_latency(), run.duration - sched.base_latency()});
      if (row.size != target) return;
      std::vector<double> bytes = gf::link_busy_seconds(sched, comm, sim.router(), s.seed, s.routing);
      for (size_t l = 0; l < bytes.size(); ++l)
        bytes[l] *= sim.cluster().link(static_cast<gf::LinkId>(l)).bandwidth.bytes_per_second();
      heat = gf::html::PerfHeat{row.size, gf::link_tiers(sim.cluster(), bytes, run.duration.to_s())};
    };
  } else if (!o.heatmap_size.empty()) {
    throw gf::InputError({}, "--heatmap-size", "only shapes an --html page", "add --html FILE");
  }
  // The progress line counts each size's simulated time and events when its run ends.
  {
    auto before = s.on_run;
    s.on_run = [&, before](const gf::SweepRow& row, const gf::Schedule& sched, const gf::ScheduleRun& run,
                           gf::RouteCache& routes) {
      if (before) before(row, sched, run, routes);
      progress.end_run(run.events, run.duration);
    };
  }
  std::vector<gf::SweepRow> rows = sim.sweep(comm, s);
  progress.finish();
  std::vector<gf::SweepRow> base;
  std::optional<gf::Simulation> healthy;
  if (!faults.empty() && !o.faults.no_baseline) {
    // The healthy cluster's sweep for the baseline columns: not traced, and its own progress line.
    gf::SweepOptions healthy_s = s;
    healthy_s.slow_gpus.clear();
    healthy_s.link_losses.clear();
    healthy_s.packet_seeded = !s.link_losses.empty();  // the same packet draws but the drops
    // The baseline columns are each size's time and busbw: the other options' times, which only
    // feed the faster-choice notes of the failed run's own table, are not simulated for it.
    healthy_s.compare_choices = false;
    healthy_s.tick = nullptr;  // its line shows sizes only
    healthy_s.option_progress = nullptr;
    healthy.emplace(gf::Simulation::load(o.where.name(), over));
    const gf::Communicator healthy_comm = communicator(*healthy, {});
    Progress baseline_progress("gpufabric perf baseline (no failures)");
    healthy_s.on_run = [&](const gf::SweepRow&, const gf::Schedule& sched, const gf::ScheduleRun& run, gf::RouteCache&) {
      if (base_at == last_size) base_busy = gf::link_busy_seconds(sched, healthy_comm, healthy->router(), s.seed, s.routing);
      baseline_progress.end_run(run.events, run.duration);
    };
    healthy_s.progress = [&](size_t done, size_t total, gf::Bytes last) {
      base_at = done;
      baseline_progress.update(done, total, gf::to_string(last) + " done");
    };
    base = healthy->sweep(healthy_comm, healthy_s);
    baseline_progress.finish();
  }
  if (trace) {
    std::ofstream& out = trace_out;
    const size_t events = trace->write(out);
    out.flush();
    if (out) trace_file.keep = true;
    if (!out) throw gf::InputError({}, "--trace", "could not write '" + o.trace + "'", "check the folder exists and is writable");
    std::cerr << "gpufabric: wrote " << o.trace << ": " << events << " trace events"
              << (trace->left_out() ? ", " + std::to_string(trace->left_out()) + " transfer slices left out (over the size guard; narrow with --trace-ranks)" : "")
              << (trace->steps_left_out() ? ", " + std::to_string(trace->steps_left_out()) + " step slices left out" : "")
              << "; open it in https://ui.perfetto.dev or chrome://tracing\n";
  }
  if (!o.html.empty()) {
    write_file(o.html, gf::html::perf_html(s, ctx, rows, {command_line(*o.app), version_text()}, heat ? &*heat : nullptr, splits),
               "--html");
    std::cerr << "gpufabric: wrote " << o.html << " (open it in a browser; it needs no network)\n";
  }
  // The links that carried the cost at the largest size (none without a baseline to compare).
  const std::vector<gf::LinkCost> cost_links =
      base.empty() || rows.empty() ? std::vector<gf::LinkCost>{}
                                   : gf::links_that_carried_the_cost(sim.cluster(), failed_busy, base_busy, 5);
  // Under -n with a failure: the link that carried its cost, to weigh against the late ranks.
  LinkHolder holder;
  if (!cost_links.empty()) holder = {cost_links.front().from + " -> " + cost_links.front().to, &base};
  if (o.format == "json") {
    auto j = gf::nccl_table_json(s, ctx, rows);
    if (!faults.empty()) {
      add_comparison_json(j, sim, base, cost_links);
      j["timeline"] = timeline_json(sim, response);
    }
    if (s.noise.any()) add_iterations_json(j, comm, s.noise, rows, holder);
    std::cout << json_text(j) << "\n";
  } else if (o.format == "csv") {
    std::cout << gf::nccl_table_csv(s, rows);
  } else {
    std::cout << gf::nccl_table_text(s, ctx, rows);
    if (!faults.empty()) {
      if (base.empty())
        std::cout << "#\n# --no-baseline: the run without the failures was skipped (no comparison, no cost links)\n";
      else
        std::cout << comparison_text(rows, base);
      std::cout << "#\n" << timeline_text(sim, response);
      if (!rows.empty() && !base.empty())
        std::cout << (cost_links.empty() && !s.link_losses.empty()
                          ? "#\n# no link's load grew: the drops cost the packets resent after each loss (go-back-N), which\n"
                            "# busy time, counting each byte of the call once, does not show\n"
                          : cost_links_text(rows.back().size, cost_links));
    }
    if (s.noise.any()) std::cout << iterations_text(comm, s.noise, rows, holder);
  }
  return 0;
}

}  // namespace

Command add_perf(CLI::App& root, const SweepArgs* from_file) {
  auto o = std::make_shared<PerfOptions>();
  CLI::App* sub = root.add_subcommand("perf", "Simulate an nccl-tests sweep and print its table (busbw, algbw, time)");
  sub->add_option("collective", o->collective,
                  "all_reduce, all_gather, reduce_scatter, broadcast, reduce, alltoall or sendrecv "
                  "(nccl-tests binary names such as all_reduce_perf work too)")
      ->required();
  o->where.add(sub, false, "Servers taking part (default: all of the cluster's; given: the cluster has this many)");
  o->gpus_opt = sub->add_option("--gpus-per-node", o->gpus_per_node, "Ranks per server (default: every GPU of a server)");
  o->gpus_list_opt = sub->add_option("--gpus", o->gpus,
                                     "GPU indices of each server, e.g. 0,1,6,7, as CUDA_VISIBLE_DEVICES (read when this is "
                                     "not given) chooses them for nccl-tests");
  sub->add_option("-b,--minbytes", o->minbytes, "Smallest size, e.g. 8, 1K, 128M (default 32M)");
  sub->add_option("-e,--maxbytes", o->maxbytes, "Largest size, e.g. 8G (default 32M)");
  o->factor_opt = sub->add_option("-f,--stepfactor", o->stepfactor, "Multiply the size by this each step (1: step by -i)");
  sub->add_option("-i,--stepbytes", o->stepbytes, "Add this to the size each step when -f is not given (default 1M)");
  sub->add_option("-o,--op", o->op, "Reduction: sum, prod, min, max, avg (default sum)");
  sub->add_option("-d,--datatype", o->datatype, "Element type: float, half, bfloat16, double, int8, ... (default float)");
  sub->add_option("-r,--root", o->root, "Root rank of broadcast and reduce (default 0)");
  sub->add_option("--algo", o->algo, "auto or an algorithm (gpufabric list algorithms), like NCCL_ALGO");
  sub->add_option("--proto", o->proto, "auto, ll, ll128 or simple, like NCCL_PROTO");
  sub->add_option("--model", o->model, "Fidelity: analytical, flow (default) or packet");
  sub->add_option("--routing", o->routing, "Fabric paths: ecmp (per-flow hash, default), spray (even over equal-cost paths) or adaptive (least-loaded next hop)");
  sub->add_option("--seed", o->seed, "Seed for ECMP hashing and anything random (default 0)");
  sub->add_option("-g,--ngpus", o->gpus_per_thread, "GPUs per thread, as nccl-tests' -g (default 1)");
  o->iters_opt = sub->add_option("-n,--iters", o->iters, "Iterations, as nccl-tests' -n (simulated with --straggler or --jitter; otherwise one call)");
  o->warmup_opt = sub->add_option("-w,--warmup_iters", o->warmup, "Warm-up iterations, as nccl-tests' -w (accepted)");
  o->check_opt = sub->add_option("-c,--check", o->check, "Check results, as nccl-tests' -c (accepted; no data moves)");
  sub->add_option("--format", o->format, "text (the nccl-tests table), json or csv");
  sub->add_option("--env", o->env,
                  "An NCCL setting, KEY=VALUE, as for a real run (repeatable; after the environment's NCCL_* "
                  "variables): NCCL_ALGO, NCCL_PROTO (with ^ to exclude), NCCL_COLLNET_ENABLE, NCCL_NVLS_ENABLE, "
                  "NCCL_MIN_NCHANNELS, NCCL_MAX_NCHANNELS, NCCL_IB_HCA, NCCL_P2P_DISABLE, NCCL_P2P_LEVEL, NCCL_SHM_DISABLE, "
                  "NCCL_NET, NCCL_NET_GDR_LEVEL, NCCL_PXN_DISABLE, NCCL_CROSS_NIC, NCCL_IB_QPS_PER_CONNECTION, "
                  "NCCL_IB_SPLIT_DATA_ON_QPS");
  sub->add_option("--trace", o->trace,
                  "Write a timeline (Trace Event Format JSON, opens in Perfetto or chrome://tracing): per rank and "
                  "channel, a slice per transfer, arrows for dependencies, counters for the busiest links");
  sub->add_option("--trace-ranks", o->trace_ranks, "With --trace: only these ranks' tracks, e.g. 0-15,32");
  sub->add_option("--trace-links", o->trace_links, "With --trace: counters for the N busiest links, top:N (default top:32)");
  sub->add_option("--html", o->html,
                  "Write the sweep as one self-contained HTML page: busbw and time against size for every "
                  "algorithm/protocol with NCCL's choice marked, and the table (docs/reports.md)");
  sub->add_option("--heatmap-size", o->heatmap_size,
                  "With --html: the size whose link utilisation the page draws (default: the largest)");
  sub->add_flag("--force", o->force, "With --trace or --html: replace the file if it exists");
  o->app = sub;
  o->faults.add(sub);
  o->noise.add(sub);
  o->sweep.add(sub);
  SweepArgs file = from_file ? *from_file : SweepArgs{};
  return {sub, [o, file] {
            if (file.from_file) {
              o->sweep.from_file = true;
              o->sweep.file_grid = file.file_grid;
              o->sweep.file_zip = file.file_zip;
            }
            return run_perf(*o);
          }};
}

}  // namespace gfcli
