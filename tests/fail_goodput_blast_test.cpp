// goodput's blast radius (a leaf cuts off the servers it alone cables; a spine link only slows)
// and its checkpoint write time from the checkpoint's size over the storage path.
#include <gtest/gtest.h>

#include <cmath>

#include "config/presets.hpp"
#include "core/error.hpp"
#include "topology/cluster_spec.hpp"
#include "workload/blast_radius.hpp"
#include "workload/checkpoint_cost.hpp"
#include "workload/goodput.hpp"

namespace {

gf::ClusterSpec dgx_h100(int64_t servers, const std::string& fabric) {
  gf::ClusterOverrides over;
  over.nodes = servers;
  over.fabric = fabric;
  gf::ClusterSpec spec = gf::resolve_cluster("dgx-h100", over);
  spec.fabric.switch_radix = 64;  // QM9700's 64 NDR ports, set so the counts below do not hang on a default
  return spec;
}

TEST(FailGoodputBlast, PlainLeafSpineLeafCutsOffItsFourServers) {
  // leaf_spine fills leaves server by server (fabrics/leaf_spine.cpp): a 64-port leaf keeps 32 ports
  // down and 32 up; 32 NICs / 8 per server = 4 servers per leaf, each with all 8 NICs on it. 16
  // servers: 128 NICs / 32 = 4 leaves, each cutting off its 4 servers; 4 leaves x 32 uplinks = 128
  // spine cables. A job of 6 servers touches leaves 0 and 1: 4 and 2 of its servers.
  const gf::Cluster c = gf::build_cluster(dgx_h100(16, "leaf_spine"));
  const gf::FabricExposure all = gf::fabric_exposure(c, 16);
  EXPECT_EQ(all.cut_off, (std::vector<int64_t>{4, 4, 4, 4}));
  EXPECT_EQ(all.spine_links, 128);
  const gf::FabricExposure job = gf::fabric_exposure(c, 6);
  EXPECT_EQ(job.cut_off, (std::vector<int64_t>{4, 2}));
  EXPECT_EQ(job.spine_links, 64);
}

TEST(FailGoodputBlast, RailOptimizedLeafCutsOffNoServer) {
  // Rail-optimized: NIC r of every server on rail r's leaf, so each server reaches 8 leaves and no
  // leaf down cuts one off (it is dual-homed and then some). 16 servers x 1 NIC per rail = 16
  // ports, one leaf per rail: 8 leaves.
  const gf::Cluster c = gf::build_cluster(dgx_h100(16, "rail_optimized"));
  const gf::FabricExposure e = gf::fabric_exposure(c, 16);
  EXPECT_EQ(e.cut_off, std::vector<int64_t>(8, 0));
}

gf::GoodputOptions long_job() {
  gf::GoodputOptions o;
  o.gpus = o.servers = o.nics = 16;
  o.days = 3650;
  o.runs = 200;
  o.seed = 5;
  o.interval_s = 3600;
  o.checkpoint_write_s = 60;
  o.restart_s = 600;
  o.repair_s = 86400;
  return o;
}

TEST(FailGoodputBlast, SpineLinksOnlySlowTheJob) {
  // A GPU cause (every 20 days) and a spine-link cause routing survives (every 5 days over the 64
  // links). The spine links are counted apart: the interruptions' draws and so the effective
  // training time are exactly those of the run without them, and their count is Poisson with mean
  // 3650 / 5 = 730 per run (4 standard errors: 4 sqrt(730 / 200) = 7.6).
  gf::GoodputOptions o = long_job();
  o.spine_links = 64;
  gf::FailureRates gpu_only;
  gpu_only.causes.push_back({"gpu", gf::FailureUnit::Gpu, 1.0 / 20 / 16, 0, gf::Blast::Restart});
  gf::FailureRates with_spines = gpu_only;
  with_spines.causes.push_back({"spine link", gf::FailureUnit::SpineLink, 1.0 / 5 / 64, 0, gf::Blast::Slow});
  const auto a = gf::run_goodput(gpu_only, o), b = gf::run_goodput(with_spines, o);
  EXPECT_EQ(a.ett, b.ett);
  EXPECT_EQ(a.interruptions, b.interruptions);
  EXPECT_EQ(b.causes[1].interruptions, 0);
  EXPECT_NEAR(b.slowdowns, 730, 4 * std::sqrt(730.0 / 200));
  EXPECT_NEAR(b.causes[1].slowdowns, b.slowdowns, 1e-9);
}

TEST(FailGoodputBlast, LeafWithoutSparesWaitsForItsServersRepair) {
  // One leaf cause, every 100 days on average for the job (2 leaves, each cutting off 4 servers).
  // Each interruption loses the unfinished segment, (tau + delta) / 2 = (3600 + 60) / 2 = 1830 s on
  // average (failures are rare against the segment), plus the time down: with 8 spares the 4
  // servers are swapped and the job is down for the restart alone, 600 s; with none it waits for
  // them to come back from repair, 86,400 s. Lost job-seconds per interruption: 2,430 and 88,230.
  // A second failure during the day-long wait (1 % of them) takes servers back early (those
  // repaired first), so the no-spare figure is allowed 2 % below its value.
  gf::GoodputOptions o = long_job();
  o.leaf_cut_off = {4, 4};
  gf::FailureRates leaf;
  leaf.causes.push_back({"leaf", gf::FailureUnit::Leaf, 1.0 / 100 / 2, 0, gf::Blast::Leaf});
  const auto per_interruption = [&](int64_t spares) {
    o.spares = spares;
    const auto r = gf::run_goodput(leaf, o);
    return r.lost_gpu_hours * 3600 / static_cast<double>(o.gpus) / r.interruptions;
  };
  EXPECT_NEAR(per_interruption(8), 2430, 100);
  const double none = per_interruption(0);
  EXPECT_GT(none, 0.98 * 88230);
  EXPECT_LT(none, 88230 + 100);
}

TEST(FailGoodputBlast, LeafOfARailOptimizedFabricRestartsInPlace) {
  // No server is cut off (all zero), so a leaf failure costs a restart only, spares or not.
  gf::GoodputOptions o = long_job();
  o.leaf_cut_off = std::vector<int64_t>(8, 0);
  gf::FailureRates leaf;
  leaf.causes.push_back({"leaf", gf::FailureUnit::Leaf, 1.0 / 100 / 8, 0, gf::Blast::Leaf});
  o.spares = 0;
  const auto none = gf::run_goodput(leaf, o);
  o.spares = 100;
  const auto many = gf::run_goodput(leaf, o);
  EXPECT_EQ(none.ett, many.ett);
  EXPECT_NEAR(none.lost_gpu_hours * 3600 / 16 / none.interruptions, 2430, 100);
}

TEST(FailGoodputCheckpoint, SizeOverTheNarrowerOfNicsAndStorage) {
  // 405B parameters x 14 B (BF16 weights + FP32 master weights, momentum, variance) = 5.67 TB.
  const double bytes = 405e9 * gf::kCheckpointBytesPerParam;
  EXPECT_DOUBLE_EQ(bytes, 5.67e12);
  // 2,048 servers x 2 storage ports of 400 Gb/s = 2,048 x 100 GB/s = 204.8 TB/s, above Tectonic's
  // 2 TB/s sustained (Llama 3 paper, 3.3.1): storage sets the pace, 5.67e12 / 2e12 = 2.835 s.
  const auto w = gf::checkpoint_write(bytes, 2048, gf::Bandwidth::gbps(800), gf::Bandwidth::bytes_per_s(2e12));
  EXPECT_NEAR(w.seconds, 2.835, 1e-9);
  EXPECT_EQ(w.limit, "--storage-bw");
  // 10 servers x 200 Gb/s (25 GB/s) = 250 GB/s below 2 TB/s: the NICs, 5.67e12 / 2.5e11 = 22.68 s.
  const auto n = gf::checkpoint_write(bytes, 10, gf::Bandwidth::gbps(200), gf::Bandwidth::bytes_per_s(2e12));
  EXPECT_NEAR(n.seconds, 22.68, 1e-9);
  EXPECT_EQ(n.limit, "storage NICs");
  EXPECT_THROW(gf::checkpoint_write(bytes, 10, gf::Bandwidth(), std::nullopt), gf::InputError);
}

TEST(FailGoodputCheckpoint, StorageNicsOfTheServer) {
  // Two storage ports of InfiniBand NDR (400 Gb/s = 50 GB/s each, the catalog's ib-ndr) beside the
  // eight compute NICs, which do not count: 100 GB/s. The preset lists none: zero.
  gf::ClusterSpec spec = gf::resolve_cluster("dgx-h100");
  EXPECT_EQ(gf::storage_nic_bandwidth(spec).bytes_per_second(), 0);
  for (int i = 0; i < 2; ++i) {
    gf::ServerNode n;
    n.name = "storage" + std::to_string(i);
    n.kind = gf::NodeKind::Nic;
    n.tech = "ib-ndr";
    n.role = "storage";
    spec.server.nodes.push_back(n);
  }
  EXPECT_DOUBLE_EQ(gf::storage_nic_bandwidth(spec).bytes_per_second(), 100e9);
}

}  // namespace
