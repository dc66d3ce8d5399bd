// Servers for the newer GPUs of the catalog (training/gpu_catalog), where a public description
// exists: the MI325X platform is the MI300X platform's board with MI325X modules.
#include <gtest/gtest.h>

#include "topology/link_tech.hpp"
#include "topology/server_registry.hpp"
#include "training/gpu_catalog.hpp"

using namespace gf;

TEST(NewServers, Mi325xIsTheMi300xBoardWithItsGpu) {
  const ServerPreset* p = find_server("mi325x");
  ASSERT_NE(p, nullptr);
  const ServerTemplate t = p->make();
  const ServerTemplate base = find_server("mi300x")->make();
  EXPECT_EQ(t.count(NodeKind::Gpu), 8);
  EXPECT_EQ(t.compute_nics(), 8);
  EXPECT_EQ(t.links.size(), base.links.size());  // the same board: 28 xGMI links, PCIe, NICs
  // 6 TB/s HBM3E (AMD Instinct MI325X data sheet), and the GPU is the catalog's.
  EXPECT_DOUBLE_EQ(t.gpu.memory_bw.to_gBps(), 6000);
  EXPECT_EQ(t.gpu.model, "MI325X-256GB");
  EXPECT_TRUE(find_training_gpu(t.gpu.model).has_value());
}
