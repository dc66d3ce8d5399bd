// A slow GPU's reductions (`perf --degrade server0/gpu3=F`, FlowModel::set_gpu_compute): the
// channels reducing on it share one rate, F x its HBM-bound reduce rate, so a ring all-reduce
// slows down by what that GPU's reduce-scatter half costs at the lower rate.
#include <gtest/gtest.h>

#include <gpufabric/simulation.hpp>

#include "model/flow/flow_model.hpp"
#include "model/transfer_cost.hpp"
#include "packet_test_net.hpp"
#include "topology/faults.hpp"
#include "workload/sweep.hpp"

namespace {

gf::SweepOptions ring_allreduce(gf::Bytes size) {
  gf::SweepOptions o;
  o.call.kind = gf::CollectiveKind::AllReduce;
  o.min_bytes = o.max_bytes = size;
  o.algo = "ring";
  o.proto = "simple";
  return o;
}

gf::Time ring_time(const gf::Simulation& sim, gf::SweepOptions o) {
  for (const auto& f : sim.faults())
    if (f.gpu != gf::kNoNode) o.slow_gpus.emplace_back(f.gpu, f.compute);
  return sim.sweep(sim.communicator(), o).at(0).time;
}

// The NVLink bandwidth into `gpu` the models use: its links from the NVSwitch chips, at NCCL's
// efficiency (its PCIe link to the NIC's switch carries none of a one-server ring).
double ingress_Bps(const gf::Cluster& c, gf::NodeId gpu) {
  const gf::TransferCost cost(c, {});
  double sum = 0;
  for (gf::LinkId l : c.out_links(gpu))
    if (c.node(c.link(l).dst).kind == gf::NodeKind::NvSwitch) sum += cost.capacity(c.link(l).reverse);
  return sum;
}

gf::ClusterOverrides one_server() {
  gf::ClusterOverrides o;
  o.nodes = 1;
  return o;
}

TEST(FailSlowGpu, ChannelsReducingOnOneSlowGpuShareItsRate) {
  // gpu0 and gpu1 -> s0 -> gpu2, links of 100 Gb/s (12.5 GB/s) and 1 us: two transfers of b = 1 MB
  // each reduced on gpu2 at R = 20 GB/s per transfer (above the link: the per-transfer bound never
  // binds). Healthy, they share s0 -> gpu2 and each ends at alpha + 2b / 12.5 GB/s (alpha = the
  // 2 us path). gpu2 at F = 0.25: they share one reduction of F R = 5 GB/s, so each ends at
  // alpha + 2b / 5 GB/s. (Bounded per transfer, as before the shared resource, each would keep
  // its own F R = 5 GB/s and end at alpha + b / 5 GB/s: the shared rate is what makes two
  // channels reducing on one GPU cost twice one.)
  for (const double F : {1.0, 0.25}) {
    gf::testnet::Net n(3, 1, gf::LinkFamily::InfiniBand);
    const gf::LinkId a = n.link(n.gpu[0], n.sw[0]), b = n.link(n.gpu[1], n.sw[0]), out = n.link(n.sw[0], n.gpu[2]);
    n.c.finalize();
    gf::FlowModel m(n.c, gf::testnet::params());
    if (F < 1) m.set_gpu_compute(n.gpu[2], F);
    const double bytes = 1e6, R = 20e9;
    for (int i = 0; i < 2; ++i) {
      gf::ModelTransfer t = gf::testnet::transfer({i == 0 ? a : b, out}, gf::Bytes(static_cast<int64_t>(bytes)));
      t.reduce = t.bytes;
      t.reduce_rate = gf::Bandwidth::gBps(R / 1e9);
      m.start(i, t, gf::Time::zero());
    }
    const auto t = gf::testnet::drain(m, 2);
    const double rate = F < 1 ? F * R : 12.5e9;
    const double expected = 2e-6 + 2 * bytes / rate;
    EXPECT_NEAR(t[0].to_s(), expected, 1e-6 * expected) << "F = " << F;
    EXPECT_NEAR(t[1].to_s(), expected, 1e-6 * expected) << "F = " << F;
  }
}

TEST(FailSlowGpu, ASlowReducerSlowsTheRingAtLeastByItsReduceScatterHalf) {
  // One DGX H100, 8 GPUs, ring all-reduce of S = 1 GiB (Simple, 16 channels). Each GPU receives
  // 2(n-1)/n S over its NVLinks at B (18 NVLink4 x 25 GB/s x 0.824 = 370.8 GB/s): half of it in
  // the reduce-scatter steps, which it reduces, half in the all-gather steps, which it copies.
  // At full speed a GPU reduces at R = HBM/3 (1.12 TB/s here), above B, so reduction never binds.
  // gpu3 at F = 0.25 reduces at F R = 279 GB/s < B, shared by all 16 channels: its ingress must
  // carry the reduce-scatter half at F R at most and the all-gather half at B at most, so the call
  // takes at least
  //   T >= (n-1)/n S (1/(F R) + 1/B)                      = 5.90 ms
  // and, every step of the synchronous ring at most as slow as the slowest reducer,
  //   T <= 2(n-1)/n S / (F R) + the healthy call's latency (its time less 2(n-1)/n S / B).
  const gf::Bytes S = gf::Bytes::gib(1);
  const int n = 8;
  const double F = 0.25;
  const auto healthy = gf::Simulation::load("dgx-h100-2node", one_server());
  const auto slow = gf::Simulation::load("dgx-h100-2node", one_server(), {gf::parse_fault("--degrade", "server0/gpu3=0.25")});
  ASSERT_EQ(slow.faults().size(), 1u);
  const gf::NodeId gpu3 = slow.cluster().gpu(3);
  EXPECT_EQ(slow.faults().front().gpu, gpu3);
  const double B = ingress_Bps(slow.cluster(), gpu3);
  const double R = slow.cluster().server_template().gpu.memory_bw.bytes_per_second() / 3;
  ASSERT_LT(F * R, B);  // the case this checks: the slow reducer binds
  ASSERT_GT(R, B);      // and at full speed it does not
  const double half = static_cast<double>(S.count()) * (n - 1) / n;
  const double t0 = ring_time(healthy, ring_allreduce(S)).to_s();
  const double t1 = ring_time(slow, ring_allreduce(S)).to_s();
  EXPECT_NEAR(t0, 2 * half / B, 0.02 * t0);  // the healthy call is NVLink-bound
  const double latency = t0 - 2 * half / B;
  EXPECT_GE(t1, half * (1 / (F * R) + 1 / B)) << "healthy " << t0 << " s, slow " << t1 << " s";
  EXPECT_LE(t1, 2 * half / (F * R) + latency) << "healthy " << t0 << " s, slow " << t1 << " s";
}

TEST(FailSlowGpu, AReducerThatStaysAboveItsNvlinksCostsNothing) {
  // F = 0.5: F R = 558 GB/s is still above the 370.8 GB/s the GPU receives, so the shared
  // reduction never binds and the call takes the healthy time.
  const gf::Bytes S = gf::Bytes::mib(256);
  const auto healthy = gf::Simulation::load("dgx-h100-2node", one_server());
  const auto slow = gf::Simulation::load("dgx-h100-2node", one_server(), {gf::parse_fault("--degrade", "server0/gpu3=0.5")});
  const double B = ingress_Bps(slow.cluster(), slow.cluster().gpu(3));
  ASSERT_GT(0.5 * slow.cluster().server_template().gpu.memory_bw.bytes_per_second() / 3, B);
  const double t0 = ring_time(healthy, ring_allreduce(S)).to_s();
  const double t1 = ring_time(slow, ring_allreduce(S)).to_s();
  EXPECT_NEAR(t1 / t0, 1.0, 1e-6);
}

TEST(FailSlowGpu, AGpuIsSlowedNotFailedAndOnlyByAFraction) {
  gf::Cluster c = gf::build_cluster(gf::resolve_cluster("dgx-h100-2node", gf::ClusterOverrides{}));
  auto error = [&](const std::string& flag, const std::string& spec) {
    try {
      gf::apply_faults(c, {gf::parse_fault(flag, spec)});
    } catch (const gf::InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error("--fail", "server0/gpu3").find("--degrade server0/gpu3=0.5"), std::string::npos);
  EXPECT_NE(error("--degrade", "server0/gpu3=latency:+1us").find("is a GPU"), std::string::npos);
  EXPECT_NE(error("--degrade", "server0/gpu9=0.5").find("no component named"), std::string::npos);
  const auto applied = gf::apply_faults(c, {gf::parse_fault("--degrade", "server1/gpu2=0.8")});
  EXPECT_EQ(applied.front().gpu, c.gpu(10));
  EXPECT_DOUBLE_EQ(applied.front().compute, 0.8);
  EXPECT_TRUE(applied.front().links.empty());
}

}  // namespace
