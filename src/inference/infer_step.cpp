#include "inference/infer_step.hpp"

#include <fmt/format.h>

#include <map>
#include <tuple>

#include "core/error.hpp"
#include "inference/comm_memo.hpp"
#include "inference/decode_kernels.hpp"
#include "inference/moe_dispatch.hpp"
#include "inference/phase_compute.hpp"
#include "training/group_collectives.hpp"

namespace gf {

namespace {

std::string gib(double bytes) { return fmt::format("{:.1f} GiB", bytes / (1024.0 * 1024.0 * 1024.0)); }

// The TP groups whose all-reduces are timed together: those of the first pipeline stage that sit on
// server 0 when TP fits in a server (servers do not share NVLink, so every server's are alike),
// else every TP group of the first stage.
std::vector<std::vector<int64_t>> tp_groups(const InferLayout& l, int gps, std::vector<std::string>& notes) {
  std::vector<std::vector<int64_t>> g;
  const bool in_server = l.tp <= gps && gps % l.tp == 0;
  for (int64_t dp = 0; dp < l.attention_dp(); ++dp) {
    std::vector<int64_t> grp = infer_tp_group(l, dp, 0);
    if (in_server && grp.back() >= gps) continue;
    g.push_back(std::move(grp));
  }
  if (in_server)
    notes.push_back(fmt::format("TP all-reduces timed on server 0's {} TP group(s); every server's are alike",
                                g.size()));
  else
    notes.push_back(fmt::format("TP {} spans servers (a server has {} GPUs): every layer's all-reduces cross the "
                                "scale-out network",
                                l.tp, gps));
  return g;
}

}  // namespace

InferResult run_inference(const Cluster& cluster, const Router& router, const ModelShape& m, const InferLayout& l,
                          const InferOptions& o, const TrainingGpu& gpu, InferCommMemo* memo_in, InferPhases phases) {
  check_infer_layout(l, m, cluster.gpu_count());
  if (l.dtype == "fp8" && gpu.fp8_tflops <= 0)
    throw InputError({}, "--dtype", gpu.model + " has no FP8 tensor cores in the catalog", "use --dtype bf16");
  if (l.decode_attention == DecodeAttention::PerHead && cuda_core_fp32_flops(gpu) <= 0)
    throw InputError({}, "--decode-attention",
                     "per-head prices attention on the CUDA cores, and " + gpu.model +
                         " has no FP32 CUDA-core figure (inference/decode_kernels.cpp)",
                     "use --decode-attention grouped, or --gpu with an A100, H100 or H200");
  InferResult r;
  r.model = m.name;
  r.gpu = gpu.model;
  r.layout = l;
  r.gpus = l.gpus();

  // Memory first: weights and the batch's KV cache at full length must fit.
  r.memory = serving_memory(m, l, gpu.memory_bytes);
  const ServingMemory& mem = r.memory;
  // The flag to change: the layout when the weights alone do not fit, else the batch's KV cache.
  if (gpu.memory_bytes > 0 && mem.weights + mem.kv_batch_gpu > gpu.memory_bytes)
    throw InputError(
        {}, mem.weights > gpu.memory_bytes ? "--tp" : "--batch",
        fmt::format("{} does not fit: at TP {} x PP {}{} a GPU holds {} of {} weights + {} of KV cache (batch {} x "
                    "{} tokens x {:.0f} KiB per token) = {}, but a {} holds {}",
                    m.name, l.tp, l.pp, l.ep > 1 ? fmt::format(" x EP {}", l.ep) : std::string(), gib(mem.weights),
                    l.dtype, gib(mem.kv_batch_gpu), l.batch, l.prompt + l.output, mem.kv_per_token_gpu / 1024.0,
                    gib(mem.weights + mem.kv_batch_gpu), gpu.model, gib(gpu.memory_bytes)),
        "raise --tp or --pp, use --dtype fp8, or lower --batch, --prompt or --output");
  if (gpu.memory_bytes <= 0) r.notes.push_back("the GPU's memory capacity is unknown: the fit is not checked");
  r.notes.push_back("memory counts weights and the KV cache only (no activations, workspace or fragmentation)");

  // Compute. A decode step's KV read grows by one token per step, so the mean over the output
  // tokens is the step at the mean cache length: prompt + (output + 1) / 2.
  r.decode_context = static_cast<double>(l.prompt) + static_cast<double>(l.output + 1) / 2.0;
  decode_compute(m, l, gpu, o.efficiency, r.decode_context, r.decode);
  prefill_compute(m, l, gpu, o.efficiency, r.prefill);

  // Communication on the network model; each call's time is one call on all timed groups at once.
  const double h2 = 2.0 * static_cast<double>(m.hidden);  // one token's activation, 16-bit
  const double layers = static_cast<double>(m.layers);
  auto add = [&](const char* phase, const char* par, const char* coll, const std::string& how, double bytes,
                 double call_s, double calls, int64_t groups, double& into) {
    r.comm.push_back({phase, par, coll, how, bytes, call_s, calls, call_s * calls, groups});
    into += call_s * calls;
  };
  // Prefill and decode often make the same call (with --prompt 1 every one), and continuous
  // batching makes the same calls again and again: each distinct call is timed once per memo.
  // The network models are deterministic, so this changes no figure (inference/comm_memo.hpp).
  InferCommMemo own_memo;
  InferCommMemo& memo = memo_in ? *memo_in : own_memo;
  memo.bind(cluster, router, m, l, o);
  auto& ar_memo = memo.allreduce;
  auto& ep_memo = memo.ep;
  auto& pp_memo = memo.pp_send;
  const bool want_prefill = phases != InferPhases::Decode, want_decode = phases != InferPhases::Prefill;
  auto wanted = [&](const char* phase) { return std::string(phase) == "prefill" ? want_prefill : want_decode; };
  if (l.tp > 1) {
    const auto groups = tp_groups(l, cluster.gpus_per_server(), r.notes);
    // Two per layer (after attention's output projection and after the MLP; Shoeybi et al. 2019,
    // "Megatron-LM", section 3), of the layer's output for every token of the batch.
    for (auto [phase, tokens, into] :
         {std::tuple{"prefill", static_cast<double>(l.batch * l.prompt), &r.prefill.tp_allreduce_s},
          std::tuple{"decode", static_cast<double>(l.batch), &r.decode.tp_allreduce_s}}) {
      if (!wanted(phase)) continue;
      const double bytes = tokens * h2;
      const auto key = std::pair{bytes, static_cast<int>(l.allreduce)};
      if (!ar_memo.count(key))
        ar_memo[key] = time_serving_allreduce(cluster, router, o.network_model, groups, bytes, l.allreduce);
      const ServingArTiming& t = ar_memo[key];
      add(phase, "tp", "all_reduce", t.how, bytes, t.seconds, 2 * layers, t.groups, *into);
    }
  }
  if (l.ep > 1) {
    // Each GPU of the EP group dispatches its share of the tokens (batch x attention DP / EP =
    // batch / TP) to their top-k experts and takes the results back, once each per MoE layer
    // (Lepikhin et al. 2021, "GShard", section 2.2). NCCL: an all-to-all of tokens x k x hidden
    // 16-bit values each way; DeepEP's kernels: inference/moe_dispatch.hpp.
    const double moe_layers = static_cast<double>(m.layers - m.dense_layers);
    const std::vector<int64_t> group = infer_ep_group(l, 0);
    for (auto [phase, tokens, pb] :
         {std::tuple{"prefill", static_cast<double>(l.batch * l.prompt) / static_cast<double>(l.tp), &r.prefill},
          std::tuple{"decode", static_cast<double>(l.batch) / static_cast<double>(l.tp), &r.decode}}) {
      if (!wanted(phase)) continue;
      EpKernel k = l.ep_kernel;
      if (k == EpKernel::Auto) k = std::string(phase) == "prefill" ? EpKernel::Normal : EpKernel::LowLatency;
      for (bool combine : {false, true}) {
        EpCall c;
        c.tokens = tokens;
        c.top_k = m.top_k;
        c.experts = m.experts;
        c.hidden = m.hidden;
        c.combine = combine;
        c.max_servers = routing_server_limit(m.name);
        const auto key = std::tuple{tokens, combine, static_cast<int>(k)};
        if (!ep_memo.count(key)) ep_memo[key] = time_ep(cluster, router, o.network_model, group, c, k, &memo.ep_shared);
        const EpTiming& t = ep_memo[key];
        const double bytes = k == EpKernel::Nccl ? tokens * static_cast<double>(m.top_k) * h2
                                                 : tokens * static_cast<double>(m.top_k) * ep_copy_bytes(c);
        add(phase, "ep", combine ? "combine" : "dispatch", t.how, bytes, t.seconds, moe_layers, 1,
            combine ? pb->ep_combine_s : pb->ep_dispatch_s);
      }
    }
  }
  if (l.pp > 1) {
    // Each TP rank sends its 1/TP slice of the activation to its twin in the next stage
    // (Megatron's scatter/gather optimisation, Narayanan et al. 2021, section 4.1); the first
    // boundary is timed and stands for each of the PP - 1.
    std::vector<std::vector<int64_t>> pairs;
    const std::vector<int64_t> a = infer_tp_group(l, 0, 0), b = infer_tp_group(l, 0, 1);
    for (size_t i = 0; i < a.size(); ++i) pairs.push_back({a[i], b[i]});
    for (auto [phase, tokens, into] :
         {std::tuple{"prefill", static_cast<double>(l.batch * l.prompt), &r.prefill.pp_send_s},
          std::tuple{"decode", static_cast<double>(l.batch), &r.decode.pp_send_s}}) {
      if (!wanted(phase)) continue;
      const double bytes = tokens * h2 / static_cast<double>(l.tp);
      if (!pp_memo.count(bytes))
        pp_memo[bytes] = time_groups(cluster, router, o.network_model, pairs, CollectiveKind::SendRecv,
                                     Bytes(static_cast<int64_t>(bytes)), "--pp");
      const GroupTiming& t = pp_memo[bytes];
      add(phase, "pp", "sendrecv", "nccl " + t.algorithm, bytes, t.seconds, static_cast<double>(l.pp - 1), t.groups,
          *into);
    }
    r.notes.push_back("one batch in flight: pipeline stages take turns, so TPOT and TTFT are sums over the stages");
  }

  if (o.prefill_servers > 0) {
    // Disaggregated: each GPU of the prefill instance sends its share of the batch's prompt KV
    // cache (its stage's layers, its key/value heads) to the GPU in the same position of the decode
    // instance, all at once, after the prefill and before the first decode step (as DistServe,
    // Zhong et al. OSDI 2024, and DeepSeek-V3's separate prefill and decode deployments do).
    const int64_t gps = cluster.gpus_per_server();
    const int64_t servers = cluster.gpu_count() / gps;
    for (auto [n, what] : {std::pair{o.prefill_servers, "prefill"}, std::pair{o.decode_servers, "decode"}})
      if (l.gpus() > n * gps)
        throw InputError({}, "--disagg",
                         fmt::format("the {} pool has {} servers ({} GPUs) but the instance needs {} GPUs", what, n,
                                     n * gps, l.gpus()),
                         fmt::format("give the {} pool at least {} servers", what, (l.gpus() + gps - 1) / gps));
    if (o.prefill_servers + o.decode_servers > servers)
      throw InputError({}, "--disagg",
                       fmt::format("prefill {} + decode {} servers, but the cluster has {}", o.prefill_servers,
                                   o.decode_servers, servers),
                       "use --nodes to make the cluster larger, or smaller pools");
    std::vector<std::vector<int64_t>> pairs;
    const int64_t base = o.prefill_servers * gps;
    for (int64_t g = 0; g < l.gpus(); ++g) pairs.push_back({g, base + g});
    const double bytes = mem.kv_per_token_gpu * static_cast<double>(l.prompt * l.batch);
    if (want_prefill) {
      auto it = memo.kv_transfer.find(bytes);
      if (it == memo.kv_transfer.end())
        it = memo.kv_transfer
                 .emplace(bytes, time_groups(cluster, router, o.network_model, pairs, CollectiveKind::SendRecv,
                                             Bytes(static_cast<int64_t>(bytes)), "--disagg"))
                 .first;
      const GroupTiming& t = it->second;
      add("prefill", "kv", "sendrecv", "nccl " + t.algorithm, bytes, t.seconds, 1, t.groups, r.prefill.kv_transfer_s);
    }
    r.notes.push_back(fmt::format(
        "disaggregated: prefill on servers 0-{}, decode on servers {}-{}; the KV cache of the batch's prompts "
        "({:.1f} MiB from each of {} GPUs) goes from each prefill GPU to its twin over the scale-out fabric",
        o.prefill_servers - 1, o.prefill_servers, o.prefill_servers + o.decode_servers - 1, bytes / (1024.0 * 1024.0),
        l.gpus()));
  }

  r.ttft_s = r.prefill.total_s();
  r.tpot_s = r.decode.total_s();
  r.tokens_per_s = static_cast<double>(l.batch * l.attention_dp()) / r.tpot_s;
  r.tokens_per_s_per_gpu = r.tokens_per_s / static_cast<double>(r.gpus);
  if (l.gpus() < cluster.gpu_count())
    r.notes.push_back(fmt::format("the instance uses GPUs 0-{} of the cluster's {}", l.gpus() - 1, cluster.gpu_count()));
  return r;
}

}  // namespace gf
