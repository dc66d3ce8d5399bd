// What `infer` reuses between calls, and that reusing it changes no figure: routes shared by a
// group's dispatch and combine (EpShared), and each distinct call of the prefill and the decode
// step timed once. Every expectation compares against the same call made afresh, to the bit:
// the network models are deterministic, so reuse must be invisible in the times.
#include <gtest/gtest.h>

#include "config/presets.hpp"
#include "inference/infer_step.hpp"
#include "inference/moe_dispatch.hpp"
#include "routing/router.hpp"

namespace gf {
namespace {

struct Dgx {
  Cluster cluster;
  Router router;
  explicit Dgx(int64_t nodes) : cluster(build_cluster(resolve_cluster("dgx-h100", nodes))), router(cluster) {}
};

std::vector<int64_t> first_gpus(int64_t n) {
  std::vector<int64_t> g;
  for (int64_t i = 0; i < n; ++i) g.push_back(i);
  return g;
}

EpCall deepseek_call(double tokens, bool combine) {
  // DeepSeek-V3's routing: 8 of 256 experts, hidden 7168 (arXiv 2412.19437, section 4.2).
  EpCall c;
  c.tokens = tokens;
  c.top_k = 8;
  c.experts = 256;
  c.hidden = 7168;
  c.combine = combine;
  c.max_servers = 4;
  return c;
}

TEST(SpeedInferReuse, SharedRoutesGiveTheFreshTimes) {
  // 4 servers, 32 GPUs: the low-latency pattern has 32 x 31 transfers, 24 of each GPU's 31 over
  // the rail-optimized fabric, whose ECMP choice the shared routes must repeat.
  Dgx d(4);
  const std::vector<int64_t> gpus = first_gpus(32);
  EpShared shared;
  for (const char* model : {"flow", "analytical"})
    for (bool combine : {false, true}) {
      const EpCall c = deepseek_call(16, combine);
      const EpTiming fresh = time_ep(d.cluster, d.router, model, gpus, c, EpKernel::LowLatency);
      const EpTiming reused = time_ep(d.cluster, d.router, model, gpus, c, EpKernel::LowLatency, &shared);
      EXPECT_GT(fresh.seconds, 0) << model;
      EXPECT_EQ(reused.seconds, fresh.seconds) << model << (combine ? " combine" : " dispatch");
    }
  // Another group on the same EpShared (server 1 alone, the normal kernel's one-server path)
  // makes its own communicator and routes rather than reading server 0's.
  std::vector<int64_t> server1;
  for (int64_t i = 8; i < 16; ++i) server1.push_back(i);
  const EpCall c = deepseek_call(64, false);
  EXPECT_EQ(time_ep(d.cluster, d.router, "flow", server1, c, EpKernel::Normal, &shared).seconds,
            time_ep(d.cluster, d.router, "flow", server1, c, EpKernel::Normal).seconds);
}

TEST(SpeedInferReuse, PrefillOfOneTokenMakesTheDecodeCalls) {
  // DeepSeek-V3 at EP 32 on 4 servers, fp8, batch 16, low-latency kernels. With --prompt 1 the
  // prefill dispatches batch x prompt / TP = 16 tokens per GPU, as each decode step does, so its
  // calls are the decode step's and are timed once; dispatch and combine still differ (FP8 with
  // scales against BF16: 7168 x 1.03125 against 7168 x 2 bytes per copy).
  Dgx d(4);
  const ModelShape m = find_model("deepseek-v3");
  const TrainingGpu g = *find_training_gpu("H100-SXM5-80GB");
  InferLayout l;
  l.ep = 32;
  l.batch = 16;
  l.prompt = 1;
  l.output = 16;
  l.dtype = "fp8";
  l.ep_kernel = EpKernel::LowLatency;
  const InferResult r = run_inference(d.cluster, d.router, m, l, InferOptions{}, g);
  const std::vector<int64_t> gpus = first_gpus(32);
  const double dispatch =
      time_ep(d.cluster, d.router, "flow", gpus, deepseek_call(16, false), EpKernel::LowLatency).seconds;
  const double combine =
      time_ep(d.cluster, d.router, "flow", gpus, deepseek_call(16, true), EpKernel::LowLatency).seconds;
  ASSERT_NE(dispatch, combine);
  int rows = 0;
  for (const InferComm& c : r.comm) {
    if (c.parallelism != "ep") continue;
    ++rows;
    EXPECT_EQ(c.call_s, c.collective == "combine" ? combine : dispatch) << c.phase << " " << c.collective;
  }
  EXPECT_EQ(rows, 4);

  // A longer prompt makes other prefill calls: 2 tokens per GPU is not the decode's 1 x 16.
  l.prompt = 2;
  const InferResult r2 = run_inference(d.cluster, d.router, m, l, InferOptions{}, g);
  const double dispatch2 =
      time_ep(d.cluster, d.router, "flow", gpus, deepseek_call(32, false), EpKernel::LowLatency).seconds;
  for (const InferComm& c : r2.comm) {
    if (c.parallelism == "ep" && c.collective == "dispatch") {
      EXPECT_EQ(c.call_s, c.phase == "prefill" ? dispatch2 : dispatch) << c.phase;
    }
  }
}

}  // namespace
}  // namespace gf
