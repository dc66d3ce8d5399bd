// GPU-to-GPU routes inside a server never split between NVLink and a path through a CPU: on a
// GB200 tray GPU -C2C- Grace -C2C- GPU is as short as GPU - NVSwitch - GPU, but NCCL's peer path is
// NVLink (src/graph/paths.cc ranks NVL above paths through a CPU).
#include <gtest/gtest.h>

#include "config/presets.hpp"
#include "routing/router.hpp"

using namespace gf;

namespace {

bool crosses_cpu(const Cluster& c, const Path& p) {
  for (LinkId l : p.links)
    if (c.node(c.link(l).dst).kind == NodeKind::Cpu || c.node(c.link(l).src).kind == NodeKind::Cpu) return true;
  return false;
}

}  // namespace

TEST(PeerPath, Gb200TrayGpusTalkOverNvlinkOnly) {
  Cluster c = build_cluster(resolve_cluster("gb200-nvl72"));
  Router router(c);
  // gpu0 and gpu1 hang off the same Grace (cpu0) by NVLink-C2C and off the NVSwitch chips by NVLink5.
  Route r = router.route(c.gpu(0), c.gpu(1), 0);
  ASSERT_FALSE(r.empty());
  double share = 0;
  for (const Leg& leg : r) {
    EXPECT_FALSE(crosses_cpu(c, leg.path));
    EXPECT_EQ(leg.path.links.size(), 2u);  // GPU -> NVSwitch chip -> GPU
    share += leg.share;
  }
  EXPECT_NEAR(share, 1.0, 1e-12);
}

TEST(PeerPath, PcieOnlyServerStillRoutesThroughTheCpus) {
  // 8 RTX 4090 on CPU root ports: every GPU pair's only path crosses the CPUs, and is kept.
  Cluster c = build_cluster(resolve_cluster("pcie-8gpu-rootport"));
  Router router(c);
  Route r = router.route(c.gpu(0), c.gpu(4), 0);
  ASSERT_FALSE(r.empty());
  for (const Leg& leg : r) EXPECT_TRUE(crosses_cpu(c, leg.path));
}
