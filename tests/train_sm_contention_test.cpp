// SM contention: a collective overlapped with compute holds one SM per NCCL channel (TE's TP
// overlap: 16 SMs for its pipelined and bulk methods), and the compute beside it runs on the
// other SMs, stretched by S / (S - k), for as long as it runs (training/sm_contention.hpp).
#include <gtest/gtest.h>

#include <algorithm>

#include "config/presets.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "training/compute.hpp"
#include "training/overlap.hpp"
#include "training/sm_contention.hpp"
#include "training/train_step.hpp"

namespace gf {
namespace {

TEST(TrainSmContention, ChannelsOverSmsOfTheHiddenTime) {
  // 16 channels of 132 SMs for 1 s hidden: 16/132 s of compute left over.
  EXPECT_DOUBLE_EQ(sm_contention_s(1.0, 16, 132), 16.0 / 132.0);
  EXPECT_DOUBLE_EQ(sm_contention_s(0.5, 32, 108), 0.5 * 32.0 / 108.0);
  EXPECT_EQ(sm_contention_s(1.0, 16, 0), 0.0);  // SMs unknown: nothing charged
  EXPECT_EQ(sm_contention_s(0.0, 16, 132), 0.0);
  // White-paper SM counts: A100 108, H100 SXM5 132; a GPU not in the table 0.
  EXPECT_EQ(streaming_multiprocessors("A100-SXM4-80GB"), 108);
  EXPECT_EQ(streaming_multiprocessors("H100-SXM5-80GB"), 132);
  EXPECT_EQ(streaming_multiprocessors("MI300X-192GB"), 0);
}

TEST(TrainSmContention, HiddenDpReductionSlowsTheStepByItsShareOfSms) {
  // Llama 3 8B on two DGX A100, TP 8, DP 2, ZeRO 0: one DP all-reduce per step, here timed as
  // T = 0.2 s on 24 channels (a stand-in timer; every other collective free). The part of it
  // hidden behind the last backwards, T - exposed, leaves (T - exposed) x 24 / 108 of compute.
  const Cluster cluster = build_cluster(resolve_cluster("dgx-a100", 2));
  const Router router(cluster);
  const ModelShape m = find_model("llama3-8b");
  TrainLayout l;
  l.tp = 8;
  l.dp = 2;
  l.sequence_parallel = true;
  l.global_batch = 16;
  l.seq = 2048;
  const double T = 0.2;
  TrainOptions o;
  o.timer = [&](const std::vector<std::vector<int64_t>>& groups, CollectiveKind kind, Bytes, const std::string& flag) {
    GroupTiming t;
    t.groups = t.of_groups = static_cast<int64_t>(groups.size());
    t.algorithm = "ring/simple";
    if (flag == "--dp" && kind == CollectiveKind::AllReduce) {
      t.seconds = T;
      t.channels = 24;
    }
    return t;
  };
  const TrainingGpu gpu = *find_training_gpu("A100-SXM4-80GB");
  const TrainResult r = run_training(cluster, router, m, l, o, gpu);
  const TrainBreakdown& b = r.breakdown;
  ASSERT_LT(b.dp_exposed_s, T);  // some of it is hidden
  EXPECT_NEAR(b.sm_contention_s, (T - b.dp_exposed_s) * 24.0 / 108.0, 1e-12);
  // The parts still add up to the step.
  EXPECT_NEAR(b.forward_s + b.backward_s + b.recompute_s + b.tp_exposed_s + b.pp_bubble_s + b.dp_exposed_s +
                  b.sm_contention_s + b.optimizer_s,
              r.step_time_s, 1e-9 * r.step_time_s);
  // Without DP overlap nothing hides, and nothing is charged.
  l.overlap_dp = false;
  const TrainResult n = run_training(cluster, router, m, l, o, gpu);
  EXPECT_EQ(n.breakdown.sm_contention_s, 0.0);
  EXPECT_NEAR(n.breakdown.dp_exposed_s, T, 1e-12);
}

// A stand-in timer: `flag`'s collectives of `kind` take `seconds` on `channels`; all else is free.
struct StandIn {
  struct Entry {
    std::string flag;
    CollectiveKind kind;
    double seconds;
    int channels;
  };
  std::vector<Entry> entries;
  GroupTimer timer() const {
    return [e = entries](const std::vector<std::vector<int64_t>>& groups, CollectiveKind kind, Bytes,
                         const std::string& flag) {
      GroupTiming t;
      t.groups = t.of_groups = static_cast<int64_t>(groups.size());
      t.algorithm = "ring/simple";
      for (const Entry& x : e)
        if (x.flag == flag && x.kind == kind) {
          t.seconds = x.seconds;
          t.channels = x.channels;
        }
      return t;
    };
  }
};

TrainLayout llama8(int64_t tp, int64_t pp, int64_t dp) {
  TrainLayout l;
  l.tp = tp;
  l.pp = pp;
  l.dp = dp;
  l.sequence_parallel = tp > 1;
  l.seq = 8192;
  l.global_batch = 8 * dp;  // 8 micro-batches per pipeline
  return l;
}

double parts(const TrainResult& r) {
  const TrainBreakdown& b = r.breakdown;
  return b.forward_s + b.backward_s + b.recompute_s + b.tp_exposed_s + b.ep_exposed_s + b.cp_exposed_s + b.pp_bubble_s +
         b.pp_send_s + b.dp_exposed_s + b.sm_contention_s + b.optimizer_s;
}

TEST(TrainSmContention, StretchIsSmsOverTheSmsLeft) {
  // 16 of 132 SMs taken: the compute beside it takes 132/116 as long.
  EXPECT_DOUBLE_EQ(sm_stretch(16, 132), 132.0 / 116.0);
  EXPECT_DOUBLE_EQ(sm_stretch(kTeUserbufferSms, 108), 108.0 / 92.0);
  EXPECT_EQ(sm_stretch(16, 0), 1.0);  // SMs unknown: not charged
  EXPECT_EQ(sm_stretch(0, 132), 1.0);
}

TEST(TrainSmContention, TeOverlapStretchesTheGemmsBesidePipelinedAndBulkChunks) {
  // GEMMs (ms): QKV 4, projection 1, FC1 3, FC2 2; TP 8; stretch 132/116 (16 SMs of 132).
  // Forward: the projection's and FC2's GEMMs run beside pipelined reduce-scatters: (1 + 2) x 16/116
  // more; QKV and FC1 beside ring exchanges (copy engines): unchanged. Backward: FC1's and QKV's
  // data- and weight-gradient GEMMs beside bulk collectives: 2 x (3 + 4) x 16/116 more.
  LayerTimes t;
  t.qkv_s = 4e-3;
  t.proj_s = 1e-3;
  t.fc1_s = 3e-3;
  t.fc2_s = 2e-3;
  const double k = 16.0 / 116.0, st = 132.0 / 116.0;
  const TpExposed free = tp_overlap_exposed(0, 0, t, 8, st);
  EXPECT_NEAR(free.forward_sm_s, 3e-3 * k, 1e-15);
  EXPECT_NEAR(free.backward_sm_s, 14e-3 * k, 1e-15);
  EXPECT_EQ(free.forward_s, 0.0);
  // A 1 ms reduce-scatter after the projection: pipelined over its stretched GEMM, exposed
  // max(1/4, 1 - 3/4 x 132/116) ms = 0.25 ms; after FC2 (2 x 132/116 ms) also its last quarter.
  const TpExposed rs = tp_overlap_exposed(0, 1e-3, t, 8, st);
  EXPECT_NEAR(rs.forward_s, 2 * 0.25e-3, 1e-15);
  // Unstretched (SMs unknown): nothing charged, as before.
  const TpExposed plain = tp_overlap_exposed(0, 1e-3, t, 8);
  EXPECT_EQ(plain.forward_sm_s + plain.backward_sm_s, 0.0);
}

TEST(TrainSmContention, TpOverlapStepChargesTheStretchedGemms) {
  // llama3-8b on one DGX H100, TP 8, 8 micro-batches, --overlap tp, 32 layers: per layer and
  // micro-batch (proj + FC2 + 2 FC1 + 2 QKV) x 16/116 (132 SMs, TE's 16), the GEMM times from the
  // compute table, the projection and FC2 as the pipelined reduce-scatter splits them (4 GEMMs of a
  // quarter of the output features each); TP collectives free, so nothing else moves.
  const Cluster cluster = build_cluster(resolve_cluster("dgx-h100", 1));
  const Router router(cluster);
  const ModelShape m = find_model("llama3-8b");
  TrainLayout l = llama8(8, 1, 1);
  l.overlap_tp = true;
  TrainOptions o;
  o.timer = StandIn{}.timer();
  const TrainingGpu gpu = *find_training_gpu("H100-SXM5-80GB");
  const TrainResult r = run_training(cluster, router, m, l, o, gpu);
  const LayerTimes t = layer_times(m, l, gpu, o.efficiency, false);
  const TpSplitGemms sg = tp_split_gemm_times(m, l, gpu, o.efficiency, false);
  const double per_layer = (sg.proj_s + sg.fc2_s + 2 * t.fc1_s + 2 * t.qkv_s) * 16.0 / 116.0;
  EXPECT_NEAR(r.breakdown.sm_contention_s, 8 * 32 * per_layer, 1e-12);
  EXPECT_NEAR(parts(r), r.step_time_s, 1e-9 * r.step_time_s);
  l.overlap_tp = false;  // TP collectives on the critical path: nothing beside them
  EXPECT_EQ(run_training(cluster, router, m, l, o, gpu).breakdown.sm_contention_s, 0.0);
}

TEST(TrainSmContention, PpSendsBesideThePassesTakeTheirChannels) {
  // llama3-8b, TP 8, PP 4 on 4 DGX H100, 8 micro-batches; each PP send P = 1 ms on 2 channels.
  // During the P a send (and its neighbour's, paired by 1F1B) runs beside a pass, the pass computes
  // on 130 of 132 SMs (stretched by 132/130): P x 2/132 later per neighbour. The critical stage s
  // has (s > 0) + (s < 3) neighbours, so 8 x 2 passes x neighbours x P x 2/132.
  const Cluster cluster = build_cluster(resolve_cluster("dgx-h100", 4));
  const Router router(cluster);
  const ModelShape m = find_model("llama3-8b");
  TrainLayout l = llama8(8, 4, 1);
  const double P = 1e-3;
  TrainOptions o;
  o.timer = StandIn{{{"--pp", CollectiveKind::SendRecv, P, 2}}}.timer();
  const TrainingGpu gpu = *find_training_gpu("H100-SXM5-80GB");
  const TrainResult r = run_training(cluster, router, m, l, o, gpu);
  const double neighbours = (r.critical_stage > 0 ? 1.0 : 0.0) + (r.critical_stage < 3 ? 1.0 : 0.0);
  EXPECT_NEAR(r.breakdown.sm_contention_s, 8 * 2 * neighbours * P * 2.0 / 132.0, 1e-12);
  EXPECT_NEAR(parts(r), r.step_time_s, 1e-9 * r.step_time_s);
  l.overlap_pp = false;  // blocking sends: inside the pass, nothing beside compute
  EXPECT_EQ(run_training(cluster, router, m, l, o, gpu).breakdown.sm_contention_s, 0.0);
}

TEST(TrainSmContention, ZeroThreeCallsHiddenBehindALayerTakeTheirChannels) {
  // llama3-8b, TP 8, DP 2 (two DGX H100), ZeRO 3, 8 micro-batches, 32 layers. Each layer's gather
  // Z = 10 us and reduce-scatter Zr = 20 us on 8 channels, far shorter than a layer's compute, so
  // hidden whole: forward Z, backward Z + Zr per layer and micro-batch, each x 8/132 of compute
  // left over. The first gather and last reduce-scatter of each pass are exposed, not overlapped.
  const Cluster cluster = build_cluster(resolve_cluster("dgx-h100", 2));
  const Router router(cluster);
  const ModelShape m = find_model("llama3-8b");
  TrainLayout l = llama8(8, 1, 2);
  l.zero = 3;
  const double Z = 10e-6, Zr = 20e-6;
  TrainOptions o;
  o.timer = StandIn{{{"--dp", CollectiveKind::AllGather, Z, 8}, {"--dp", CollectiveKind::ReduceScatter, Zr, 8}}}.timer();
  const TrainingGpu gpu = *find_training_gpu("H100-SXM5-80GB");
  const TrainResult r = run_training(cluster, router, m, l, o, gpu);
  EXPECT_NEAR(r.breakdown.sm_contention_s, 8 * 32 * (2 * Z + Zr) * 8.0 / 132.0, 1e-12);
  EXPECT_NEAR(parts(r), r.step_time_s, 1e-9 * r.step_time_s);
}

TEST(TrainSmContention, CpRingHiddenStepsTakeTheirChannels) {
  // llama3-8b, TP 8, CP 2 (two DGX H100), s = 32,768, 4 micro-batches, no recompute. The K/V
  // all-gather A = 2 ms and reduce-scatter R = 1 ms on 4 channels. Hidden per layer and micro-batch:
  // forward min(A, attn/2), backward min(A + R, attn) (half of each pass's attention hides the ring,
  // overlap.hpp), each x 4/132 of compute left over. The all-gather variant hides nothing.
  const Cluster cluster = build_cluster(resolve_cluster("dgx-h100", 2));
  const Router router(cluster);
  const ModelShape m = find_model("llama3-8b");
  TrainLayout l = llama8(8, 1, 1);
  l.cp = 2;
  l.seq = 32768;
  l.global_batch = 4;
  const double A = 2e-3, R = 1e-3;
  TrainOptions o;
  o.timer = StandIn{{{"--cp", CollectiveKind::AllGather, A, 4}, {"--cp", CollectiveKind::ReduceScatter, R, 4}}}.timer();
  const TrainingGpu gpu = *find_training_gpu("H100-SXM5-80GB");
  const TrainResult r = run_training(cluster, router, m, l, o, gpu);
  const double attn = layer_times(m, l, gpu, o.efficiency, false).attention_s;
  const double hidden = std::min(A, attn / 2) + std::min(A + R, attn);
  EXPECT_NEAR(r.breakdown.sm_contention_s, 4 * 32 * hidden * 4.0 / 132.0, 1e-12);
  EXPECT_NEAR(parts(r), r.step_time_s, 1e-9 * r.step_time_s);
  l.cp_comm = CpComm::AllGather;
  EXPECT_EQ(run_training(cluster, router, m, l, o, gpu).breakdown.sm_contention_s, 0.0);
}

}  // namespace
}  // namespace gf
