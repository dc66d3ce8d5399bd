#include "report/infer_report.hpp"

#include <fmt/format.h>

#include "report/table.hpp"

namespace gf {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::string layout_text(const InferLayout& l) {
  std::string s = fmt::format("TP {} x PP {}", l.tp, l.pp);
  if (l.ep > 1)
    s += fmt::format(", EP {} (attention data-parallel over {} groups; EP kernel {})", l.ep, l.attention_dp(),
                     to_string(l.ep_kernel));
  s += fmt::format("; batch {}, prompt {}, output {}; {}; all-reduce {}; decode attention {}", l.batch, l.prompt,
                   l.output, l.dtype, to_string(l.allreduce), to_string(l.decode_attention));
  return s;
}

std::string ms(double s) { return fmt::format("{:.3f}", s * 1e3); }

void phase_rows(TextTable& t, const char* phase, const PhaseBreakdown& b, const InferLayout& l) {
  const double total = b.total_s();
  auto row = [&](const std::string& name, double s, bool share) {
    t.add({phase, name, ms(s), share ? fmt::format("{:.1f} %", 100 * s / total) : std::string("")});
  };
  row("  weights read (HBM)", b.weights_read_s, false);
  if (b.kv_read_s > 0) row("  KV-cache read (HBM)", b.kv_read_s, false);
  row("  matmuls (FLOPs)", b.matmul_s, false);
  if (b.attention_s > 0) row("  attention kernel (of compute)", b.attention_s, false);
  if (b.layer_fixed_s > 0) row("  fixed per layer (of compute)", b.layer_fixed_s, false);
  row("compute (" + b.bound + "-bound roofline)", b.compute_s, true);
  if (l.tp > 1) row("TP all-reduces", b.tp_allreduce_s, true);
  if (l.ep > 1) {
    row("EP dispatch", b.ep_dispatch_s, true);
    row("EP combine", b.ep_combine_s, true);
  }
  if (l.pp > 1) row("PP sends", b.pp_send_s, true);
  if (b.kv_transfer_s > 0) row("KV-cache transfer", b.kv_transfer_s, true);
  row("total", total, true);
}

nlohmann::ordered_json phase_json(const PhaseBreakdown& b) {
  nlohmann::ordered_json j;
  j["total_s"] = b.total_s();
  j["bound"] = b.bound;
  j["weights_read_s"] = b.weights_read_s;
  j["kv_read_s"] = b.kv_read_s;
  j["matmul_s"] = b.matmul_s;
  j["attention_s"] = b.attention_s;
  j["layer_fixed_s"] = b.layer_fixed_s;
  j["compute_s"] = b.compute_s;
  j["tp_allreduce_s"] = b.tp_allreduce_s;
  j["ep_dispatch_s"] = b.ep_dispatch_s;
  j["ep_combine_s"] = b.ep_combine_s;
  j["pp_send_s"] = b.pp_send_s;
  j["kv_transfer_s"] = b.kv_transfer_s;
  return j;
}

}  // namespace

std::string infer_text(const InferResult& r, const std::string& cluster) {
  std::string o;
  o += fmt::format("# infer: {} on {} ({} GPUs, {})\n", r.model, cluster, r.gpus, r.gpu);
  o += "# layout: " + layout_text(r.layout) + "\n";
  for (const std::string& n : r.notes) o += "# note: " + n + "\n";
  o += fmt::format("\nTTFT (prefill)       {} ms\n", ms(r.ttft_s));
  o += fmt::format("TPOT (decode step)   {} ms  (mean KV-cache length {:.1f} tokens)\n", ms(r.tpot_s),
                   r.decode_context);
  o += fmt::format("tokens/s             {:.0f} (output tokens of the instance)\n", r.tokens_per_s);
  o += fmt::format("tokens/s per GPU     {:.1f}\n", r.tokens_per_s_per_gpu);

  o += "\nbreakdown (critical path; compute is the larger of the indented bounds, layer by layer):\n";
  TextTable t({"phase", "part", ">ms", ">share"});
  phase_rows(t, "prefill", r.prefill, r.layout);
  phase_rows(t, "decode", r.decode, r.layout);
  o += t.render();

  if (!r.comm.empty()) {
    o += "\ncommunication (one call on every timed group at once):\n";
    TextTable c({"phase", "parallelism", "collective", "how", ">bytes/call", ">us/call", ">calls", ">ms total"});
    for (const InferComm& x : r.comm)
      c.add({x.phase, x.parallelism, x.collective, x.how, fmt::format("{:.0f}", x.bytes),
             fmt::format("{:.2f}", x.call_s * 1e6), fmt::format("{:.0f}", x.calls), ms(x.total_s)});
    o += c.render();
  }

  const ServingMemory& m = r.memory;
  o += "\nKV cache and memory per GPU:\n";
  o += fmt::format("  KV cache per token      {:.1f} KiB (whole model), {:.1f} KiB on one GPU\n",
                   m.kv_per_token / 1024.0, m.kv_per_token_gpu / 1024.0);
  o += fmt::format("  KV cache per request    {:.1f} MiB ({} tokens), {:.1f} MiB on one GPU\n",
                   m.kv_per_request / (1024.0 * 1024.0), r.layout.prompt + r.layout.output,
                   m.kv_per_request_gpu / (1024.0 * 1024.0));
  o += fmt::format("  weights                 {:.1f} GiB\n", m.weights / kGiB);
  if (m.capacity > 0) {
    o += fmt::format("  HBM left after weights  {:.1f} GiB of {:.1f} GiB\n", m.left_after_weights / kGiB,
                     m.capacity / kGiB);
    o += fmt::format("  requests that fit       {} at full length (batch {} uses {:.1f} GiB)\n", m.max_requests,
                     r.layout.batch, m.kv_batch_gpu / kGiB);
  }
  return o;
}

nlohmann::ordered_json infer_json(const InferResult& r, const std::string& cluster) {
  nlohmann::ordered_json j;
  j["model"] = r.model;
  j["cluster"] = cluster;
  j["gpu"] = r.gpu;
  j["gpus"] = r.gpus;
  const InferLayout& l = r.layout;
  j["layout"] = {{"tp", l.tp},         {"pp", l.pp},         {"ep", l.ep},
                 {"attention_dp", l.attention_dp()},        {"batch", l.batch},
                 {"prompt", l.prompt}, {"output", l.output}, {"dtype", l.dtype},
                 {"allreduce", to_string(l.allreduce)}, {"ep_kernel", to_string(l.ep_kernel)},
                 {"decode_attention", to_string(l.decode_attention)}};
  j["ttft_s"] = r.ttft_s;
  j["tpot_s"] = r.tpot_s;
  j["decode_context"] = r.decode_context;
  j["tokens_per_s"] = r.tokens_per_s;
  j["tokens_per_s_per_gpu"] = r.tokens_per_s_per_gpu;
  j["prefill"] = phase_json(r.prefill);
  j["decode"] = phase_json(r.decode);
  nlohmann::ordered_json comm = nlohmann::ordered_json::array();
  for (const InferComm& x : r.comm)
    comm.push_back({{"phase", x.phase},
                    {"parallelism", x.parallelism},
                    {"collective", x.collective},
                    {"how", x.how},
                    {"bytes", x.bytes},
                    {"call_s", x.call_s},
                    {"calls", x.calls},
                    {"total_s", x.total_s},
                    {"groups", x.groups}});
  j["communication"] = comm;
  const ServingMemory& m = r.memory;
  j["kv_cache"] = {{"bytes_per_token", m.kv_per_token},
                   {"bytes_per_token_per_gpu", m.kv_per_token_gpu},
                   {"bytes_per_request", m.kv_per_request},
                   {"bytes_per_request_per_gpu", m.kv_per_request_gpu},
                   {"batch_bytes_per_gpu", m.kv_batch_gpu},
                   {"max_requests", m.max_requests}};
  j["memory_per_gpu"] = {{"weights_bytes", m.weights},
                         {"capacity_bytes", m.capacity},
                         {"left_after_weights_bytes", m.left_after_weights}};
  j["notes"] = r.notes;
  return j;
}

std::string batching_text(const BatchingResult& b, const BatchingOptions& o) {
  std::string s = fmt::format(
      "\ncontinuous batching: {} requests, Poisson arrivals at {:g}/s (seed {}), lengths uniform within +-50 %\n",
      b.requests, o.rate, o.seed);
  s += fmt::format("  throughput           {:.1f} output tokens/s, {:.2f} requests/s over {:.2f} s\n",
                   b.output_tokens_per_s, b.requests_per_s, b.makespan_s);
  s += fmt::format("  iterations           {} ({} prefill), mean decode batch {:.1f}, at most {} running\n",
                   b.iterations, b.prefill_iterations, b.mean_batch, b.max_running);
  TextTable t({"", ">p50 ms", ">p99 ms", ">mean ms"});
  for (auto [name, p] : {std::pair{"TTFT", &b.ttft_s}, std::pair{"TPOT", &b.tpot_s}, std::pair{"latency", &b.latency_s}})
    t.add({name, ms(p->p50), ms(p->p99), ms(p->mean)});
  s += t.render();
  return s;
}

nlohmann::ordered_json batching_json(const BatchingResult& b, const BatchingOptions& o) {
  auto pct = [](const Percentiles& p) { return nlohmann::ordered_json{{"p50", p.p50}, {"p99", p.p99}, {"mean", p.mean}}; };
  nlohmann::ordered_json j;
  j["rate"] = o.rate;
  j["requests"] = b.requests;
  j["seed"] = o.seed;
  j["makespan_s"] = b.makespan_s;
  j["output_tokens_per_s"] = b.output_tokens_per_s;
  j["requests_per_s"] = b.requests_per_s;
  j["iterations"] = b.iterations;
  j["prefill_iterations"] = b.prefill_iterations;
  j["mean_batch"] = b.mean_batch;
  j["max_running"] = b.max_running;
  j["ttft_s"] = pct(b.ttft_s);
  j["tpot_s"] = pct(b.tpot_s);
  j["latency_s"] = pct(b.latency_s);
  return j;
}

}  // namespace gf
