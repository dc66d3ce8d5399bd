// SHARP aggregation trees shared by several communicators (nccl/sharp_allocation.hpp): Quantum
// (HDR) holds one tree per switch, Quantum-2 (NDR) one per port; a communicator refused runs
// without CollNet, as NCCL's collNetTrySetup leaves it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "collective/communicator.hpp"
#include "config/presets.hpp"
#include "nccl/sharp_allocation.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "workload/scenario.hpp"
#include "workload/scenario_yaml.hpp"

using namespace gf;

namespace {

ClusterSpec eight(const std::string& server, const std::string& link, const std::string& model) {
  ClusterOverrides o;
  o.nodes = 8;
  ClusterSpec spec = resolve_cluster(server, o);
  spec.fabric.kind = "rail_optimized";
  spec.fabric.link = link;
  spec.fabric.switch_model = model;
  return spec;
}

Communicator on_servers(const Cluster& c, const Router& r, int64_t first) {
  std::vector<int64_t> servers;
  for (int64_t s = first; s < first + 4; ++s) servers.push_back(s);
  std::vector<int> locals;
  for (int g = 0; g < c.gpus_per_server(); ++g) locals.push_back(g);
  return make_communicator(c, r, servers, locals);
}

}  // namespace

TEST(Sharp, QuantumHoldsOneTreePerSwitch) {
  // 8 DGX A100, rail-optimized HDR: rail r's leaf (40 ports, 20 down) holds NIC r of all 8
  // servers, so jobs on servers 0-3 and 4-7 both span the same 8 leaves. One tree per switch:
  // the first is granted, the second refused, naming a leaf and the first job.
  const Cluster c = build_cluster(eight("dgx-a100", "ib-hdr", "quantum-qm8700"));
  const Router r(c);
  const Communicator a = on_servers(c, r, 0), b = on_servers(c, r, 4);
  ASSERT_TRUE(a.collnet);
  const std::vector<SharpGrant> g = allocate_sharp(c, r, {{"a", &a}, {"b", &b}});
  EXPECT_TRUE(g[0].granted);
  EXPECT_FALSE(g[1].granted);
  EXPECT_NE(g[1].why.find("job 'a'"), std::string::npos) << g[1].why;
  EXPECT_NE(g[1].why.find("one streaming-aggregation tree per switch"), std::string::npos) << g[1].why;
}

TEST(Sharp, QuantumTwoHoldsOneTreePerPort) {
  // The same layout on NDR Quantum-2: each job's tree takes its own servers' NIC ports and stays
  // inside each rail leaf (no uplink), so both fit.
  const Cluster c = build_cluster(eight("dgx-h100", "ib-ndr", "quantum2-qm9700"));
  const Router r(c);
  const Communicator a = on_servers(c, r, 0), b = on_servers(c, r, 4);
  const std::vector<SharpGrant> g = allocate_sharp(c, r, {{"a", &a}, {"b", &b}});
  EXPECT_TRUE(g[0].granted);
  EXPECT_TRUE(g[1].granted) << g[1].why;
  // Two communicators on the same servers share every NIC port: the second is refused.
  const Communicator a2 = on_servers(c, r, 0);
  const std::vector<SharpGrant> g2 = allocate_sharp(c, r, {{"a", &a}, {"a2", &a2}});
  EXPECT_FALSE(g2[1].granted);
  EXPECT_NE(g2[1].why.find("one active tree per port"), std::string::npos) << g2[1].why;
}

TEST(Sharp, ScenarioJobRefusedRunsWithoutCollNet) {
  // The example pair: job a gets the HDR leaves' trees, job b runs another algorithm and a note
  // says why; with one job, no note.
  const std::string dir = std::string(GPUFABRIC_SOURCE_DIR) + "/examples/";
  const ScenarioResult r = run_scenario(load_scenario_file(dir + "sharp-two-jobs-hdr.yaml"));
  ASSERT_EQ(r.jobs.size(), 2u);
  EXPECT_EQ(r.jobs[0].calls[0].choice.algorithm.rfind("collnet", 0), 0u) << r.jobs[0].calls[0].choice.algorithm;
  EXPECT_NE(r.jobs[1].calls[0].choice.algorithm.rfind("collnet", 0), 0u) << r.jobs[1].calls[0].choice.algorithm;
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0].rfind("job 'b' gets no SHARP tree", 0), 0u) << r.notes[0];
}
