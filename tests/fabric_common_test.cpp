// The rules every switched fabric shares: how a switch's ports split for an oversubscription
// ratio, and how NICs spread over planes.
#include <gtest/gtest.h>

#include "topology/fabrics/fabric_common.hpp"

namespace {

gf::PortSplit split(double o, int radix) {
  gf::FabricSpec spec;
  return gf::split_ports(spec, "fabric.oversubscription", o, radix);
}

TEST(FabricCommon, PortSplitFollowsTheRatio) {
  // up = floor(R / (1 + o)), down = min(R - up, round(o x up)).
  // R = 64, o = 1: up = 32, down = 32.
  EXPECT_EQ(split(1, 64).down, 32);
  EXPECT_EQ(split(1, 64).up, 32);
  // o = 2: up = floor(64 / 3) = 21, down = min(43, 42) = 42: exactly 2:1, one port spare.
  EXPECT_EQ(split(2, 64).up, 21);
  EXPECT_EQ(split(2, 64).down, 42);
  // o = 3: up = 16, down = min(48, 48) = 48.
  EXPECT_EQ(split(3, 64).up, 16);
  EXPECT_EQ(split(3, 64).down, 48);
  // o = 1.5: up = floor(25.6) = 25, down = min(39, round(37.5) = 38) = 38.
  EXPECT_EQ(split(1.5, 64).up, 25);
  EXPECT_EQ(split(1.5, 64).down, 38);
  // An odd radix leaves a port unused rather than exceeding 1:1 the wrong way: R = 5 -> 2 up, 2 down.
  EXPECT_EQ(split(1, 5).up, 2);
  EXPECT_EQ(split(1, 5).down, 2);
  // A huge ratio still keeps one uplink: R = 64, o = 100 -> 1 up, 63 down.
  EXPECT_EQ(split(100, 64).up, 1);
  EXPECT_EQ(split(100, 64).down, 63);
}

TEST(FabricCommon, OversubscriptionBelowOneIsAnError) {
  EXPECT_THROW(split(0.5, 64), gf::InputError);
}

TEST(FabricCommon, PlanesTakeRailModuloPlanes) {
  // 2 servers x 4 NICs whose template lists rails 2, 0, 3, 1: plane 0 gets rails 0 and 2, plane 1
  // rails 1 and 3, each in server-then-template order.
  std::vector<gf::FabricEndpoint> eps;
  const int rails[4] = {2, 0, 3, 1};
  for (int s = 0; s < 2; ++s)
    for (int i = 0; i < 4; ++i) eps.push_back({static_cast<gf::NodeId>(s * 4 + i), s, rails[i]});
  auto planes = gf::split_planes(eps, 4, 2);
  ASSERT_EQ(planes.size(), 2u);
  ASSERT_EQ(planes[0].size(), 4u);
  EXPECT_EQ(planes[0][0].rail, 2);
  EXPECT_EQ(planes[0][1].rail, 0);
  EXPECT_EQ(planes[0][2].server, 1);
  EXPECT_EQ(planes[1][0].rail, 3);
  EXPECT_EQ(planes[1][1].rail, 1);
}

TEST(FabricCommon, RepeatedRailsFallBackToPosition) {
  // Rails 0, 0 are not 0..n-1: NIC positions 0 and 1 stand in for them.
  std::vector<gf::FabricEndpoint> eps = {{0, 0, 0}, {1, 0, 0}};
  auto planes = gf::split_planes(eps, 2, 2);
  EXPECT_EQ(planes[0][0].nic, 0);
  EXPECT_EQ(planes[1][0].nic, 1);
  EXPECT_EQ(planes[1][0].rail, 1);
}

TEST(FabricCommon, PlanesMustDivideTheNics) {
  gf::FabricSpec spec;
  gf::FabricShape shape;
  shape.servers = 4;
  shape.nics_per_server = 8;
  spec.planes = 3;
  EXPECT_THROW(gf::plane_count(spec, shape), gf::InputError);
  spec.planes = 0;
  EXPECT_THROW(gf::plane_count(spec, shape), gf::InputError);
  spec.planes = 4;
  EXPECT_EQ(gf::plane_count(spec, shape), 4);
  EXPECT_EQ(gf::plane_shape(shape, 4).nics_per_server, 2);
}

}  // namespace
