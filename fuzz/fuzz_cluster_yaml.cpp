// libFuzzer harness: cluster YAML in, a ClusterSpec and its counts out (and the graph, when small).
#include "config/cluster_yaml.hpp"
#include "fuzz_common.hpp"
#include "topology/cluster_spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gffuzz::expect_clean([&] {
    gf::ClusterSpec spec = gf::parse_cluster_yaml(gffuzz::text_of(data, size), "fuzz.yaml");
    gf::ClusterCounts counts = gf::count_cluster(spec);
    // Building is linear in links; small graphs only, so each input stays fast.
    if (counts.links_directed <= 20000) gf::build_cluster(spec);
  });
  return 0;
}
