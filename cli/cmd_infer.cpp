// gpufabric infer --model M --tp T [--pp P] [--ep E] [--batch B] --prompt 2048 --output 256
//     [--dtype bf16|fp8] [--allreduce nccl|oneshot|twoshot|auto] [--ep-kernel nccl|normal|low-latency|auto]
//     [--decode-attention grouped|per-head] [--disagg prefill=N1,decode=N2] [--rate R [--requests K] [--seed S]] [--gpu NAME]
//     [--model-net analytical|flow|packet] [--format text|json]
// One serving instance of a model on a cluster: time to first token, time per output token, their
// breakdowns, tokens/s per GPU, KV cache against memory (docs/inference.md).
#include <gpufabric/gpufabric.hpp>
#include <gpufabric/infer.hpp>
#include <exception>
#include <iostream>
#include <memory>
#include <string>

#include "cluster_args.hpp"
#include "commands.hpp"

namespace gfcli {

namespace {

struct InferArgs {
  ClusterArgs cluster;
  std::string disagg, model, dtype = "bf16", allreduce = "nccl", ep_kernel = "nccl", gpu, net = "flow", format = "text";
  std::string decode_attention = "grouped";
  int64_t tp = 1, pp = 1, ep = 1, batch = 1, prompt = 2048, output = 256;
  // Continuous batching (--rate): requests, seed; gave_rate tells the mode apart.
  double rate = 0;
  int64_t requests = 100;
  uint64_t seed = 1;
  bool gave_rate = false;
};

gf::TrainingGpu gpu_of(const InferArgs& a, const gf::Simulation& sim) {
  if (a.gpu.empty()) return gf::training_gpu_for(sim.spec().server.gpu);
  if (auto g = gf::find_training_gpu(a.gpu)) return *g;
  std::vector<std::string> names;
  for (const auto& x : gf::training_gpus()) names.push_back(x.model);
  throw gf::InputError({}, "--gpu", "unknown GPU '" + a.gpu + "'", gf::suggest(a.gpu, names) + " (gpufabric list gpus)");
}

// "prefill=N1,decode=N2": servers of each pool.
void parse_disagg(const std::string& text, gf::InferOptions& o) {
  const std::string hint = "e.g. --disagg prefill=1,decode=1 (servers of each pool)";
  std::string rest = text;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string part = rest.substr(0, comma);
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    const size_t eq = part.find('=');
    const std::string key = part.substr(0, eq);
    if (eq == std::string::npos || (key != "prefill" && key != "decode"))
      throw gf::InputError({}, "--disagg", "expected prefill=N or decode=N, got '" + part + "'", hint);
    int64_t n = 0;
    try {
      size_t used = 0;
      n = std::stoll(part.substr(eq + 1), &used);
      if (used != part.size() - eq - 1) n = 0;
    } catch (const std::exception&) {
      n = 0;
    }
    if (n < 1) throw gf::InputError({}, "--disagg", "'" + part + "': servers must be a whole number of at least 1", hint);
    (key == "prefill" ? o.prefill_servers : o.decode_servers) = n;
  }
  if (o.prefill_servers == 0 || o.decode_servers == 0)
    throw gf::InputError({}, "--disagg", "give both pools", hint);
}

int run_infer(const InferArgs& a) {
  if (a.format != "text" && a.format != "json")
    throw gf::InputError({}, "--format", "unknown format '" + a.format + "'", gf::suggest(a.format, {"text", "json"}));
  gf::require_model(a.net, {}, "--model-net");
  gf::InferLayout l;
  l.tp = a.tp;
  l.pp = a.pp;
  l.ep = a.ep;
  l.batch = a.batch;
  l.prompt = a.prompt;
  l.output = a.output;
  l.dtype = gf::ascii_lower(a.dtype);
  l.allreduce = gf::parse_serving_allreduce(gf::ascii_lower(a.allreduce));
  l.ep_kernel = gf::parse_ep_kernel(gf::ascii_lower(a.ep_kernel));
  l.decode_attention = gf::parse_decode_attention(gf::ascii_lower(a.decode_attention));
  const gf::ModelShape m = gf::find_model(a.model);
  const gf::Simulation sim = a.cluster.load();
  const gf::TrainingGpu gpu = gpu_of(a, sim);
  gf::InferOptions opt;
  opt.network_model = a.net;
  if (!a.disagg.empty()) parse_disagg(a.disagg, opt);
  // One memo for the instance: continuous batching reuses the timings of the run above.
  gf::InferCommMemo memo;
  const gf::InferResult r = gf::run_inference(sim.cluster(), sim.router(), m, l, opt, gpu, &memo);
  if (!a.gave_rate) {
    if (a.format == "json")
      std::cout << json_text(gf::infer_json(r, sim.name())) << "\n";
    else
      std::cout << gf::infer_text(r, sim.name());
    return 0;
  }
  gf::BatchingOptions bo;
  bo.rate = a.rate;
  bo.requests = a.requests;
  bo.seed = a.seed;
  const gf::BatchingResult b = gf::run_batching(sim.cluster(), sim.router(), m, l, opt, gpu, bo, &memo);
  if (a.format == "json") {
    auto j = gf::infer_json(r, sim.name());
    j["batching"] = gf::batching_json(b, bo);
    std::cout << json_text(j) << "\n";
  } else {
    std::cout << gf::infer_text(r, sim.name()) << gf::batching_text(b, bo);
  }
  return 0;
}

}  // namespace

Command add_infer(CLI::App& root) {
  auto a = std::make_shared<InferArgs>();
  CLI::App* sub = root.add_subcommand(
      "infer", "Serving a model on a cluster: TTFT, TPOT, their breakdown, tokens/s, KV cache (docs/inference.md)");
  a->cluster.add(sub, false, "Servers in the cluster (default: the preset's)");
  sub->add_option("--model", a->model, "Model preset (gpufabric list models) or YAML model file")->required();
  sub->add_option("--tp", a->tp, "Tensor parallelism (default 1)");
  sub->add_option("--pp", a->pp, "Pipeline stages (default 1)");
  sub->add_option("--ep", a->ep, "Expert parallelism for MoE layers, a multiple of TP (default 1)");
  sub->add_option("--batch", a->batch, "Sequences decoded together per attention (TP) group (default 1)");
  sub->add_option("--prompt", a->prompt, "Prompt tokens per request (default 2048)");
  sub->add_option("--output", a->output, "Output tokens per request (default 256)");
  sub->add_option("--dtype", a->dtype, "Weights, matmuls and KV cache: bf16 or fp8 (default bf16)");
  sub->add_option("--allreduce", a->allreduce,
                  "TP all-reduce: nccl, oneshot, twoshot (custom kernels inside an NVLink domain) or auto "
                  "(TensorRT-LLM's choice by size; default nccl)");
  sub->add_option("--ep-kernel", a->ep_kernel,
                  "EP dispatch/combine: nccl (all-to-all), normal or low-latency (DeepEP's kernels), or auto (normal for "
                  "the prefill, low-latency for decode; default nccl)");
  sub->add_option("--decode-attention", a->decode_attention,
                  "Decode attention kernel for grouped-query models: grouped (each KV head read once, tensor cores; "
                  "default) or per-head (one block per query head, CUDA-core FMAs: TensorRT-LLM before XQA, v0.8)");
  sub->add_option("--disagg", a->disagg,
                  "Disaggregated serving: prefill=N1,decode=N2 servers; the KV cache crosses the fabric per request");
  sub->add_option("--rate", a->rate,
                  "Continuous batching: Poisson request arrivals per second (--batch is then the most running at once)");
  sub->add_option("--requests", a->requests, "Continuous batching: requests in the stream (default 100)");
  sub->add_option("--seed", a->seed, "Continuous batching: seed of the arrivals and lengths (default 1)");
  sub->add_option("--gpu", a->gpu, "Price compute on this catalog GPU instead of the cluster's (gpufabric list gpus)");
  sub->add_option("--model-net", a->net, "Network model for the collectives: analytical, flow or packet (default flow)");
  sub->add_option("--format", a->format, "text or json");
  return {sub, [a, sub] {
            a->gave_rate = sub->count("--rate") > 0;
            if (!a->gave_rate && (sub->count("--requests") + sub->count("--seed")) > 0)
              throw gf::InputError({}, sub->count("--requests") > 0 ? "--requests" : "--seed",
                                   "only used with --rate (continuous batching)", "add --rate R (requests per second)");
            return run_infer(*a);
          }};
}

}  // namespace gfcli
