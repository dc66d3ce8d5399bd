// Router's scale-up reachability across servers (GB200 NVL72 racks): GPUs of different racks are
// told apart by connected components instead of a search per pair. The answer must be the
// search's: the scale-up route is kept for every pair the search joins, and no other.
#include <gtest/gtest.h>

#include "config/presets.hpp"
#include "routing/router.hpp"
#include "routing/segment_search.hpp"
#include "topology/cluster_spec.hpp"

using namespace gf;

TEST(RouterScaleUpComponents, PlansAgreeWithTheSearchAcrossRacks) {
  // Two racks of 18 trays x 4 GPUs: 144 GPUs, 72 per NVLink domain.
  Cluster c = build_cluster(resolve_cluster("gb200-nvl72-cluster", int64_t{36}));
  Router router(c);
  ASSERT_EQ(c.gpu_count(), 144);
  int same = 0, other = 0;
  for (int64_t i = 0; i < c.gpu_count(); i += 5)
    for (int64_t j = 0; j < c.gpu_count(); j += 7) {
      if (i == j) continue;
      const bool search = SegmentSearch(c, {c.gpu(i), c.gpu(j), SegmentKind::ScaleUp}).reached();
      const auto plans = router.plans(c.gpu(i), c.gpu(j));
      ASSERT_FALSE(plans.empty());
      const bool scale_up = plans[0].size() == 1 && plans[0][0].kind == SegmentKind::ScaleUp;
      EXPECT_EQ(scale_up, search) << i << " -> " << j;
      // By hand: a rack is 72 consecutive GPUs, and only NVLink joins GPUs without a NIC.
      EXPECT_EQ(search, i / 72 == j / 72) << i << " -> " << j;
      (search ? same : other)++;
    }
  EXPECT_GT(same, 0);
  EXPECT_GT(other, 0);
}
