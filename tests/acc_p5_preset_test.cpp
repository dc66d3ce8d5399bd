// The aws-p5-cluster preset is the validated p5 description (issue 19): one 400 Gb/s device per
// GPU, four EFAv2 100G interfaces striped by aws-ofi-nccl, not 32 separate NICs per server.
#include <gtest/gtest.h>

#include "collective/algorithm.hpp"
#include "config/cluster_yaml.hpp"
#include "config/presets.hpp"
#include "engine/executor.hpp"
#include "model/flow/flow_model.hpp"

using namespace gf;

namespace {

double nvlstree_seconds(const ClusterSpec& spec, Bytes bytes) {
  Cluster c = build_cluster(spec);
  Router router(c);
  Communicator comm = make_communicator(c, router, 2, 8);
  CollectiveCall call;
  call.kind = CollectiveKind::AllReduce;
  call.bytes = bytes;
  Schedule s = find_algorithm("nvlstree")->build(comm, call, {Protocol::Simple, 16});
  FlowModel model(c);
  return run_schedule(s, comm, router, model).duration.to_s();
}

}  // namespace

TEST(AccP5Preset, IsTheValidatedDescriptionWithMoreServers) {
  const ClusterSpec preset = resolve_cluster("aws-p5-cluster", 2);
  const ClusterSpec validated = load_cluster_file(std::string(GPUFABRIC_SOURCE_DIR) + "/validation/clusters/aws-p5-2node-efa.yaml");
  EXPECT_EQ(resolve_cluster("aws-p5-cluster").servers, 64);
  // Per server: 8 network devices (one per GPU), 400 Gb/s each = the instance's 3,200 Gb/s.
  const ClusterCounts p = count_cluster(preset), v = count_cluster(validated);
  EXPECT_EQ(p.nics, 2 * 8);
  EXPECT_EQ(p.nics, v.nics);
  Cluster c = build_cluster(preset);
  const LinkTech& nic = c.catalog().tech(*c.catalog().find("efa-4x100g-rails"));
  EXPECT_DOUBLE_EQ(nic.per_lane.to_gbps(), 400.0);
  // The same server, NICs and fabric: the same prediction, to the picosecond.
  EXPECT_EQ(nvlstree_seconds(preset, Bytes::gib(2)), nvlstree_seconds(validated, Bytes::gib(2)));
}
