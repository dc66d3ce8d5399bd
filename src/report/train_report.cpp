#include "report/train_report.hpp"

#include <fmt/format.h>

#include "report/table.hpp"

namespace gf {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

}  // namespace

std::string train_layout_text(const TrainLayout& l) {
  std::string s = l.cp > 1 ? fmt::format("TP {} x CP {} x PP {} x DP {}", l.tp, l.cp, l.pp, l.dp)
                           : fmt::format("TP {} x PP {} x DP {}", l.tp, l.pp, l.dp);
  if (l.cp_comm == CpComm::AllGather) s += " (CP: K/V all-gathered before attention)";
  if (l.uneven()) {
    auto n = [](int64_t v) { return v < 0 ? std::string("even") : std::to_string(v); };
    s += fmt::format(" (uneven stages: first {}, last {} layers", n(l.first_stage_layers), n(l.last_stage_layers));
    if (l.first_stage_layers == 0 || l.last_stage_layers == 0) s += "; 0 = the embedding or output layer alone";
    s += ")";
  }
  if (l.ep > 1) s += fmt::format(" (EP {} inside DP)", l.ep);
  if (l.vpp > 1) s += fmt::format(" (interleaved, {} chunks per stage)", l.vpp);
  if (l.pp_inside_dp) s += " (ranks tp-cp-pp-dp: PP inside DP)";
  s += fmt::format("; micro-batch {}, global batch {}, sequence {}; recompute {}{}; ZeRO {}; {}; attention {}",
                   l.micro_batch, l.global_batch, l.seq, to_string(l.recompute),
                   l.sequence_parallel ? ", sequence parallel" : "", l.zero, l.dtype, to_string(l.attention));
  return s;
}

namespace {

const char* kFlopFormula =
    "model FLOPs = 3 x forward (backward = 2 x forward): per layer 2bsh(ad + 2gd) + 4bs^2ad + 2bs(ad)h + 2kbshf, "
    "plus the logits 2bshV; for GPT shapes 72 B s l h^2 (1 + s/6h + V/12lh) (Korthikanti et al. 2022); "
    "HFU adds recomputed FLOPs";

}  // namespace

std::string train_text(const TrainResult& r, const std::string& cluster) {
  std::string o;
  o += fmt::format("# train: {} on {} ({} GPUs, {})\n", r.model, cluster, r.gpus, r.gpu);
  o += "# layout: " + train_layout_text(r.layout) + "\n";
  o += fmt::format("# {} micro-batches per pipeline per step\n", r.microbatches);
  for (const std::string& n : r.notes) o += "# note: " + n + "\n";
  o += fmt::format("\nstep time        {:.4f} s\n", r.step_time_s);
  o += fmt::format("tokens/s         {:.0f}\n", r.tokens_per_s);
  o += fmt::format("TFLOP/s per GPU  {:.1f} (model FLOPs; peak {:g})\n", r.tflops_per_gpu, r.peak_tflops);
  o += fmt::format("MFU              {:.1f} %\n", 100 * r.mfu);
  o += fmt::format("HFU              {:.1f} %\n", 100 * r.hfu);
  if (r.days) o += fmt::format("days to train    {:.1f}\n", *r.days);
  o += std::string("# ") + kFlopFormula + "\n";
  if (r.dag) {
    // --step dag: the same step as one DAG, beside the composed figure above.
    const DagStep& d = *r.dag;
    o += "\nthe step as one DAG (--step dag; the figures above are the composed step):\n";
    for (const std::string& n : d.notes) o += "# note: " + n + "\n";
    o += fmt::format("DAG step time    {:.4f} s ({:+.2f} % against the composed {:.4f} s)\n", d.step_time_s,
                     100 * (d.step_time_s / r.step_time_s - 1), r.step_time_s);
    o += fmt::format("  collectives alone      {:.4f} s\n", d.uncontended_s);
    o += fmt::format("  contention adds        {:.4f} s (groups of different kinds in flight at once)\n",
                     d.contention_s);
    TextTable c({"collective", ">calls/rank", ">s/rank"});
    for (const DagStepCollective& x : d.comm)
      c.add({x.collective, fmt::format("{:g}", x.calls), fmt::format("{:.4f}", x.simulated_s)});
    o += c.render();
  }

  const TrainBreakdown& b = r.breakdown;
  o += fmt::format("\nbreakdown (pipeline stage {}, the last to finish; the parts add up to the step):\n",
                   r.critical_stage);
  TextTable t({"phase", ">seconds", ">share"});
  auto row = [&](const std::string& name, double s) {
    t.add({name, fmt::format("{:.4f}", s), fmt::format("{:.1f} %", 100 * s / r.step_time_s)});
  };
  row("forward", b.forward_s);
  row("backward", b.backward_s);
  if (b.recompute_s > 0) row("recompute", b.recompute_s);
  if (r.layout.tp > 1)
    row(r.layout.overlap_tp ? "TP communication (exposed, overlapped)" : "TP communication (exposed)", b.tp_exposed_s);
  if (r.layout.cp > 1)
    row(r.layout.cp_comm == CpComm::Ring ? "CP K/V ring (exposed)" : "CP K/V all-gather (exposed)", b.cp_exposed_s);
  if (r.layout.ep > 1) row("EP all-to-all (exposed)", b.ep_exposed_s);
  if (r.layout.pp > 1) row("pipeline bubble", b.pp_bubble_s);
  if (b.pp_send_s > 0) row("PP sends (blocking)", b.pp_send_s);
  if (r.layout.dp * r.layout.cp > 1)  // the gradient group is DP x CP
    row("DP communication (exposed)", b.dp_exposed_s);
  if (b.sm_contention_s > 0) row("compute slowed by overlapped communication (its SMs)", b.sm_contention_s);
  row("optimizer", b.optimizer_s);
  o += t.render();

  if (!r.comm.empty()) {
    o += "\ncommunication per step (one GPU; each call timed with all groups of its kind at once):\n";
    TextTable c({"parallelism", "collective", "algorithm", ">bytes/call", ">s/call", ">calls", ">total s", ">exposed s",
                 ">groups"});
    for (const CommSummary& x : r.comm)
      c.add({x.parallelism, x.collective, x.algorithm, with_commas(static_cast<int64_t>(x.bytes)),
             fmt::format("{:.6f}", x.call_s), fmt::format("{:g}", x.calls), fmt::format("{:.4f}", x.total_s),
             fmt::format("{:.4f}", x.exposed_s), std::to_string(x.groups)});
    o += c.render();
  }

  o += "\nmemory per GPU (first pipeline stage):\n";
  TextTable m({"part", ">GiB"});
  m.add({"weights", fmt::format("{:.2f}", r.memory.weights / kGiB)});
  m.add({"gradients", fmt::format("{:.2f}", r.memory.gradients / kGiB)});
  m.add({"optimizer", fmt::format("{:.2f}", r.memory.optimizer / kGiB)});
  m.add({"activations", fmt::format("{:.2f}", r.memory.activations / kGiB)});
  m.add({"total", fmt::format("{:.2f}", r.memory.total() / kGiB)});
  if (r.memory_capacity > 0) m.add({"capacity", fmt::format("{:.2f}", r.memory_capacity / kGiB)});
  o += m.render();
  return o;
}

nlohmann::ordered_json train_json(const TrainResult& r, const std::string& cluster) {
  nlohmann::ordered_json j;
  // An end stage's layers when given (0: the embedding or output layer alone); null: an even share.
  auto end_layers = [](int64_t n) { return n >= 0 ? nlohmann::ordered_json(n) : nlohmann::ordered_json(nullptr); };
  const TrainLayout& l = r.layout;
  j["model"] = r.model;
  j["cluster"] = cluster;
  j["gpu"] = r.gpu;
  j["gpus"] = r.gpus;
  j["layout"] = {{"tp", l.tp},
                 {"pp", l.pp},
                 {"dp", l.dp},
                 {"ep", l.ep},
                 {"cp", l.cp},
                 {"cp_comm", to_string(l.cp_comm)},
                 {"first_stage_layers", end_layers(l.first_stage_layers)},
                 {"last_stage_layers", end_layers(l.last_stage_layers)},
                 {"overlap_tp", l.overlap_tp},
                 {"vpp", l.vpp},
                 {"sequence_parallel", l.sequence_parallel},
                 {"recompute", to_string(l.recompute)},
                 {"zero", l.zero},
                 {"micro_batch", l.micro_batch},
                 {"global_batch", l.global_batch},
                 {"seq", l.seq},
                 {"dtype", l.dtype},
                 {"attention", to_string(l.attention)},
                 {"order", l.pp_inside_dp ? "tp-cp-pp-dp" : "tp-cp-dp-pp"},
                 {"microbatches", r.microbatches}};
  j["step_time_s"] = r.step_time_s;
  j["tokens_per_s"] = r.tokens_per_s;
  j["mfu"] = r.mfu;
  j["hfu"] = r.hfu;
  j["tflops_per_gpu"] = r.tflops_per_gpu;
  j["peak_tflops"] = r.peak_tflops;
  j["model_flops_per_step"] = r.model_flops;
  j["hardware_flops_per_step"] = r.hardware_flops;
  j["flop_formula"] = kFlopFormula;
  j["memory_per_gpu_bytes"] = r.memory.total();
  j["memory"] = {{"weights", r.memory.weights},
                 {"gradients", r.memory.gradients},
                 {"optimizer", r.memory.optimizer},
                 {"activations", r.memory.activations},
                 {"capacity", r.memory_capacity}};
  const TrainBreakdown& b = r.breakdown;
  j["breakdown"] = {{"stage", r.critical_stage},    {"forward_s", b.forward_s},       {"backward_s", b.backward_s},
                    {"recompute_s", b.recompute_s}, {"tp_exposed_s", b.tp_exposed_s}, {"ep_exposed_s", b.ep_exposed_s},
                    {"cp_exposed_s", b.cp_exposed_s}, {"pp_bubble_s", b.pp_bubble_s},
                    {"pp_send_s", b.pp_send_s},     {"dp_exposed_s", b.dp_exposed_s},
                    {"sm_contention_s", b.sm_contention_s}, {"optimizer_s", b.optimizer_s}};
  nlohmann::ordered_json comm = nlohmann::ordered_json::array();
  for (const CommSummary& c : r.comm)
    comm.push_back({{"parallelism", c.parallelism},
                    {"collective", c.collective},
                    {"algorithm", c.algorithm},
                    {"bytes_per_call", c.bytes},
                    {"call_s", c.call_s},
                    {"calls", c.calls},
                    {"total_s", c.total_s},
                    {"exposed_s", c.exposed_s},
                    {"groups", c.groups}});
  j["communication"] = comm;
  j["days_to_train"] = r.days ? nlohmann::ordered_json(*r.days) : nlohmann::ordered_json(nullptr);
  j["notes"] = r.notes;
  if (r.dag) {  // only with --step dag: the composed output stays as it was without it
    const DagStep& d = *r.dag;
    nlohmann::ordered_json dc = nlohmann::ordered_json::array();
    for (const DagStepCollective& x : d.comm)
      dc.push_back({{"collective", x.collective}, {"calls_per_rank", x.calls}, {"simulated_s", x.simulated_s}});
    j["dag"] = {{"step_time_s", d.step_time_s},
                {"uncontended_s", d.uncontended_s},
                {"contention_s", d.contention_s},
                {"vs_composed", d.step_time_s / r.step_time_s - 1},
                {"ranks", d.ranks},
                {"nodes", d.nodes},
                {"slowest_rank", d.slowest_rank},
                {"communication", dc},
                {"notes", d.notes}};
  }
  return j;
}

}  // namespace gf
