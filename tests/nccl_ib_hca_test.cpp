// Which NICs NCCL uses: storage and management ports are not compute rails (ServerNode::role),
// and NCCL_IB_HCA (topology/ib_hca.hpp) keeps or leaves out compute NICs in NCCL's own syntax.
#include <gtest/gtest.h>

#include "collective/communicator.hpp"
#include "config/presets.hpp"
#include "core/error.hpp"
#include "nccl/nccl_env.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/ib_hca.hpp"

using namespace gf;

namespace {

ServerNode nic(const std::string& label) {
  ServerNode n;
  n.name = "nic";
  n.kind = NodeKind::Nic;
  n.rail = 0;
  n.tech = "ib-ndr";
  n.label = label;
  return n;
}

bool keeps(const std::string& value, const std::string& label) {
  return parse_ib_hca(value, "--env").keeps(nic(label));
}

std::string error_of(const std::string& value) {
  try {
    parse_ib_hca(value, "--env");
  } catch (const InputError& e) {
    return e.key();
  }
  return "";
}

// DGX H100 with its two storage ports added, as the DGX H100 User Guide lists them (two dual-port
// ConnectX-7 beside the eight compute OSFP ports); here one per socket, on the CPU's PCIe.
ClusterSpec dgx_h100_with_storage(int64_t servers) {
  ClusterSpec spec = resolve_cluster("dgx-h100", ClusterOverrides{});
  spec.servers = servers;
  ServerTemplate& t = spec.server;
  for (int k = 0; k < 2; ++k) {
    ServerNode s = nic("mlx5_" + std::to_string(8 + k));
    s.name = "storage" + std::to_string(k);
    s.rail = -1;
    s.role = "storage";
    s.numa = k;
    t.nodes.push_back(s);
    t.links.push_back(
        {static_cast<int>(t.nodes.size()) - 1, t.index_of("cpu" + std::to_string(k) + "_0"), "pcie-gen5-x16", 1});
  }
  return spec;
}

}  // namespace

TEST(IbHca, PrefixExactExcludeAndPortAsNcclReadsThem) {
  // Without '=', each name is a prefix: mlx5_1 also names mlx5_10 and mlx5_11 (the DGX A100 trap).
  EXPECT_TRUE(keeps("mlx5_1", "mlx5_1"));
  EXPECT_TRUE(keeps("mlx5_1", "mlx5_10"));
  EXPECT_FALSE(keeps("mlx5_1", "mlx5_2"));
  EXPECT_TRUE(keeps("mlx5", "mlx5_7"));
  // '=' makes every name exact.
  EXPECT_FALSE(keeps("=mlx5_1", "mlx5_10"));
  EXPECT_TRUE(keeps("=mlx5_0,mlx5_1", "mlx5_1"));
  // '^' excludes what is listed; '^=' excludes exact names.
  EXPECT_FALSE(keeps("^mlx5_1", "mlx5_10"));
  EXPECT_TRUE(keeps("^=mlx5_1", "mlx5_10"));
  EXPECT_FALSE(keeps("^=mlx5_1,mlx5_4", "mlx5_4"));
  // A NIC node is one port, port 1: `:1` names it, `:2` does not.
  EXPECT_TRUE(keeps("=mlx5_0:1", "mlx5_0"));
  EXPECT_FALSE(keeps("=mlx5_0:2", "mlx5_0"));
  // Malformed values are errors naming the variable.
  EXPECT_EQ(error_of("^"), "NCCL_IB_HCA");
  EXPECT_EQ(error_of("mlx5_0:x"), "NCCL_IB_HCA");
  EXPECT_EQ(error_of("mlx5_0,,mlx5_1"), "NCCL_IB_HCA");
}

TEST(IbHca, AppliedThroughTheEnvironmentAndListed) {
  NcclSettings s;
  apply_nccl_env(s, {{"NCCL_IB_HCA", "^=mlx5_1"}}, "--env");
  EXPECT_EQ(s.ib_hca, "^=mlx5_1");
  EXPECT_TRUE(s.ignored.empty());  // no longer "not modelled"
  ClusterOverrides o;
  o.nodes = 2;
  o.ib_hca = s.ib_hca;
  const ClusterSpec spec = resolve_cluster("dgx-h100", o);
  EXPECT_EQ(ib_hca_line(s, spec.server), "NCCL_IB_HCA=^=mlx5_1 (7 of 8 compute NICs per server; not used: mlx5_1)");
}

TEST(IbHca, LeftOutNicsStayCabledButCarryNothing) {
  ClusterOverrides o;
  o.nodes = 2;
  o.ib_hca = "=mlx5_0,mlx5_2,mlx5_4,mlx5_6";  // every other rail
  const ClusterSpec spec = resolve_cluster("dgx-h100", o);
  const Cluster c = build_cluster(spec);
  EXPECT_EQ(c.nic_locals().size(), 4u);
  EXPECT_EQ(c.fabric_nic_locals().size(), 8u);  // the fabric is the same hardware
  EXPECT_EQ(count_cluster(spec).nics, 16);
  const Router r(c);
  const Communicator comm = make_communicator(c, r, 2, 8);
  // 4 NICs of 50 GB/s per direction (NDR 400 Gb/s) shared by 8 GPUs: 25 GB/s each, half of the
  // 8-NIC server's 50.
  EXPECT_NEAR(comm.inter_bw.to_gBps(), 4 * 50.0 / 8, 1e-9);
  // GPU1's own NIC (mlx5_1) is left out: whichever NIC its traffic leaves by is another.
  for (int choice = 0; choice < 8; ++choice)
    for (const Leg& leg : r.uplink_to_fabric(c.gpu(1), 0, choice)) {
      const Node& nic = c.node(c.link(leg.path.links.back()).src);
      EXPECT_NE(spec.server.nodes[nic.local].label, "mlx5_1");
    }
}

TEST(IbHca, NoNicLeftIsAnErrorListingThem) {
  ClusterOverrides o;
  o.nodes = 2;
  o.ib_hca = "=mlx4_0";
  try {
    resolve_cluster("dgx-h100", o);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "NCCL_IB_HCA");
    EXPECT_NE(e.message().find("mlx5_0, mlx5_1"), std::string::npos) << e.message();
  }
  o.nodes = 1;  // one server uses no NIC: nothing to refuse
  EXPECT_NO_THROW(resolve_cluster("dgx-h100", o));
}

TEST(NicRole, StorageNicsAreNotComputeRails) {
  const ClusterSpec spec = dgx_h100_with_storage(2);
  const Cluster c = build_cluster(spec);
  EXPECT_EQ(c.all_nic_locals().size(), 10u);
  EXPECT_EQ(c.fabric_nic_locals().size(), 8u);
  EXPECT_EQ(c.nic_locals().size(), 8u);
  // The fabric cables 8 NICs per server, not 10.
  EXPECT_EQ(count_cluster(spec).nics, 16);
  EXPECT_EQ(count_cluster(spec).shape.nics_per_server, 8);
  const Router r(c);
  const Communicator comm = make_communicator(c, r, 2, 8);
  // 8 compute NICs x 50 GB/s / 8 GPUs; the storage ports would have made it 10 x 50 / 8 = 62.5.
  EXPECT_NEAR(comm.inter_bw.to_gBps(), 50.0, 1e-9);
}

TEST(NicRole, UnknownRoleIsRefused) {
  ClusterSpec spec = dgx_h100_with_storage(1);
  spec.server.nodes.back().role = "storrage";
  EXPECT_THROW(count_cluster(spec), InputError);
}
