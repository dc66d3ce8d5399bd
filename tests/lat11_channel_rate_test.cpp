// A channel's own rate (issue 19, model/channel_rate.hpp): NCCL's cost model gives each channel of
// its graph the graph's per-channel bandwidth (src/graph/tuning.cc: busBw = nChannels x bwIntra or
// bwInter), so a call that runs fewer channels than its graph (the small-call cut, or
// NCCL_MAX_NCHANNELS) is slower, where the models used to give one channel alone the whole link.
#include <gtest/gtest.h>

#include "algorithm_check.hpp"
#include "collective/steady_state.hpp"
#include "engine/executor.hpp"
#include "engine/transfer_routes.hpp"
#include "model/analytical/analytical_model.hpp"
#include "model/channel_rate.hpp"
#include "model/flow/flow_model.hpp"

using namespace gf;
using algocheck::call;

namespace {

double run_us(const Schedule& s, const algocheck::Setup& env, bool flow) {
  AnalyticalModel analytical(env.cluster);
  FlowModel flowm(env.cluster);
  Model& m = flow ? static_cast<Model&>(flowm) : static_cast<Model&>(analytical);
  return run_schedule(s, env.comm, env.router, m).duration.to_us();
}

// One H100's NVLink: 18 links x 25 GB/s per direction (link_catalog.cpp nvlink4) at NCCL's 20.6 of
// 25 GB/s (model_params.hpp): 370.8 GB/s of wire, in bytes per us.
constexpr double kNvlinkBytesPerUs = 18 * 25e9 * (20.6 / 25.0) / 1e6;
// One DGX H100 NIC: 400 Gb/s = 50 GB/s at the network efficiency 0.92 (model_params.hpp).
constexpr double kNicBytesPerUs = 50e9 * 0.92 / 1e6;

}  // namespace

TEST(Lat11ChannelRate, OneServerRingOnOneTwoAndSixteenChannels) {
  // 1 DGX H100, 8 ranks: nccl_search_channels gives NVSwitch boxes G = 16 channels, so a channel
  // moves at most 370.8 / 16 = 23.175 GB/s of wire. Ring all-reduce, LL (8 wire bytes per 4 of
  // payload), 32 KiB: 2(n-1) = 14 steps, each moving 32768 / 8 / C payload bytes per channel;
  // NCCL's Ring/LL base 6.6 us and NVLink step 0.6 us (tuning.cc), one step after the other
  // (every edge in lockstep, nothing shared between edges: each GPU sends on its own links).
  //   C = 16: 256 B x 2 = 512 B per step at 16 flows sharing 370.8 GB/s: 0.0221 us
  //           t = 6.6 + 14 x (0.6 + 0.0221) = 15.31 us (as before: the cap is the fair share)
  //   C = 2:  2048 x 2 = 4096 B at 23.175 GB/s: 0.1767 us;  t = 6.6 + 14 x 0.7767 = 17.47 us
  //   C = 1:  4096 x 2 = 8192 B at 23.175 GB/s: 0.3535 us;  t = 6.6 + 14 x 0.9535 = 19.95 us
  // Without the cap one channel alone took the whole 370.8 GB/s: 15.31 us whatever C.
  auto env = algocheck::setup("dgx-h100", 1, 8);
  const double per_channel = kNvlinkBytesPerUs / 16;
  for (bool flow : {false, true}) {
    for (int c : {1, 2, 16}) {
      const Schedule s = algocheck::algo("ring").build(env->comm, call(CollectiveKind::AllReduce, 32 << 10), {Protocol::LL, c});
      const double step_bytes = 32768.0 / 8 / c * 2;
      const double rate = c == 16 ? kNvlinkBytesPerUs / 16 : per_channel;
      const double expected = 6.6 + 14 * (0.6 + step_bytes / rate);
      EXPECT_NEAR(run_us(s, *env, flow), expected, 0.01) << (flow ? "flow" : "analytical") << ", " << c << " channels";
    }
  }
}

TEST(Lat11ChannelRate, ANetworkChannelMovesHalfANic) {
  // 2 DGX H100 with one GPU each: G = max(2, 2 x 8 NICs / 8 GPUs x 1) = 2 channels, both on the
  // GPU's one NIC, so a channel moves at most 46 / 2 = 23 GB/s. Ring all-reduce, Simple, 64 MiB,
  // 2 ranks: 2 steps, both ranks sending at once in opposite directions (full duplex). Per step a
  // channel sends S / 2 / C. With C = 2 the two channels share the NIC (23 GB/s each); with C = 1
  // the one channel is held to its 23 GB/s instead of the NIC's 46. Same latencies, so
  //   t(1) - t(2) = 2 steps x (S/2 - S/4) / 23 GB/s = S / 46 GB/s = 67108864 / 46000 = 1458.9 us,
  // where before the cap one channel alone moved S/2 at 46 GB/s and the difference was 0.
  auto env = algocheck::setup("dgx-h100", 2, 1);
  const int64_t S = int64_t{64} << 20;
  for (bool flow : {false, true}) {
    const Schedule one = algocheck::algo("ring").build(env->comm, call(CollectiveKind::AllReduce, S), {Protocol::Simple, 1});
    const Schedule two = algocheck::algo("ring").build(env->comm, call(CollectiveKind::AllReduce, S), {Protocol::Simple, 2});
    const double expected = static_cast<double>(S) / kNicBytesPerUs;
    EXPECT_NEAR(run_us(one, *env, flow) - run_us(two, *env, flow), expected, 0.002 * expected) << (flow ? "flow" : "analytical");
  }
}

TEST(Lat11ChannelRate, OnlyACallBelowItsGraphIsCapped) {
  auto env = algocheck::setup("dgx-h100", 1, 8);
  const CollectiveCall c = call(CollectiveKind::AllReduce, 1 << 20);
  // Fewer channels than the graph's 16: every transfer carries G = 16.
  const Schedule ring2 = algocheck::algo("ring").build(env->comm, c, {Protocol::LL, 2});
  EXPECT_EQ(transfer_fields(ring2, 0, env->comm).channels, 16);
  const Schedule tree1 = algocheck::algo("tree").build(env->comm, c, {Protocol::LL, 1});
  EXPECT_EQ(transfer_fields(tree1, 0, env->comm).channels, 16);
  // The whole graph: the cap would equal the fair share, so none is set.
  const Schedule ring16 = algocheck::algo("ring").build(env->comm, c, {Protocol::LL, 16});
  EXPECT_EQ(transfer_fields(ring16, 0, env->comm).channels, 1);
  // NVLS runs its own channels (its cost model has no per-channel graph bandwidth to keep).
  const Schedule nvls = algocheck::algo("nvls").build(env->comm, c, {Protocol::Simple, 2});
  EXPECT_EQ(transfer_fields(nvls, 0, env->comm).channels, 1);
  // A steady form too, while it is too small to have merged channels (steady_state.hpp: merging
  // leaves more than kSteadyScheduleBudget / 2 transfers).
  const Schedule steady = algocheck::algo("ring").build_steady(env->comm, c, {Protocol::LL, 2});
  ASSERT_LE(steady.size(), static_cast<size_t>(kSteadyScheduleBudget / 2));
  bool saw_steady = false;
  for (TransferId id = 0; id < static_cast<TransferId>(steady.size()); ++id) {
    if (steady.transfer(id).steps <= 1) continue;
    saw_steady = true;
    EXPECT_EQ(transfer_fields(steady, id, env->comm).channels, 16);
  }
  EXPECT_TRUE(saw_steady);
}

TEST(Lat11ChannelRate, TheCapIsTheLeastLinkOverTheChannelsSharingIt) {
  auto env = algocheck::setup("dgx-h100", 2, 1);
  TransferCost cost(env->cluster, ModelParams{});
  const Schedule s = algocheck::algo("ring").build(env->comm, call(CollectiveKind::AllReduce, 1 << 20), {Protocol::Simple, 1});
  const ModelTransfer m = to_model_transfer(s, 0, env->comm, env->router, 0);
  ASSERT_EQ(m.channels, 2);
  // A network leg: its NIC's 46 GB/s over the 2 channels the graph puts on it.
  EXPECT_NEAR(channel_wire_cap(cost, m, m.legs().front().path) / 1e6, kNicBytesPerUs / 2, 1e-6);
  // No graph to keep: no cap.
  EXPECT_EQ(channel_wire_cap(cost, 1, m.legs().front().path), std::numeric_limits<double>::infinity());
}
