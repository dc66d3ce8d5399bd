#include "inference/moe_dispatch.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "collective/algorithm.hpp"
#include "core/error.hpp"
#include "core/hash.hpp"
#include "engine/job_runner.hpp"
#include "engine/transfer_routes.hpp"
#include "training/group_collectives.hpp"
#include "model/model_factory.hpp"

namespace gf {

namespace {

// Fixed costs, by judgement and not fitted to DeepEP's table (the same launch and barrier figures
// as the custom all-reduce, inference/serving_allreduce.cpp): low-latency, one launch and one wait
// for every peer's completion signal; normal, one more barrier for the count exchange that
// precedes the data (DeepEP's "notify" step, after which the CPU learns how much it receives).
constexpr double kLaunchUs = 2.4, kBarrierUs = 1.0;

// DeepEP's low-latency kernels cost about 30 us per call beyond their bytes at the NIC's rate, the
// same at EP 8 (NVLink only, no RDMA peer) as at EP 256 (248 RDMA peers): neither an RDMA latency
// nor a per-peer cost, but GPU-side work per token copy (the FP8 cast, one warp-issued write per
// top-k copy, the receiver's unpacking), of which every row of the table moves the same 128 x 8.
// FITTED to the EP 64 row of validation/inference/deepep-v1-h800.md (the other rows held out):
// measured - bytes sent off the server / (50 GB/s x net_efficiency 0.92) - launch - barrier,
// per copy: dispatch (173 us - 128 x 8 x 7392 B x 56/64 / 46 GB/s - 3.4 us) / 1024 = 25.02 ns;
// combine (314 us - 128 x 8 x 14336 B x 56/64 / 46 GB/s - 3.4 us) / 1024 = 30.62 ns. The table has
// one batch size, so a per-call constant and a per-copy cost cannot be told apart; per copy keeps
// a one-token decode from paying 25 us. tests/infer_comm_test.cpp derives the residuals.
constexpr double kLowLatencyDispatchPerCopyUs = 0.02502, kLowLatencyCombinePerCopyUs = 0.03062;

Schedule direct_a2a(const Communicator& comm, double bytes, double fixed_us) {
  const Algorithm* direct = find_algorithm("direct");
  CollectiveCall call;
  call.kind = CollectiveKind::AllToAll;
  call.type = {"bfloat16", 2};
  const int64_t unit = 2 * comm.nranks;
  call.bytes = Bytes(std::max<int64_t>(unit, static_cast<int64_t>(bytes) / unit * unit));
  Schedule s = direct->build(comm, call, {Protocol::Simple, direct->channels(comm)});
  s.set_step_latency({Time::zero(), Time::zero(), Time::zero()});
  s.set_base_latency(Time::us(fixed_us));
  s.set_pxn(false);  // DeepEP's RDMA leaves from the sending GPU's own NIC
  return s;
}

}  // namespace

EpShared::EpShared() = default;
EpShared::~EpShared() = default;

struct EpSharedAccess {
  // The group's communicator, made on first use (and again for another group).
  static const Communicator& comm(EpShared& s, const Cluster& cluster, const Router& router,
                                  const std::vector<int64_t>& gpus) {
    if (!s.comm_ || s.gpus_ != gpus) {
      s.routes_.reset();
      s.comm_ = std::make_unique<Communicator>(group_communicator(cluster, router, gpus, "--ep"));
      s.gpus_ = gpus;
    }
    return *s.comm_;
  }
  // The routes of the direct pattern on that communicator (seed 0, ECMP), made on first use.
  static RouteCache* routes(EpShared& s, const Schedule& sched, const Router& router) {
    if (!s.routes_) s.routes_ = std::make_unique<RouteCache>(sched, *s.comm_, router, 0);
    return s.routes_.get();
  }
};

const char* to_string(EpKernel k) {
  switch (k) {
    case EpKernel::Nccl: return "nccl";
    case EpKernel::Normal: return "normal";
    case EpKernel::LowLatency: return "low-latency";
    case EpKernel::Auto: return "auto";
  }
  return "?";
}

EpKernel parse_ep_kernel(const std::string& text, const std::string& flag) {
  for (EpKernel k : {EpKernel::Nccl, EpKernel::Normal, EpKernel::LowLatency, EpKernel::Auto})
    if (text == to_string(k)) return k;
  throw InputError({}, flag, "unknown EP kernel '" + text + "'", suggest(text, {"nccl", "normal", "low-latency", "auto"}));
}

int64_t routing_server_limit(const std::string& model) { return model == "deepseek-v3" ? 4 : 0; }

double ep_copy_bytes(const EpCall& c) {
  const double h = static_cast<double>(c.hidden);
  return c.combine ? 2.0 * h : h * (1.0 + 4.0 / 128.0);
}

double ep_servers_per_token(const EpCall& c, int64_t servers) {
  const double m = static_cast<double>(c.max_servers > 0 ? std::min(c.max_servers, servers) : servers);
  return m * (1.0 - std::pow(1.0 - 1.0 / m, static_cast<double>(c.top_k)));
}

double ep_gpus_per_token(const EpCall& c, int64_t gpus) {
  // Within the chosen servers' GPUs when routing is group-limited.
  const double g = static_cast<double>(gpus);
  return g * (1.0 - std::pow(1.0 - 1.0 / g, static_cast<double>(c.top_k)));
}

EpTiming time_ep(const Cluster& cluster, const Router& router, const std::string& model,
                 const std::vector<int64_t>& gpus, const EpCall& c, EpKernel kernel, EpShared* shared) {
  EpTiming out;
  out.how = to_string(kernel);
  if (gpus.size() < 2 || c.tokens <= 0) return out;
  const double copy = ep_copy_bytes(c), tokens = c.tokens;
  std::optional<Communicator> own;
  const Communicator& whole = shared ? EpSharedAccess::comm(*shared, cluster, router, gpus)
                                     : own.emplace(group_communicator(cluster, router, gpus, "--ep"));
  std::unique_ptr<Model> m = make_model(model, cluster);
  if (kernel == EpKernel::Nccl) {
    // NCCL moves 16-bit activations both ways.
    const double bytes = tokens * static_cast<double>(c.top_k) * 2.0 * static_cast<double>(c.hidden);
    const GroupTiming t = time_groups(cluster, router, model, {gpus}, CollectiveKind::AllToAll,
                                      Bytes(static_cast<int64_t>(bytes)), "--ep");
    out.seconds = t.seconds;
    out.how = "nccl " + t.algorithm;
    out.logical_gBps = bytes / t.seconds / 1e9;
    return out;
  }
  if (kernel == EpKernel::LowLatency || whole.nnodes == 1) {
    // Every copy to its expert's GPU: k copies per token, spread evenly over the group.
    const double bytes = tokens * static_cast<double>(c.top_k) * copy;
    const double per_copy = c.combine ? kLowLatencyCombinePerCopyUs : kLowLatencyDispatchPerCopyUs;
    const double fixed = kernel == EpKernel::LowLatency
                             ? kLaunchUs + kBarrierUs + per_copy * tokens * static_cast<double>(c.top_k)
                             : kLaunchUs + 2 * kBarrierUs;
    const double sent = kernel == EpKernel::LowLatency
                            ? bytes
                            : tokens * ep_gpus_per_token(c, whole.nranks) * copy;  // normal: deduplicated per GPU
    Schedule s = direct_a2a(whole, sent, fixed);
    Job j;
    j.name = "ep";
    j.calls.push_back({&s, &whole, Time::zero(), to_string(kernel)});
    if (shared) j.calls.back().routes = EpSharedAccess::routes(*shared, s, router);
    out.seconds = run_jobs(std::span<const Job>(&j, 1), router, *m).makespan.to_s();
    out.logical_gBps = sent / out.seconds / 1e9;
    return out;
  }
  // Normal kernel across servers: the RDMA phase on each rail (the group's GPU j of every server),
  // the NVLink phase inside each server, both at once.
  const int64_t n = whole.nnodes, ppn = whole.ppn;
  const double per_server = ep_servers_per_token(c, n);
  // A token reaching a server meets its experts on that server's GPUs: of the GPUs its k experts
  // pick among the chosen servers' GPUs, the share on one server.
  const int64_t pool = (c.max_servers > 0 ? std::min(c.max_servers, n) : n) * ppn;
  const double per_gpu = ep_gpus_per_token(c, pool);
  const double rdma_bytes = tokens * per_server * copy;
  const double nvl_bytes = tokens * per_gpu * copy;
  const double fixed = kLaunchUs + 2 * kBarrierUs;
  std::vector<std::unique_ptr<Communicator>> comms;
  std::vector<std::unique_ptr<Schedule>> scheds;
  std::vector<Job> jobs;
  for (int64_t j = 0; j < ppn; ++j) {
    std::vector<int64_t> rail;
    for (int64_t s = 0; s < n; ++s) rail.push_back(gpus[static_cast<size_t>(s * ppn + j)]);
    comms.push_back(std::make_unique<Communicator>(group_communicator(cluster, router, rail, "--ep")));
    scheds.push_back(std::make_unique<Schedule>(direct_a2a(*comms.back(), rdma_bytes, fixed)));
  }
  if (ppn > 1)
    for (int64_t s = 0; s < n; ++s) {
      std::vector<int64_t> server(gpus.begin() + s * ppn, gpus.begin() + (s + 1) * ppn);
      comms.push_back(std::make_unique<Communicator>(group_communicator(cluster, router, server, "--ep")));
      scheds.push_back(std::make_unique<Schedule>(direct_a2a(*comms.back(), nvl_bytes, fixed)));
    }
  for (size_t i = 0; i < scheds.size(); ++i) {
    Job j;
    j.name = "ep part " + std::to_string(i);
    j.seed = mix_hash(1, i);
    j.calls.push_back({scheds[i].get(), comms[i].get(), Time::zero(), "normal"});
    jobs.push_back(std::move(j));
  }
  out.seconds = run_jobs(jobs, router, *m).makespan.to_s();
  out.logical_gBps = rdma_bytes / out.seconds / 1e9;
  return out;
}

}  // namespace gf
