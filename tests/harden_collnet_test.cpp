// CollNet needs a network switch to reduce in. A direct fabric (full_mesh) joins the NICs of
// servers to each other with no switch, so even NICs whose technology (InfiniBand NDR, whose
// Quantum-2 switches offer SHARP) would reduce elsewhere must not be offered CollNet there: the
// route lookup to the "first switch" finds none and used to throw out of `perf` as an abort.
#include <gtest/gtest.h>

#include "algorithm_check.hpp"

namespace {

using gf::CollectiveKind;

std::unique_ptr<algocheck::Setup> on_fabric(const std::string& server, const std::string& fabric) {
  gf::ClusterSpec spec = gf::resolve_cluster(server, 2);
  spec.fabric.kind = fabric;
  return std::make_unique<algocheck::Setup>(spec, 2, 8);
}

TEST(HardenCollNet, UnsupportedOnADirectFabric) {
  for (const char* server : {"dgx-h100", "dgx-a100", "hgx-h200"}) {
    auto mesh = on_fabric(server, "full_mesh");
    EXPECT_FALSE(mesh->comm.collnet) << server;
    for (const char* name : {"collnet_direct", "collnet_chain"}) {
      const std::string why = algocheck::algo(name).unsupported(mesh->comm, CollectiveKind::AllReduce);
      EXPECT_NE(why.find("full_mesh or torus"), std::string::npos) << server << " " << name << ": " << why;
    }
  }
}

TEST(HardenCollNet, StillOfferedWhereASwitchReduces) {
  // The same servers on a leaf-spine of NDR switches: SHARP is there, CollNet stays available,
  // so the check above is about the missing switch, not about the servers.
  auto clos = on_fabric("dgx-h100", "leaf_spine");
  EXPECT_TRUE(clos->comm.collnet);
  EXPECT_EQ(algocheck::algo("collnet_chain").unsupported(clos->comm, CollectiveKind::AllReduce), "");
}

}  // namespace
