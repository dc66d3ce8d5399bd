#include "training/search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "core/error.hpp"
#include "training/closed_form_network.hpp"

namespace gf {

namespace {

std::vector<int64_t> divisors(int64_t n) {
  std::vector<int64_t> d;
  for (int64_t i = 1; i <= n; ++i)
    if (n % i == 0) d.push_back(i);
  return d;
}

// Ties (equal times) go to the simpler layout: less TP, PP, interleaving, recompute and sharding.
auto order_key(const SearchCandidate& c, double t) {
  const TrainLayout& l = c.layout;
  return std::make_tuple(t, l.tp, l.cp, l.pp, l.ep, l.vpp, static_cast<int>(l.recompute), l.zero, -l.micro_batch);
}

}  // namespace

SearchResult search_layouts(const Cluster& cluster, const Router& router, const ModelShape& m,
                            const TrainLayout& base, const TrainOptions& o, const TrainingGpu& gpu_in,
                            const SearchOptions& so) {
  const int64_t n = so.gpus > 0 ? so.gpus : cluster.gpu_count();
  if (n > cluster.gpu_count())
    throw InputError({}, "--gpus", fmt::format("{} GPUs asked for, but the cluster has {}", n, cluster.gpu_count()),
                     fmt::format("use --gpus {} or fewer, or a larger cluster (--nodes)", cluster.gpu_count()));
  TrainingGpu gpu = gpu_in;
  if (so.max_memory > 0) gpu.memory_bytes = so.max_memory;
  const int64_t gps = cluster.gpus_per_server();

  ClosedFormNetwork net(cluster, router);
  TrainOptions estimate = o;
  estimate.timer = [&net](const std::vector<std::vector<int64_t>>& g, CollectiveKind k, Bytes b,
                          const std::string& flag) { return net.time(g, k, b, flag); };
  estimate.tokens.reset();
  estimate.flops.reset();

  SearchResult r;
  std::vector<SearchCandidate> all;
  // TP stays inside a server (across servers every layer's collectives cross the scale-out network).
  // CP where the sequence is long: CP 2, 4, ... while each rank keeps at least kMinCpTokens of it
  // (shorter chunks leave too little attention to hide the K/V ring behind; Llama 3 ran CP 16 at
  // 131,072 tokens, 8,192 per rank: Llama 3 paper, Table 4).
  constexpr int64_t kMinCpTokens = 8192;
  std::vector<int64_t> cps = {1};
  for (int64_t c = 2; base.seq / c >= kMinCpTokens; c *= 2)
    if (base.seq % (2 * c) == 0) cps.push_back(c);
  for (int64_t tp : divisors(std::min<int64_t>(gps, n))) {
    if (gps % tp != 0 || n % tp != 0 || m.heads % tp != 0 || m.kv_heads % tp != 0) continue;
    for (int64_t cp : cps) {
    if ((n / tp) % cp != 0) continue;
    for (int64_t pp : divisors(n / (tp * cp))) {
      if (m.layers % pp != 0) continue;
      const int64_t dp = n / (tp * cp * pp);
      std::vector<int64_t> eps = {1};
      if (m.moe())
        for (int64_t e : divisors(dp))
          if (e > 1 && m.experts % e == 0) eps.push_back(e);
      for (int64_t ep : eps)
      for (int64_t mb : so.micro_batches) {
        if (base.global_batch % (mb * dp) != 0) continue;
        const int64_t micro = base.global_batch / (mb * dp);
        for (int64_t v = 1; v <= (pp > 1 ? so.max_vpp : 1); ++v) {
          if (m.layers % (pp * v) != 0 || (v > 1 && micro % pp != 0)) continue;
          for (Recompute rc : so.recompute)
            for (int z : so.zero) {
              if (z > 0 && dp == 1 && z != so.zero.front()) continue;  // sharding over one rank changes nothing
              TrainLayout l = base;
              l.tp = tp;
              l.cp = cp;
              l.pp = pp;
              l.dp = dp;
              l.ep = ep;
              l.vpp = v;
              l.micro_batch = mb;
              l.recompute = rc;
              l.zero = z;
              l.sequence_parallel = so.sequence_parallel && tp > 1;
              ++r.layouts;
              const double mem = memory_per_gpu(m, l).total();
              if (gpu.memory_bytes > 0 && mem > gpu.memory_bytes) continue;
              ++r.fit;
              try {
                const TrainResult t = run_training(cluster, router, m, l, estimate, gpu);
                all.push_back({l, t.step_time_s, 0, mem});
              } catch (const InputError&) {
                // A layout the step model refuses (a group shape NCCL's algorithms do not model).
              }
            }
        }
      }
    }
    }
  }
  r.measurements = net.measurements();
  if (r.layouts == 0)
    throw InputError({}, "--gpus",
                     fmt::format("no layout of {} on {} GPUs divides: TP (a divisor of {} and of the heads), PP (of "
                                 "the {} layers) and micro-batch x DP (of the global batch {})",
                                 m.name, n, gps, m.layers, base.global_batch),
                     "try another --gpus or --global-batch (a multiple of the GPU count / TP / PP)");
  if (all.empty())
    throw InputError({}, "--max-memory",
                     fmt::format("none of the {} layouts of {} on {} GPUs fits {:.1f} GiB per GPU", r.layouts, m.name,
                                 n, gpu.memory_bytes / (1024.0 * 1024.0 * 1024.0)),
                     "use more GPUs (--gpus), a larger --max-memory, --zero 3 or a shorter --seq");
  std::sort(all.begin(), all.end(), [](const SearchCandidate& a, const SearchCandidate& b) {
    return order_key(a, a.estimate_s) < order_key(b, b.estimate_s);
  });

  // Refine: the best estimates on the chosen network model, ranked by what it says. A layout the
  // network model refuses (a group whose GPUs take different positions on different servers, which
  // the closed form, measuring one group, does not see) is dropped.
  std::vector<TrainResult> runs;
  for (size_t i = 0; i < all.size() && r.refined.size() < so.refine; ++i) {
    try {
      runs.push_back(run_training(cluster, router, m, all[i].layout, o, gpu));
    } catch (const InputError&) {
      all.erase(all.begin() + static_cast<std::ptrdiff_t>(i--));
      continue;
    }
    all[i].simulated_s = runs.back().step_time_s;
    r.refined.push_back(all[i]);
  }
  if (runs.empty())
    throw InputError({}, "--gpus", "the network model refused every layout that fits",
                     "try another --gpus (groups must take the same GPU positions on every server)");
  const size_t k = runs.size();
  r.best.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(std::min(so.keep, all.size())));
  std::vector<size_t> idx(k);
  for (size_t i = 0; i < k; ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
    return order_key(r.refined[a], r.refined[a].simulated_s) < order_key(r.refined[b], r.refined[b].simulated_s);
  });
  std::vector<SearchCandidate> ranked;
  for (size_t i : idx) ranked.push_back(r.refined[i]);
  r.winner = runs[idx.front()];
  r.refined = std::move(ranked);
  return r;
}

}  // namespace gf
