// NCCL_NET=IB on NICs NCCL's IB transport cannot drive (topology/net_ib_check.hpp): NCCL loads
// only the plugin whose name matches NCCL_NET (src/plugin/net.cc ncclNetInit), its IB plugin keeps
// only verbs ports whose link layer is InfiniBand or Ethernet (src/transport/net_ib/init.cc), and
// with none NCCL stops with "Failed to initialize any NET plugin". Each case below was accepted
// before this check (the run went on over the NICs' own transport).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include <gpufabric/perf_context.hpp>

#include "config/presets.hpp"
#include "core/error.hpp"
#include "nccl/nccl_env.hpp"
#include "topology/ib_hca.hpp"
#include "topology/net_ib_check.hpp"
#include "topology/servers/servers.hpp"

using namespace gf;

namespace {

ClusterOverrides env(const std::vector<std::pair<std::string, std::string>>& vars, int64_t nodes) {
  NcclSettings s;
  apply_nccl_env(s, vars, "--env");
  ClusterOverrides o = with_ib_hca(ClusterOverrides{}, s);
  o.nodes = nodes;
  return o;
}

// The InputError resolve_cluster throws for `cluster` under `vars`; fails the test when none.
InputError refusal(const std::string& cluster, const std::vector<std::pair<std::string, std::string>>& vars) {
  try {
    resolve_cluster(cluster, env(vars, 2));
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << cluster << " accepted";
  return InputError({}, "", "");
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(NcclNetIb, EfaIsRefused) {
  // aws-p5: EFA NICs. The efa driver reports an unspecified link layer, so NCCL's IB plugin finds
  // no device; aws-ofi-nccl registers as "Libfabric".
  const InputError e = refusal("aws-p5", {{"NCCL_NET", "IB"}});
  EXPECT_EQ(e.key(), "NCCL_NET");
  EXPECT_EQ(e.where().file, "--env");
  EXPECT_TRUE(has(e.message(), "EFA")) << e.message();
  EXPECT_TRUE(has(e.message(), "Libfabric")) << e.message();
  EXPECT_TRUE(has(e.message(), "Failed to initialize any NET plugin")) << e.message();
  EXPECT_TRUE(has(e.hint(), "drop NCCL_NET")) << e.hint();
  // NCCL matches the name without case (strcasecmp).
  EXPECT_EQ(refusal("aws-p5", {{"NCCL_NET", "ib"}}).key(), "NCCL_NET");
}

TEST(NcclNetIb, TcpxoIsRefused) {
  // gcp-a3-mega: GPUDirect-TCPXO NICs, Google's own plugin, no verbs device.
  const InputError e = refusal("gcp-a3-mega", {{"NCCL_NET", "IB"}});
  EXPECT_TRUE(has(e.message(), "TCPX")) << e.message();
}

TEST(NcclNetIb, PlainTcpIsRefusedWithSocketAsTheWayOut) {
  ServerTemplate s = make_dgx_h100();
  for (ServerNode& n : s.nodes)
    if (n.compute_nic()) n.tech = "eth-400g-tcp";
  const NetRefusal r = ib_transport_refusal(s, LinkCatalog::builtin());
  ASSERT_TRUE(r.refused());
  EXPECT_TRUE(has(r.message, "plain TCP")) << r.message;
  EXPECT_TRUE(has(r.hint, "NCCL_NET=Socket")) << r.hint;
}

TEST(NcclNetIb, InfiniBandAndRoceRun) {
  // dgx-h100 (ib-ndr) and pcie-8gpu (RoCE): NCCL's IB transport drives both.
  EXPECT_NO_THROW(resolve_cluster("dgx-h100", env({{"NCCL_NET", "IB"}}, 2)));
  EXPECT_NO_THROW(resolve_cluster("pcie-8gpu", env({{"NCCL_NET", "IB"}}, 2)));
  // Socket and an unset NCCL_NET are not this check's: EFA runs its own transport.
  EXPECT_NO_THROW(resolve_cluster("aws-p5", env({{"NCCL_NET", "Socket"}}, 2)));
  EXPECT_NO_THROW(resolve_cluster("aws-p5", env({}, 2)));
  // The last value given wins, as in an environment.
  EXPECT_NO_THROW(resolve_cluster("aws-p5", env({{"NCCL_NET", "IB"}, {"NCCL_NET", "Socket"}}, 2)));
}

TEST(NcclNetIb, MixedNicsNameTheOneLeftOverOrAreLeftOutByIbHca) {
  // One of dgx-h100's 8 NDR NICs made EFA: NCCL's IB plugin would run on the 7 others, so the
  // refusal says so and points at NCCL_IB_HCA; excluding that NIC there makes it run.
  ServerTemplate s = make_dgx_h100();
  ServerNode* first = nullptr;
  for (ServerNode& n : s.nodes)
    if (n.compute_nic() && !first) first = &n;
  ASSERT_NE(first, nullptr);
  first->tech = "efa-100g";
  const NetRefusal r = ib_transport_refusal(s, LinkCatalog::builtin());
  ASSERT_TRUE(r.refused());
  EXPECT_TRUE(has(r.message, "only the server's 7 InfiniBand/RoCE NICs")) << r.message;
  EXPECT_TRUE(has(r.hint, "NCCL_IB_HCA")) << r.hint;
  apply_ib_hca(s, "^=" + ib_name(*first), true, "--env");
  EXPECT_FALSE(ib_transport_refusal(s, LinkCatalog::builtin()).refused());
}

TEST(NcclNetIb, EnvironmentIsNamedAsTheOrigin) {
  NcclSettings s;
  apply_nccl_env(s, {{"NCCL_NET", "IB"}}, "environment");
  ClusterOverrides o = with_ib_hca(ClusterOverrides{}, s);
  o.nodes = 2;
  try {
    resolve_cluster("aws-p5", o);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().file, "environment");
  }
}
