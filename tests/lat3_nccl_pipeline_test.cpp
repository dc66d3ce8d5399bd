// NCCL's step pipeline in NCCL's units (collective/nccl_pipeline.hpp): step sizes per protocol,
// NVLS-tree's chunk rule, and the 8-slot rule on one connection. Every expected number is derived
// by hand in the comment beside it from NCCL's constants (src/include/device.h, src/enqueue.cc).
#include <gtest/gtest.h>

#include "collective/nccl_pipeline.hpp"

using namespace gf;

namespace {
constexpr int64_t KiB = 1024, MiB = 1024 * 1024;
}

TEST(NcclPipeline, StepBytesPerProtocol) {
  // Simple: 4 MiB buffer / 8 steps.
  EXPECT_EQ(nccl_step_data_bytes(Protocol::Simple), 512 * KiB);
  // LL: 8 lines x 512 threads x 16 B = 65,536 B a step, half data.
  EXPECT_EQ(nccl_step_data_bytes(Protocol::LL), 32 * KiB);
  // LL128: 120 x 640 x 8 B = 614,400 B a step, 15 of 16 words data = 576,000 B.
  EXPECT_EQ(nccl_step_data_bytes(Protocol::LL128), 576000);
}

// Two servers, tree all-reduce, Simple, 16 channels: each channel's network edge carries its
// 1/16 of the buffer up (reduce) and the same down (broadcast).
TEST(NcclPipeline, TwoNodeTreeSimpleStepsAndFill) {
  // 4 MiB: 256 KiB per channel, under one 512 KiB step: a pipeline one step deep, so fill and
  // drain are the whole edge: latency + wire once.
  EXPECT_EQ(nccl_steps(4 * MiB / 16, nccl_step_data_bytes(Protocol::Simple)), 1);
  // 14 us latency (NCCL's NET tree figure), 256 KiB at 25 GB/s (a 400G NIC's 50 GB/s shared by two
  // channels) = 10.48576 us: 24.48576 us.
  const Time wire_4m = Time::us(262144.0 / 25e9 * 1e6);
  EXPECT_NEAR(slotted_edge_time(1, Time::us(14), wire_4m).to_us(), 24.48576, 1e-5);
  // 64 MiB: 4 MiB per channel = 8 steps of 512 KiB, 20.97152 us each at 25 GB/s. 8 steps cover
  // the latency (8 x 20.97 >= 14 + 20.97), so it is paid once: 14 + 8 x 20.97152 = 181.77216 us.
  const int64_t steps = nccl_steps(64 * MiB / 16, nccl_step_data_bytes(Protocol::Simple));
  EXPECT_EQ(steps, 8);
  const Time wire = Time::us(524288.0 / 25e9 * 1e6);
  EXPECT_NEAR(slotted_edge_time(steps, Time::us(14), wire).to_us(), 181.77216, 1e-5);
}

TEST(NcclPipeline, SlotRuleChargesALatencyPerRoundOnlyWhenEightStepsDoNotCoverIt) {
  // 20 steps of 2 us wire, 10 us latency: 8 x 2 = 16 >= 12, full pipeline: 10 + 20 x 2 = 50 us.
  EXPECT_NEAR(slotted_edge_time(20, Time::us(10), Time::us(2)).to_us(), 50.0, 1e-9);
  // 30 us latency: 8 x 2 = 16 < 32, so step 8 waits for step 0 to arrive (at 32 us) and step 16
  // for step 8 (at 64 us); step 19 starts at 64 + 3 x 2 = 70 and arrives at 70 + 32 = 102 us,
  // against 30 + 20 x 2 = 70 us with unlimited slots and 20 x 32 = 640 us one step at a time.
  EXPECT_NEAR(slotted_edge_time(20, Time::us(30), Time::us(2)).to_us(), 102.0, 1e-9);
  // Up to 8 steps never wait for a slot: 30 + 8 x 2 = 46 us.
  EXPECT_NEAR(slotted_edge_time(8, Time::us(30), Time::us(2)).to_us(), 46.0, 1e-9);
  EXPECT_EQ(slotted_edge_time(0, Time::us(30), Time::us(2)), Time::zero());
}

// AWS p5 (2 servers x 8 H100, 8 NVLS heads a server), NVLS-tree on 16 channels: ops = 128.
TEST(NcclPipeline, NvlsTreeChunkOnTwoP5Servers) {
  // 4 MiB: below 4 x 128 x 128 KiB = 64 MiB -> 64 KiB; below 1 x 128 x 64 KiB = 8 MiB -> 32 KiB.
  EXPECT_EQ(nccl_nvlstree_chunk_bytes(4 * MiB, 16, 8, 2), 32 * KiB);
  // 16 MiB: below 64 MiB -> 64 KiB; not below 8 MiB.
  EXPECT_EQ(nccl_nvlstree_chunk_bytes(16 * MiB, 16, 8, 2), 64 * KiB);
  // 64 MiB: not below 64 MiB -> NCCL's 128 KiB.
  EXPECT_EQ(nccl_nvlstree_chunk_bytes(64 * MiB, 16, 8, 2), 128 * KiB);
  // From 4 nodes the chunk starts at 64 KiB: 1 GiB stays 64 KiB (not below 4 x 128 x 64 KiB).
  EXPECT_EQ(nccl_nvlstree_chunk_bytes(1024 * MiB, 16, 8, 4), 64 * KiB);
  // Steps per head connection (the call over channels x heads x chunk): 4 MiB 1, 16 MiB 2,
  // 64 MiB 4, 256 MiB 16: up to 64 MiB a connection never holds 8 steps, so its slots never bind
  // and each network hop's latency is paid once, not per step.
  auto steps = [](int64_t bytes) { return nccl_steps(bytes / 128, nccl_nvlstree_chunk_bytes(bytes, 16, 8, 2)); };
  EXPECT_EQ(steps(4 * MiB), 1);
  EXPECT_EQ(steps(16 * MiB), 2);
  EXPECT_EQ(steps(64 * MiB), 4);
  EXPECT_EQ(steps(256 * MiB), 16);
}

// The p5 case at 256 MiB, the one size up to which a head's connection holds more than 8 steps
// (16): a 128 KiB step of 16 connections sharing a 46 GB/s NIC takes 131072 x 16 / 46e9 s =
// 45.590 us, so 8 of them (364.7 us) cover a 40 us latency and it is paid once:
// 40 + 16 x 45.590 = 769.45 us.
TEST(NcclPipeline, TheSlotsNeverBindOnTwoP5Servers) {
  const Time wire = Time::us(131072.0 * 16 / 46e9 * 1e6);
  EXPECT_NEAR(slotted_edge_time(16, Time::us(40), wire).to_us(), 40 + 16 * (131072.0 * 16 / 46e9 * 1e6), 1e-5);
  EXPECT_NEAR(slotted_edge_time(16, Time::us(40), wire).to_us(), 769.45, 0.01);
}

TEST(NcclPipeline, NvlsChunkInsideOneDomain) {
  // 8 GPUs (8 heads), 16 channels: ops = 128. 8 GiB is not below 64 x 128 x 128 KiB = 1 GiB:
  // 128 KiB. 64 MiB: below 1 GiB -> 64 KiB; not below 8 x 128 x 64 KiB = 64 MiB. 16 MiB: below
  // 64 MiB -> 32 KiB; not below 2 x 128 x 32 KiB = 8 MiB. 4 MiB: below 8 MiB -> 16 KiB.
  EXPECT_EQ(nccl_nvls_chunk_bytes(8192 * MiB, 16, 8), 128 * KiB);
  EXPECT_EQ(nccl_nvls_chunk_bytes(64 * MiB, 16, 8), 64 * KiB);
  EXPECT_EQ(nccl_nvls_chunk_bytes(16 * MiB, 16, 8), 32 * KiB);
  EXPECT_EQ(nccl_nvls_chunk_bytes(4 * MiB, 16, 8), 16 * KiB);
}
