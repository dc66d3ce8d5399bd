#include "workload/sweep.hpp"

#include <algorithm>

#include "collective/nccl_constants.hpp"
#include "core/error.hpp"
#include "model/analytical/analytical_model.hpp"
#include "model/flow/flow_model.hpp"
#include "model/model_factory.hpp"
#include "model/packet/link_flow_mode.hpp"
#include "model/packet/packet_model.hpp"
#include "model/packet/packet_params.hpp"
#include "engine/executor.hpp"
#include "engine/run_tick.hpp"
#include "engine/transfer_routes.hpp"
#include "nccl/faster_choice.hpp"

namespace gf {

int64_t sweep_row_count(const SweepOptions& o) {
  const int64_t lo = o.min_bytes.count(), hi = o.max_bytes.count();
  if (hi < lo) return 0;
  if (o.step_bytes > 0) return (hi - lo) / o.step_bytes + 1;
  int64_t rows = 0;
  for (int64_t s = lo; s <= hi; ++rows) {  // at most 64 doublings of an int64: no bound needed
    const int64_t next = static_cast<int64_t>(static_cast<double>(s) * o.factor);
    if (next <= s) return rows + 1;
    s = next;
  }
  return rows;
}

std::vector<Bytes> sweep_sizes(const SweepOptions& o) {
  if (const int64_t rows = sweep_row_count(o); rows > kMaxSweepRows)
    throw InputError({}, o.step_bytes > 0 ? "-i" : "-f",
                     "the sweep has " + std::to_string(rows) + " sizes; gpufabric runs at most " +
                         std::to_string(kMaxSweepRows) + " (each row is a whole simulation)",
                     o.step_bytes > 0 ? "use -f 2 for a geometric sweep, as nccl-tests users do, or a larger -i"
                                      : "narrow -b and -e");
  std::vector<Bytes> out;
  for (int64_t s = o.min_bytes.count(); s <= o.max_bytes.count();) {
    out.emplace_back(s);
    int64_t next = o.step_bytes > 0 ? s + o.step_bytes : static_cast<int64_t>(static_cast<double>(s) * o.factor);
    if (next <= s) break;  // factor 1 or size 0: one row, as nccl-tests does
    s = next;
  }
  return out;
}

namespace {

// nccl-tests' element count and printed size: AllGather, ReduceScatter and AllToAll split the
// buffer into one piece per rank, so the size is rounded down to a multiple of type x nranks.
std::pair<int64_t, Bytes> count_and_size(CollectiveKind k, Bytes size, int type, int nranks) {
  bool per_rank = k == CollectiveKind::AllGather || k == CollectiveKind::ReduceScatter || k == CollectiveKind::AllToAll;
  int64_t unit = per_rank ? static_cast<int64_t>(type) * nranks : type;
  int64_t count = size.count() / unit;
  return {per_rank ? count : count, Bytes(count * unit)};
}

void check(const Communicator& comm, const SweepOptions& o) {
  const int type = o.call.type.size;
  if (o.min_bytes > o.max_bytes)
    throw InputError({}, "-b", "minimum size " + std::to_string(o.min_bytes.count()) + " is larger than maximum size " +
                                   std::to_string(o.max_bytes.count()), "make -b at most -e");
  for (auto [flag, b] : {std::pair{"-b", o.min_bytes}, std::pair{"-e", o.max_bytes}})
    if (b.count() % type != 0)
      throw InputError({}, flag, std::to_string(b.count()) + " bytes is not a multiple of the " + o.call.type.name +
                                     " element size (" + std::to_string(type) + " bytes)",
                       "use a multiple of " + std::to_string(type));
  if (o.step_bytes == 0 && o.factor < 1)
    throw InputError({}, "-f", "the step factor must be at least 1", "use e.g. -f 2");
  if (is_rooted(o.call.kind) && (o.call.root < 0 || o.call.root >= comm.nranks))
    throw InputError({}, "-r", "root " + std::to_string(o.call.root) + " is not a rank (there are " +
                                   std::to_string(comm.nranks) + ")", "use -r 0.." + std::to_string(comm.nranks - 1));
  require_model(o.model, {}, "--model");
  // Random loss is recovered by go-back-N on a reliable connection; a lossy Ethernet link's legs
  // run TCP in the packet model, whose recovery from random loss is not modelled, so the drops
  // would silently change nothing there.
  if (o.model == "packet")
    for (const auto& [link, p] : o.link_losses) {
      const Link& l = comm.cluster->link(link);
      if (link_flow_mode(PacketParams{}.flow_control, comm.cluster->catalog().tech(l.tech).family) == LinkFlowMode::Lossy)
        throw InputError({}, "--degrade",
                         "loss on " + comm.cluster->node_name(l.src) + "-" + comm.cluster->node_name(l.dst) +
                             ": that link runs TCP in the packet model (lossy Ethernet), whose recovery from random "
                             "loss is not modelled; only reliable connections (InfiniBand, RoCE) go back N",
                         "use --model flow for the go-back-N bandwidth penalty, or degrade an InfiniBand or RoCE link");
    }
}


// The call run once per iteration with each rank's start delayed (workload/noise.hpp); the
// stragglers are resolved once, the jitter drawn per iteration.
IterationStats run_iterations(const Schedule& s, const Communicator& comm, const Router& router, const SweepOptions& o,
                              const PacketParams& packet, Time clean) {
  const std::vector<Time> fixed = straggler_delays(comm, o.noise.stragglers);
  std::vector<Time> times;
  std::vector<int> latest;
  std::vector<Time> latest_delay;
  std::vector<int> channel_of(static_cast<size_t>(s.size())), last_channels;
  for (TransferId id = 0; id < static_cast<TransferId>(s.size()); ++id) channel_of[static_cast<size_t>(id)] = s.transfer(id).channel;
  for (int it = 0; it < o.noise.iterations; ++it) {
    const std::vector<Time> delay = iteration_delays(fixed, o.noise.jitter, o.noise.seed, it);
    std::unique_ptr<Model> model = sweep_model(o, *comm.cluster, packet);
    const ScheduleRun run = run_schedule(s, comm, router, *model, o.seed, o.routing, nullptr, delay);
    times.push_back(run.duration);
    last_channels.push_back(last_channel(run.finish, channel_of));
    const auto last = std::max_element(delay.begin(), delay.end());  // first of equals: lowest rank
    latest.push_back(*last > Time::zero() ? static_cast<int>(last - delay.begin()) : -1);
    latest_delay.push_back(std::max(*last, Time::zero()));
  }
  IterationStats st = iteration_stats(clean, std::move(times), latest, comm.nranks);
  st.latest_delay = std::move(latest_delay);
  count_held_channels(st, last_channels);
  return st;
}

}  // namespace

std::unique_ptr<Model> sweep_model(const SweepOptions& o, const Cluster& c, PacketParams packet) {
  if (o.packet_seeded || !o.link_losses.empty()) packet.seed = o.seed;
  std::unique_ptr<Model> model = make_model(o.model, c, {}, packet);
  if (auto* flow = dynamic_cast<FlowModel*>(model.get()))
    for (const auto& [gpu, fraction] : o.slow_gpus) flow->set_gpu_compute(gpu, fraction);
  if (auto* am = dynamic_cast<AnalyticalModel*>(model.get()))
    for (const auto& [gpu, fraction] : o.slow_gpus) am->set_gpu_compute(gpu, fraction);
  if (auto* pm = dynamic_cast<PacketModel*>(model.get())) {
    for (const auto& [gpu, fraction] : o.slow_gpus) pm->set_gpu_compute(gpu, fraction);
    for (const auto& [link, p] : o.link_losses) pm->set_link_loss(link, p);
  }
  return model;
}

std::vector<SweepRow> run_sweep(const Communicator& comm, const Router& router, const SweepOptions& o) {
  check(comm, o);
  // --algo / --proto, when given, are a forced choice over whatever NCCL_ALGO / NCCL_PROTO said.
  const NcclSettings nccl = with_forced(o.nccl, o.algo, o.proto);
  std::vector<SweepRow> rows;
  const std::vector<Bytes> sizes = sweep_sizes(o);
  for (Bytes requested : sizes) {
    if (o.progress && !rows.empty()) o.progress(rows.size(), sizes.size(), rows.back().size);
    auto [count, size] = count_and_size(o.call.kind, requested, o.call.type.size, comm.nranks);
    SweepRow row;
    row.size = size;
    row.count = count;
    if (size.count() == 0) {  // nccl-tests prints a row with zero time for an empty buffer
      rows.push_back(row);
      continue;
    }
    CollectiveCall call = o.call;
    call.bytes = size;
    try {
      row.choice = choose(comm, router, call, nccl);
      const Algorithm* a = find_algorithm(row.choice.algorithm);
      Schedule s = a->build(comm, call, {row.choice.proto, row.choice.channels});
      // --routing adaptive under the packet model is its per-packet adaptive load balance, as a
      // switch with adaptive routing decides packet by packet; ecmp and spray keep the routes the
      // engine pins (LoadBalance::Auto).
      PacketParams packet;
      if (o.routing == RoutingPolicy::Adaptive) packet.load_balance = LoadBalance::Adaptive;
      std::unique_ptr<Model> model = sweep_model(o, *comm.cluster, packet);
      RouteCache routes(s, comm, router, o.seed, o.routing);
      ScheduleRun run = o.tick != nullptr ? run_schedule(s, comm, router, *model, o.seed, o.routing, &routes, *o.tick)
                                          : run_schedule(s, comm, router, *model, o.seed, o.routing, &routes);
      if (o.port_timelines) run.ports = model->port_timelines();
      row.time = run.duration;
      if (o.on_run) o.on_run(row, s, run, routes);
      if (o.compare_choices && o.link_losses.empty()) {
        const OptionsWatch watch{o.option_progress, o.tick};
        row.others = other_option_times(comm, router, call, nccl, row.choice, o.model, o.seed, o.routing, &watch);
        if (auto f = faster_of(row.others, row.time))
          row.choice.note += (row.choice.note.empty() ? "" : "; ") + faster_choice_note(*f);
      }
      if (o.noise.any()) {
        row.iterations = run_iterations(s, comm, router, o, packet, run.duration);
        row.time = row.iterations.mean;
      }
    } catch (const InputError&) {
      throw;
    } catch (const std::runtime_error& e) {
      // No route between two ranks, or a transfer the model never finishes: the cluster cannot
      // run this call, which is an input problem, named with the call.
      throw InputError({}, "--cluster",
                       std::string(to_string(call.kind)) + " of " + std::to_string(size.count()) + " B: " + e.what(),
                       "check that the cluster joins every GPU: gpufabric topo CLUSTER --path gpuA gpuB");
    }
    if (row.time.is_infinite() || row.time < Time::zero())
      throw InputError({}, "--cluster",
                       std::string(to_string(call.kind)) + " of " + std::to_string(size.count()) +
                           " B takes longer than gpufabric's clock holds (int64 picoseconds, 106 days)",
                       "a link of the cluster is far too slow for this size: check its bandwidths (docs/limits.md)");
    double seconds = row.time.to_s();
    row.algbw_gBps = seconds > 0 ? static_cast<double>(size.count()) / seconds / 1e9 : 0;
    row.busbw_gBps = row.algbw_gBps * busbw_factor(call.kind, comm.nranks);
    if (o.gpus_per_thread > 1) {  // the launches of one thread's GPUs come one after another
      const Time t = row.time + Time::us((o.gpus_per_thread - 1) * kSingleThreadLaunchPerGpuUs);
      const double scale = row.time.to_s() / t.to_s();
      row.algbw_gBps *= scale;
      row.busbw_gBps *= scale;
      row.time = t;
      for (OptionTime& other : row.others)
        other.time = other.time + Time::us((o.gpus_per_thread - 1) * kSingleThreadLaunchPerGpuUs);
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace gf
