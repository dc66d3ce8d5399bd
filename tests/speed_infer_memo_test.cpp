// The instance memo (inference/comm_memo.hpp) that continuous batching and `infer --rate` share
// across run_inference calls, and the phase selection that lets an iteration time only its own
// phase's collectives. Every expectation compares with the same run made afresh (no memo, both
// phases), to the bit: the network models are deterministic, so reuse must not show in a figure.
#include <gtest/gtest.h>

#include <stdexcept>

#include "config/presets.hpp"
#include "inference/batching.hpp"
#include "inference/comm_memo.hpp"
#include "inference/infer_step.hpp"
#include "routing/router.hpp"

namespace gf {
namespace {

struct Dgx {
  Cluster cluster;
  Router router;
  explicit Dgx(int64_t nodes) : cluster(build_cluster(resolve_cluster("dgx-h100", nodes))), router(cluster) {}
};

// Collective rows of `a` and `b` for one phase, which must be the same calls at the same times.
void expect_same_rows(const InferResult& a, const InferResult& b, const std::string& phase) {
  std::vector<const InferComm*> x, y;
  for (const InferComm& c : a.comm)
    if (c.phase == phase) x.push_back(&c);
  for (const InferComm& c : b.comm)
    if (c.phase == phase) y.push_back(&c);
  ASSERT_EQ(x.size(), y.size()) << phase;
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(x[i]->collective, y[i]->collective);
    EXPECT_EQ(x[i]->how, y[i]->how);
    EXPECT_EQ(x[i]->bytes, y[i]->bytes);
    EXPECT_EQ(x[i]->call_s, y[i]->call_s) << phase << " " << x[i]->parallelism << " " << x[i]->collective;
    EXPECT_EQ(x[i]->groups, y[i]->groups);
  }
}

InferLayout deepseek_ep32(int64_t batch, int64_t prompt) {
  // DeepSeek-V3 over EP 32 on 4 DGX H100: the low-latency kernel's 32 x 31 transfers, 24 of each
  // GPU's 31 over the rail-optimized fabric (the ECMP choice a shared route must repeat).
  InferLayout l;
  l.ep = 32;
  l.batch = batch;
  l.prompt = prompt;
  l.output = 16;
  l.dtype = "fp8";
  l.ep_kernel = EpKernel::Auto;  // normal kernels for the prefill, low-latency for decode
  return l;
}

TEST(SpeedInferMemo, SharedAcrossBatchesGivesTheFreshTimes) {
  Dgx d(4);
  const ModelShape m = find_model("deepseek-v3");
  const TrainingGpu g = *find_training_gpu("H100-SXM5-80GB");
  InferCommMemo memo;
  // Batch 16 twice (the second from the memo alone), 8 between: three instances of one layout.
  for (int64_t batch : {16, 8, 16}) {
    const InferLayout l = deepseek_ep32(batch, 64);
    const InferResult fresh = run_inference(d.cluster, d.router, m, l, InferOptions{}, g);
    const InferResult reused = run_inference(d.cluster, d.router, m, l, InferOptions{}, g, &memo);
    EXPECT_EQ(reused.ttft_s, fresh.ttft_s) << batch;
    EXPECT_EQ(reused.tpot_s, fresh.tpot_s) << batch;
    expect_same_rows(reused, fresh, "prefill");
    expect_same_rows(reused, fresh, "decode");
  }
  // 4 calls per distinct batch (prefill and decode, dispatch and combine): 8 in all.
  EXPECT_EQ(memo.ep.size(), 8u);
}

TEST(SpeedInferMemo, TensorPipelineAndDisaggregatedCallsReuseExactly) {
  // Llama 3 70B at TP 8 x PP 2 on 4 servers, disaggregated 2 + 2: TP all-reduces, PP sends and
  // the KV cache's transfer all go through the memo.
  Dgx d(4);
  const ModelShape m = find_model("llama3-70b");
  const TrainingGpu g = *find_training_gpu("H100-SXM5-80GB");
  InferOptions o;
  o.prefill_servers = 2;
  o.decode_servers = 2;
  InferCommMemo memo;
  for (int64_t batch : {4, 2, 4}) {
    InferLayout l;
    l.tp = 8;
    l.pp = 2;
    l.batch = batch;
    l.prompt = 256;
    l.output = 16;
    const InferResult fresh = run_inference(d.cluster, d.router, m, l, o, g);
    const InferResult reused = run_inference(d.cluster, d.router, m, l, o, g, &memo);
    EXPECT_EQ(reused.ttft_s, fresh.ttft_s) << batch;
    EXPECT_EQ(reused.tpot_s, fresh.tpot_s) << batch;
    expect_same_rows(reused, fresh, "prefill");
    expect_same_rows(reused, fresh, "decode");
  }
  // Two batch sizes: 2 distinct all-reduce sizes per batch (prefill, decode), likewise PP sends,
  // and one KV transfer size per batch.
  EXPECT_EQ(memo.allreduce.size(), 4u);
  EXPECT_EQ(memo.pp_send.size(), 4u);
  EXPECT_EQ(memo.kv_transfer.size(), 2u);
}

TEST(SpeedInferMemo, OnePhaseTimesOnlyItsOwnCalls) {
  Dgx d(4);
  const ModelShape m = find_model("deepseek-v3");
  const TrainingGpu g = *find_training_gpu("H100-SXM5-80GB");
  const InferLayout l = deepseek_ep32(16, 64);
  const InferResult both = run_inference(d.cluster, d.router, m, l, InferOptions{}, g);
  InferCommMemo memo;
  const InferResult pre =
      run_inference(d.cluster, d.router, m, l, InferOptions{}, g, &memo, InferPhases::Prefill);
  EXPECT_EQ(pre.ttft_s, both.ttft_s);
  expect_same_rows(pre, both, "prefill");
  for (const InferComm& c : pre.comm) EXPECT_EQ(c.phase, "prefill");
  EXPECT_EQ(memo.ep.size(), 2u);  // the prefill's dispatch and combine, nothing of decode's
  EXPECT_EQ(pre.decode.ep_dispatch_s + pre.decode.ep_combine_s, 0.0);

  const InferResult dec =
      run_inference(d.cluster, d.router, m, l, InferOptions{}, g, &memo, InferPhases::Decode);
  EXPECT_EQ(dec.tpot_s, both.tpot_s);
  expect_same_rows(dec, both, "decode");
  for (const InferComm& c : dec.comm) EXPECT_EQ(c.phase, "decode");
  EXPECT_EQ(dec.prefill.ep_dispatch_s + dec.prefill.ep_combine_s, 0.0);
}

TEST(SpeedInferMemo, RefusesAnotherInstance) {
  // A memo's keys hold only what varies with batch, prompt and output; another layout (here TP 2
  // rather than 1: other groups and tokens per GPU) would read the wrong timings, so it is refused.
  Dgx d(4);
  const ModelShape m = find_model("deepseek-v3");
  const TrainingGpu g = *find_training_gpu("H100-SXM5-80GB");
  InferCommMemo memo;
  InferLayout l = deepseek_ep32(8, 16);
  InferOptions analytical;
  analytical.network_model = "analytical";
  run_inference(d.cluster, d.router, m, l, analytical, g, &memo);
  l.tp = 2;
  EXPECT_THROW(run_inference(d.cluster, d.router, m, l, analytical, g, &memo), std::logic_error);
  l.tp = 1;
  InferOptions flow;
  EXPECT_THROW(run_inference(d.cluster, d.router, m, l, flow, g, &memo), std::logic_error);
  l.batch = 4;  // batch, prompt and output may change
  EXPECT_NO_THROW(run_inference(d.cluster, d.router, m, l, analytical, g, &memo));
}

TEST(SpeedInferMemo, BatchingWithTheCallersMemoGivesTheSameStream) {
  Dgx d(4);
  const ModelShape m = find_model("deepseek-v3");
  const TrainingGpu g = *find_training_gpu("H100-SXM5-80GB");
  const InferLayout l = deepseek_ep32(16, 64);
  BatchingOptions b;
  b.rate = 500;
  b.requests = 24;
  b.seed = 2;
  const BatchingResult alone = run_batching(d.cluster, d.router, m, l, InferOptions{}, g, b);
  InferCommMemo memo;
  run_inference(d.cluster, d.router, m, l, InferOptions{}, g, &memo);  // as `infer --rate` does first
  const BatchingResult shared = run_batching(d.cluster, d.router, m, l, InferOptions{}, g, b, &memo);
  EXPECT_GT(alone.iterations, alone.prefill_iterations);  // some decode iterations ran
  EXPECT_EQ(shared.iterations, alone.iterations);
  EXPECT_EQ(shared.makespan_s, alone.makespan_s);
  EXPECT_EQ(shared.ttft_s.p50, alone.ttft_s.p50);
  EXPECT_EQ(shared.ttft_s.p99, alone.ttft_s.p99);
  EXPECT_EQ(shared.tpot_s.mean, alone.tpot_s.mean);
  EXPECT_EQ(shared.latency_s.p99, alone.latency_s.p99);
}

}  // namespace
}  // namespace gf
