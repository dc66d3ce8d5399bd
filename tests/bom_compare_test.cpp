// `gpufabric compare`: each design's figures come from its bill of materials, its fabric counts
// and the same sweep `gpufabric perf` runs.
#include <gtest/gtest.h>

#include <gpufabric/simulation.hpp>

#include "bom/compare.hpp"
#include "config/presets.hpp"

namespace {

gf::SweepOptions one_size(const char* model) {
  gf::SweepOptions s;
  s.call.kind = gf::CollectiveKind::AllReduce;
  s.min_bytes = s.max_bytes = gf::Bytes(int64_t{1} << 30);
  s.model = model;
  return s;
}

TEST(BomCompare, BusbwIsWhatPerfComputes) {
  // The same cluster through the public Simulation (as `perf` runs it) and through compare.
  const gf::SweepOptions s = one_size("analytical");
  const gf::Simulation sim = gf::Simulation::load("dgx-h100-2node");
  const auto rows = sim.sweep(sim.communicator(), s);
  ASSERT_EQ(rows.size(), 1u);
  const gf::DesignFigures d = gf::evaluate_design(gf::resolve_cluster("dgx-h100-2node", gf::ClusterOverrides{}), "a",
                                                  gf::PriceTable::builtin(), s);
  ASSERT_TRUE(d.perf.has_value());
  EXPECT_DOUBLE_EQ(d.perf->busbw_gBps, rows[0].busbw_gBps);
  EXPECT_EQ(d.perf->choice.algorithm, rows[0].choice.algorithm);
  // busbw per million dollars of the whole bill.
  EXPECT_DOUBLE_EQ(d.busbw_per_musd(), rows[0].busbw_gBps / (d.bom.totals().usd / 1e6));
}

TEST(BomCompare, FabricFiguresFollowTheCounts) {
  // 128 DGX H100 on a non-blocking rail-optimized NDR fabric: half of the 1,024 NICs x 400 Gb/s
  // cross the worst balanced cut, 204.8 Tb/s per direction; 32 leaves + 16 spines; a route
  // between rails climbs leaf, spine, leaf: 3 switches.
  const gf::DesignFigures d = gf::evaluate_design(gf::resolve_cluster("dgx-h100-superpod", gf::ClusterOverrides{}),
                                                  "ib", gf::PriceTable::builtin(), std::nullopt);
  EXPECT_EQ(d.gpus, 1024);
  EXPECT_EQ(d.switches, 48);
  EXPECT_DOUBLE_EQ(d.bisection_gbps, 1024 / 2 * 400.0);
  EXPECT_EQ(d.max_switch_hops, 3);
  EXPECT_FALSE(d.perf.has_value());
  EXPECT_EQ(d.busbw_per_musd(), 0);
  // Cables of a two-layer fabric: one per NIC below the leaves and as many above.
  EXPECT_EQ(d.bom.cables, 2 * 1024);
}

TEST(BomCompare, TextAndJsonCarryEveryDesign) {
  const gf::PriceTable t = gf::PriceTable::builtin();
  std::vector<gf::DesignFigures> ds = {
      gf::evaluate_design(gf::resolve_cluster("dgx-h100-superpod-su", gf::ClusterOverrides{}), "su", t, std::nullopt),
      gf::evaluate_design(gf::resolve_cluster("dgx-h100-superpod", gf::ClusterOverrides{}), "pod", t, std::nullopt)};
  const std::string text = gf::compare_text(ds, "");
  EXPECT_NE(text.find("su"), std::string::npos);
  EXPECT_NE(text.find("pod"), std::string::npos);
  EXPECT_EQ(text.find("busbw"), std::string::npos);  // no collective asked
  const auto j = gf::compare_json(ds, "");
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[1]["gpus"], 1024);
  EXPECT_DOUBLE_EQ(j[0]["usd"].get<double>(), ds[0].bom.totals().usd);
}

}  // namespace
