// A slow GPU in the analytical and packet models (AnalyticalModel::, PacketModel::set_gpu_compute):
// the flow model's shared reduction resource (fail_slow_gpu_test.cpp) in closed form and as a
// clock each packet books, so the three models agree on what one slow reducer costs.
#include <gtest/gtest.h>

#include <gpufabric/simulation.hpp>

#include "model/analytical/analytical_model.hpp"
#include "model/flow/flow_model.hpp"
#include "model/transfer_cost.hpp"
#include "packet_test_net.hpp"
#include "topology/faults.hpp"
#include "workload/sweep.hpp"

namespace {

// gpu0 and gpu1 -> s0 -> gpu2, links of 100 Gb/s (12.5 GB/s) and 1 us: two transfers of b = 1 MB
// each reduced on gpu2 at R = 20 GB/s per transfer, started together (fail_slow_gpu_test's case).
std::vector<gf::Time> two_reducing(const std::string& model, double F) {
  gf::testnet::Net n(3, 1, gf::LinkFamily::InfiniBand);
  const gf::LinkId a = n.link(n.gpu[0], n.sw[0]), b = n.link(n.gpu[1], n.sw[0]), out = n.link(n.sw[0], n.gpu[2]);
  n.c.finalize();
  std::unique_ptr<gf::Model> m;
  if (model == "analytical") {
    auto am = std::make_unique<gf::AnalyticalModel>(n.c, gf::testnet::params());
    if (F < 1) am->set_gpu_compute(n.gpu[2], F);
    m = std::move(am);
  } else {
    auto pm = std::make_unique<gf::PacketModel>(n.c, gf::testnet::params());
    if (F < 1) pm->set_gpu_compute(n.gpu[2], F);
    m = std::move(pm);
  }
  for (int i = 0; i < 2; ++i) {
    gf::ModelTransfer t = gf::testnet::transfer({i == 0 ? a : b, out}, gf::Bytes(1000000));
    t.reduce = t.bytes;
    t.reduce_rate = gf::Bandwidth::gBps(20);
    m->start(i, t, gf::Time::zero());
  }
  return gf::testnet::drain(*m, 2);
}

TEST(FailSlowGpuModels, TheAnalyticalModelGivesASlowGpuToItsTransfersInTurn) {
  // Healthy: both load s0 -> gpu2 (load 2), wire = 2b / 12.5 GB/s = 160 us, above b / R = 50 us;
  // each ends at alpha (the 2 us path) + 160 us. gpu2 at F = 0.25: each books b / (F R) = 1 MB /
  // 5 GB/s = 200 us of it in the order they start, so the first ends at 2 us + max(160, 200) us
  // and the second at 2 us + max(160, 400) us: the pair's end is the flow model's exact answer
  // for both (fail_slow_gpu_test), the GPU busy at F R throughout.
  const auto healthy = two_reducing("analytical", 1.0);
  EXPECT_NEAR(healthy[0].to_s(), 2e-6 + 2e6 / 12.5e9, 1e-12);
  EXPECT_NEAR(healthy[1].to_s(), 2e-6 + 2e6 / 12.5e9, 1e-12);
  const auto slow = two_reducing("analytical", 0.25);
  EXPECT_NEAR(slow[0].to_s(), 2e-6 + 1e6 / 5e9, 1e-12);
  EXPECT_NEAR(slow[1].to_s(), 2e-6 + 2e6 / 5e9, 1e-12);
}

TEST(FailSlowGpuModels, ThePacketModelBooksEveryPacketOnTheSlowGpusOneClock) {
  // gpu2 at F = 0.25: each packet (4,096 B, 245 per transfer) books 4,096 B / (F R) = 819.2 ns of
  // gpu2's one clock, so the two transfers' 2 MB take 2 MB / (F R) = 400 us between them: the last
  // packet of each leaves by 400 us and arrives after two hops (2 x 332.8 ns + 2 us), so both
  // end within 2 us + 400 us, less one booking (0.82 us) plus two serializations (0.67 us). The
  // healthy pair (each capped at its own R = 20 GB/s, above the 6.25 GB/s share of s0 -> gpu2)
  // is wire-bound: 2 x 245 packets x 4,160 B / 12.5 GB/s = 163 us.
  const auto slow = two_reducing("packet", 0.25);
  const double expected = 2e-6 + 2e6 / (0.25 * 20e9);
  EXPECT_NEAR(slow[0].to_s(), expected, 1e-6);
  EXPECT_NEAR(slow[1].to_s(), expected, 1e-6);
  const auto healthy = two_reducing("packet", 1.0);
  EXPECT_NEAR(std::max(healthy[0], healthy[1]).to_s(), 2e-6 + 2 * 245 * 4160 / 12.5e9, 1e-6);
}

gf::Time ring_time(const gf::Simulation& sim, const std::string& model, gf::Bytes size) {
  gf::SweepOptions o;
  o.call.kind = gf::CollectiveKind::AllReduce;
  o.min_bytes = o.max_bytes = size;
  o.algo = "ring";
  o.proto = "simple";
  o.model = model;
  for (const auto& f : sim.faults())
    if (f.gpu != gf::kNoNode) o.slow_gpus.emplace_back(f.gpu, f.compute);
  return sim.sweep(sim.communicator(), o).at(0).time;
}

TEST(FailSlowGpuModels, TheThreeModelsAgreeOnARingWithASlowReducer) {
  // One DGX H100, ring all-reduce of S = 1 GiB (Simple, 16 channels), gpu3 at F = 0.25: its F R =
  // 279 GB/s is below its B = 370.8 GB/s of NVLink ingress, so each model must put the call
  // between fail_slow_gpu_test's bounds: at least (n-1)/n S (1/(F R) + 1/B) = 5.90 ms (the
  // reduce-scatter half at F R, the all-gather half at B), at most every step at F R plus the
  // healthy call's latency, 2(n-1)/n S / (F R) + (t0 - 2(n-1)/n S / B) = 6.79 ms. The packet model
  // books each packet on gpu3's clock and the flow model shares its rate: within 2 % of each
  // other (the packet model's healthy ring is 1.5 % slower: its headers). The analytical model
  // books each transfer in turn: within 10 % of the flow model (its charges are fixed when a
  // transfer starts, so the channels it staggers stay staggered).
  gf::ClusterOverrides one;
  one.nodes = 1;
  const auto healthy = gf::Simulation::load("dgx-h100-2node", one);
  const auto slow = gf::Simulation::load("dgx-h100-2node", one, {gf::parse_fault("--degrade", "server0/gpu3=0.25")});
  const gf::Bytes S = gf::Bytes::gib(1);
  const double R = slow.cluster().server_template().gpu.memory_bw.bytes_per_second() / 3;
  double B = 0;
  const gf::TransferCost cost(slow.cluster(), {});
  for (gf::LinkId l : slow.cluster().out_links(slow.cluster().gpu(3)))
    if (slow.cluster().node(slow.cluster().link(l).dst).kind == gf::NodeKind::NvSwitch)
      B += cost.capacity(slow.cluster().link(l).reverse);
  const double half = static_cast<double>(S.count()) * 7 / 8;
  const double lower = half * (1 / (0.25 * R) + 1 / B);
  const double t0 = ring_time(healthy, "flow", S).to_s();
  const double upper = 2 * half / (0.25 * R) + (t0 - 2 * half / B);
  const double flow = ring_time(slow, "flow", S).to_s();
  for (const auto& [model, tolerance] : {std::pair<std::string, double>{"analytical", 0.10}, {"packet", 0.02}}) {
    const double t = ring_time(slow, model, S).to_s();
    EXPECT_GE(t, lower) << model << " " << t << " s";
    EXPECT_LE(t, upper) << model << " " << t << " s";
    EXPECT_NEAR(t / flow, 1.0, tolerance) << model << " " << t << " s, flow " << flow << " s";
  }
  EXPECT_GE(flow, lower);
  EXPECT_LE(flow, upper);
}

}  // namespace
