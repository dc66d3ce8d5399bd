// Cluster YAML: every error class names file:line and key; a preset's YAML round-trips.
#include <gtest/gtest.h>

#include "config/cluster_yaml.hpp"
#include "config/presets.hpp"

using namespace gf;

namespace {

InputError parse_error(const std::string& text) {
  try {
    parse_cluster_yaml(text, "c.yaml");
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an InputError for:\n" << text;
  return InputError({}, "", "");
}

}  // namespace

TEST(ClusterYaml, UnknownKeyNamesLineAndSuggests) {
  InputError e = parse_error("name: x\nserver: dgx-h100\nsevers: 4\n");
  EXPECT_EQ(e.where().file, "c.yaml");
  EXPECT_EQ(e.where().line, 3);
  EXPECT_EQ(e.key(), "severs");
  EXPECT_NE(e.hint().find("did you mean 'servers'"), std::string::npos);
}

TEST(ClusterYaml, MalformedYamlHasALine) {
  InputError e = parse_error("name: x\nserver: [dgx-h100\n");
  EXPECT_GE(e.where().line, 2);
  EXPECT_NE(e.message().find("malformed YAML"), std::string::npos);
}

TEST(ClusterYaml, MissingServer) {
  InputError e = parse_error("name: x\nservers: 2\n");
  EXPECT_EQ(e.key(), "server");
  EXPECT_NE(e.message().find("missing"), std::string::npos);
}

TEST(ClusterYaml, UnknownServerSuggests) {
  InputError e = parse_error("server: dgx-h1000\n");
  EXPECT_EQ(e.where().line, 1);
  EXPECT_NE(e.hint().find("dgx-h100"), std::string::npos);
}

TEST(ClusterYaml, WrongUnitAndZeroBandwidth) {
  InputError e = parse_error("link_technologies:\n  - {name: l, family: roce, bandwidth: 400 furlongs}\nserver: dgx-h100\n");
  EXPECT_EQ(e.where().line, 2);
  EXPECT_EQ(e.key(), "link_technologies[0].bandwidth");
  EXPECT_NE(e.message().find("expected a bandwidth"), std::string::npos);
  InputError z = parse_error("link_technologies:\n  - {name: l, family: roce, bandwidth: 0Gbps}\nserver: dgx-h100\n");
  EXPECT_NE(z.message().find("greater than zero"), std::string::npos);
}

TEST(ClusterYaml, LinkToMissingNode) {
  InputError e = parse_error(
      "server:\n  nodes:\n    - {name: gpu0, kind: gpu}\n  links:\n    - {a: gpu0, b: cpu7, tech: pcie-gen4-x16}\n");
  EXPECT_EQ(e.where().line, 5);
  EXPECT_EQ(e.key(), "server.links[0].b");
}

TEST(ClusterYaml, NegativeCountAndBadKind) {
  EXPECT_EQ(parse_error("server: dgx-h100\nservers: 0\n").key(), "servers");
  InputError k = parse_error("server:\n  nodes:\n    - {name: g, kind: gpuu}\n");
  EXPECT_EQ(k.where().line, 3);
  EXPECT_NE(k.hint().find("did you mean 'gpu'"), std::string::npos);
}

TEST(ClusterYaml, PresetYamlRoundTrips) {
  // The YAML printed for a preset must describe the same hardware when read back.
  ClusterSpec a = resolve_cluster("dgx-h100");
  a.servers = 3;
  a.fabric.kind = "single_switch";
  ClusterSpec b = parse_cluster_yaml(cluster_to_yaml(a), "roundtrip.yaml");
  EXPECT_EQ(b.servers, 3);
  EXPECT_EQ(b.server.nodes.size(), a.server.nodes.size());
  EXPECT_EQ(b.server.links.size(), a.server.links.size());
  ClusterCounts ca = count_cluster(a), cb = count_cluster(b);
  EXPECT_EQ(ca.links_directed, cb.links_directed);
  EXPECT_EQ(ca.gpus, cb.gpus);
  EXPECT_DOUBLE_EQ(b.server.gpu.memory_bw.to_gBps(), a.server.gpu.memory_bw.to_gBps());
}

TEST(ClusterYaml, EveryPresetParses) {
  for (const auto& p : list_presets()) EXPECT_NO_THROW(resolve_cluster(p.name)) << p.name;
}
