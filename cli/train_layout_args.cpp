#include "train_layout_args.hpp"

namespace gfcli {

namespace {

gf::Recompute recompute_of(const std::string& s) {
  if (s == "none") return gf::Recompute::None;
  if (s == "selective") return gf::Recompute::Selective;
  if (s == "full") return gf::Recompute::Full;
  throw gf::InputError({}, "--recompute", "unknown recompute mode '" + s + "'",
                       gf::suggest(s, {"none", "selective", "full"}));
}

}  // namespace

void TrainLayoutArgs::add(CLI::App* sub) {
  sub->add_option("--tp", tp, "Tensor parallelism (default 1)");
  sub->add_option("--pp", pp, "Pipeline parallelism, stages (default 1)");
  sub->add_option("--dp", dp, "Data parallelism (default 1)");
  sub->add_option("--vpp", vpp, "Model chunks per pipeline stage: interleaved 1F1B when more than 1 (default 1)");
  sub->add_option("--ep", ep, "Expert parallelism: MoE experts split over EP ranks inside DP (default 1)");
  sub->add_option("--cp", cp,
                  "Context parallelism: the sequence split over CP ranks, K/V passed around a ring (default 1)");
  sub->add_option("--cp-comm", cp_comm,
                  "How CP ranks get the sequence's K/V: ring (overlapped with attention) or all-gather (Megatron's "
                  "--cp-comm-type allgather: gathered before attention, exposed; default ring)");
  sub->add_option(
      "--pp-first-layers", pp_first,
      "Layers on the first pipeline stage (Megatron's --decoder-first-pipeline-num-layers; 0: the embedding "
      "alone, as Llama 3; default even)");
  sub->add_option(
      "--pp-last-layers", pp_last,
      "Layers on the last pipeline stage (Megatron's --decoder-last-pipeline-num-layers; 0: the output layer "
      "alone, as Llama 3; default even)");
  sub->add_option("--global-batch", global_batch, "Sequences per step (default: micro-batch x DP)");
  sub->add_option("--micro-batch", micro_batch, "Sequences per micro-batch (default 1)");
  sub->add_option("--seq", seq, "Sequence length (default: the model's)");
  sub->add_option("--recompute", recompute, "Activation recompute: none, selective or full (default none)");
  sub->add_flag("--sequence-parallel", sequence_parallel,
                "Sequence parallelism: TP all-reduces become reduce-scatter + all-gather (default: on when TP > 1)");
  sub->add_flag("--no-sequence-parallel", no_sequence_parallel,
                "TP with all-reduces, every TP rank holding the norms' activations");
  sub->add_option("--zero", zero, "ZeRO stage 0-3 (default 0; 1 and up shard the optimizer over DP)");
  sub->add_option(
      "--overlap", overlap,
      "What communication overlaps compute: a list of dp, pp, tp (TE's userbuffers), or none (default dp,pp)");
  sub->add_option("--tp-comm-overlap-cfg", tp_overlap_cfg,
                  "With --overlap tp: a YAML file of Transformer Engine userbuffers entries (Megatron-LM's "
                  "--tp-comm-overlap-cfg: method, num_sm, set_sm_margin, num_splits per GEMM; default TE's own)");
  sub->add_option("--dtype", dtype, "Matmul data type: bf16 or fp8 (default bf16)");
  sub->add_option("--order", order,
                  "Rank order, innermost first: tp-cp-dp-pp (Megatron's default) or tp-cp-pp-dp (Llama 3's: a "
                  "pipeline's stages on neighbouring servers)");
  sub->add_option("--attention", attention,
                  "Attention kernel: flash or unfused (Megatron 2022's softmax; default flash)");
}

bool TrainLayoutArgs::gave_layout(const CLI::App* sub) {
  return sub->count("--tp") + sub->count("--pp") + sub->count("--dp") + sub->count("--vpp") + sub->count("--ep") +
             sub->count("--cp") + sub->count("--pp-first-layers") + sub->count("--pp-last-layers") >
         0;
}

gf::TrainLayout TrainLayoutArgs::layout(const gf::ModelShape& m) const {
  gf::TrainLayout l;
  l.tp = tp;
  l.pp = pp;
  l.dp = dp;
  l.vpp = vpp;
  l.ep = ep;
  l.cp = cp;
  l.first_stage_layers = pp_first;
  l.last_stage_layers = pp_last;
  l.micro_batch = micro_batch;
  l.global_batch = global_batch > 0 ? global_batch : micro_batch * dp;
  l.seq = seq > 0 ? seq : m.seq;
  if (sequence_parallel && no_sequence_parallel)
    throw gf::InputError({}, "--no-sequence-parallel", "both --sequence-parallel and --no-sequence-parallel given",
                         "drop one of them");
  // Sequence parallelism is on by default with TP, as Megatron-Core's recommended configurations
  // run it: without it every TP rank holds the whole layer norm and dropout activations.
  l.sequence_parallel = sequence_parallel || (tp > 1 && !no_sequence_parallel);
  l.recompute = recompute_of(recompute);
  l.zero = zero;
  l.dtype = gf::ascii_lower(dtype);
  if (order == "tp-cp-pp-dp")
    l.pp_inside_dp = true;
  else if (order != "tp-cp-dp-pp")
    throw gf::InputError({}, "--order", "unknown rank order '" + order + "'",
                         gf::suggest(order, {"tp-cp-dp-pp", "tp-cp-pp-dp"}) +
                             " (tp-cp-dp-pp: Megatron's default, PP outermost; tp-cp-pp-dp: Llama 3's)");
  // Megatron-LM's --cp-comm-type spellings (p2p, allgather) and TE's (all_gather) are accepted too.
  const std::string cpc = gf::ascii_lower(cp_comm);
  if (cpc == "ring" || cpc == "p2p")
    l.cp_comm = gf::CpComm::Ring;
  else if (cpc == "all-gather" || cpc == "allgather" || cpc == "all_gather")
    l.cp_comm = gf::CpComm::AllGather;
  else
    throw gf::InputError({}, "--cp-comm", "unknown CP communication '" + cp_comm + "'",
                         gf::suggest(cpc, {"ring", "all-gather"}) +
                             " (ring: K/V passed around the CP ranks beside attention; all-gather: K/V gathered "
                             "before attention, exposed)");
  if (attention == "flash")
    l.attention = gf::Attention::Flash;
  else if (attention == "unfused")
    l.attention = gf::Attention::Unfused;
  else
    throw gf::InputError({}, "--attention", "unknown attention kernel '" + attention + "'",
                         gf::suggest(attention, {"flash", "unfused"}));
  l.overlap_dp = l.overlap_pp = false;
  if (overlap != "none") {
    std::string rest = overlap;
    while (!rest.empty()) {
      const size_t comma = rest.find(',');
      const std::string w = rest.substr(0, comma);
      rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
      if (w == "dp")
        l.overlap_dp = true;
      else if (w == "pp")
        l.overlap_pp = true;
      else if (w == "tp")
        l.overlap_tp = true;
      else
        throw gf::InputError({}, "--overlap", "unknown overlap '" + w + "'", "use a list of dp, pp, tp, or none");
    }
  }
  if (!tp_overlap_cfg.empty()) {
    if (!l.overlap_tp)
      throw gf::InputError({}, "--tp-comm-overlap-cfg", "a userbuffers configuration needs TP communication overlap",
                           "add tp to --overlap (e.g. --overlap dp,pp,tp), or drop --tp-comm-overlap-cfg");
    l.tp_overlap_cfg = gf::load_tp_overlap_cfg(tp_overlap_cfg);
  }
  return l;
}

}  // namespace gfcli
