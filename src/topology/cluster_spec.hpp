// A cluster described but not yet built: a server template, how many, and the scale-out fabric.
// Presets and YAML files produce one; build_cluster() turns it into a graph and count_cluster()
// answers "how much hardware" without building (so a 200,000-GPU full mesh can be costed).
#pragma once

#include <string>
#include <vector>

#include "topology/cluster.hpp"
#include "topology/fabric.hpp"
#include "topology/server_template.hpp"

namespace gf {

struct ClusterSpec {
  std::string name;
  std::string description;
  std::string source;
  ServerTemplate server;
  int64_t servers = 1;
  FabricSpec fabric;
  LinkCatalog catalog = LinkCatalog::builtin();
  SourceLocation where;  // file the spec came from (line of its `servers:` key where known)
  // What every report on this cluster should say about where it came from: an imported server's
  // assumed figures and what its file could not give (printed as `# note:` lines).
  std::vector<std::string> notes;
};

// Everything `gpufabric topo` reports that follows from parameters alone.
struct ClusterCounts {
  int64_t servers = 0, gpus = 0, nics = 0;
  FabricShape shape;
  FabricCounts fabric;
  std::vector<CableCount> intra_server;  // per technology, over all servers (NVLink, PCIe, ...)
  int64_t scale_up_switches = 0;         // NVLink-domain switch chips outside the servers
  int64_t links_directed = 0;            // the whole graph build_cluster() would make
};

ClusterCounts count_cluster(const ClusterSpec& spec);
// Throws InputError when the design cannot be built (radix, a GPU with no path to another).
Cluster build_cluster(const ClusterSpec& spec);

// Graphs larger than this many directed links are costed but not built (about 3 GB of links).
constexpr int64_t kMaxBuildLinks = 100'000'000;

}  // namespace gf
