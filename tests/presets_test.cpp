// Every preset is a valid design: it counts, and (when small enough) builds into a graph whose
// hardware matches its counts and in which every GPU reaches every other.
#include <gtest/gtest.h>

#include "config/presets.hpp"
#include "routing/router.hpp"

using namespace gf;

TEST(Presets, EveryPresetCountsAndBuildsConsistently) {
  for (const auto& p : list_presets()) {
    SCOPED_TRACE(p.name);
    ClusterSpec spec = resolve_cluster(p.name);
    ClusterCounts counts = count_cluster(spec);
    EXPECT_EQ(counts.gpus, spec.servers * spec.server.count(NodeKind::Gpu));
    if (counts.links_directed > 5'000'000) continue;  // the largest are covered by bench/
    Cluster c = build_cluster(spec);
    EXPECT_EQ(static_cast<int64_t>(c.links().size()), counts.links_directed);
    int64_t switches = 0;
    for (const auto& t : counts.fabric.tiers) switches += t.switches;
    int64_t built_switches = 0;
    for (const auto& n : c.nodes()) built_switches += n.kind == NodeKind::Switch;
    EXPECT_EQ(built_switches, switches);
    // gpu0 reaches the last GPU (the farthest in every builder's numbering) by some route.
    Router r(c);
    if (c.gpu_count() > 1) {
      EXPECT_FALSE(r.hashed_path(c.gpu(0), c.gpu(c.gpu_count() - 1), 1).empty());
    }
  }
}

TEST(Presets, ServerPresetsScaleWithNodes) {
  // `--cluster dgx-h100 --nodes 2048` is a valid 16,384-GPU cluster on its usual fabric:
  // 2048 servers x 8 rails = 16,384 NIC ports > 64 leaves x 32 down ports = 2,048 for two tiers,
  // so the rail-optimized fabric needs a third tier.
  ClusterSpec spec = resolve_cluster("dgx-h100", 2048);
  ClusterCounts c = count_cluster(spec);
  EXPECT_EQ(c.gpus, 16384);
  EXPECT_EQ(spec.fabric.kind, "rail_optimized");
  EXPECT_EQ(c.fabric.tiers.size(), 3u);
}
