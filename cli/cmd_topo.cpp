// gpufabric topo [CLUSTER] [--nodes N] [--path A B] [--format text|json|yaml]
#include <iostream>
#include <optional>

#include <gpufabric/gpufabric.hpp>

#include "commands.hpp"

namespace gfcli {

namespace {

struct TopoOptions {
  std::string cluster;
  std::string cluster_flag;
  int64_t nodes = 0;
  std::vector<std::string> path;
  bool matrix = false;
  int64_t server = 0;
  std::string format = "text";
};

gf::NodeId gpu_by_name(const gf::Cluster& c, const std::string& name) {
  gf::NodeId id = c.find_node(name);
  if (id == gf::kNoNode || c.node(id).kind != gf::NodeKind::Gpu)
    throw gf::InputError({}, "--path", "'" + name + "' is not a GPU of this cluster",
                         "use a global index 0.." + std::to_string(c.gpu_count() - 1) + " or a name such as gpu8");
  return id;
}

int run_path(const gf::ClusterSpec& spec, const gf::Cluster& c, const TopoOptions& o) {
  gf::Router router(c);
  gf::NodeId a = gpu_by_name(c, o.path[0]), b = gpu_by_name(c, o.path[1]);
  if (a == b) throw gf::InputError({}, "--path", "both ends are " + o.path[0], "name two different GPUs");
  std::vector<std::string> tiers;
  for (const auto& t : gf::count_cluster(spec).fabric.tiers) tiers.push_back(t.name);
  gf::PathReport r{gf::sample_route(router, a, b, tiers), router.equal_cost_paths(a, b, 16)};
  if (r.routes.empty())
    throw gf::InputError({}, "--path", "no route from " + o.path[0] + " to " + o.path[1],
                         "check that every server has a NIC on the fabric");
  if (o.format == "json") std::cout << gf::path_json(c, r).dump(2) << "\n";
  else std::cout << gf::path_text(c, r);
  return 0;
}

int run_topo(const TopoOptions& o) {
  std::string name = !o.cluster_flag.empty() ? o.cluster_flag : (!o.cluster.empty() ? o.cluster : gf::kDefaultCluster);
  std::optional<int64_t> nodes;
  if (o.nodes != 0) nodes = o.nodes;
  gf::ClusterSpec spec = gf::resolve_cluster(name, nodes);
  if (o.format == "yaml") {
    gf::count_cluster(spec);  // validate before printing
    std::cout << gf::cluster_to_yaml(spec);
    return 0;
  }
  gf::ClusterCounts counts = gf::count_cluster(spec);
  bool buildable = counts.links_directed <= gf::kMaxBuildLinks;
  if (!o.path.empty() || o.matrix) {
    if (!buildable)
      throw gf::InputError({}, "cluster", "this design is too large to build (" + std::to_string(counts.links_directed) +
                                              " directed links)", "use fewer --nodes for --path or --matrix");
    gf::Cluster c = gf::build_cluster(spec);
    if (!o.path.empty()) return run_path(spec, c, o);
    gf::TopoMatrix m = gf::topo_matrix(c, o.server);
    if (o.format == "json") std::cout << gf::topo_matrix_json(m).dump(2) << "\n";
    else std::cout << gf::topo_matrix_text(m, true);
    return 0;
  }
  std::optional<gf::Cluster> built;
  if (buildable) built.emplace(gf::build_cluster(spec));
  gf::TopoSummary s = gf::summarize(spec, built ? &*built : nullptr);
  if (!buildable)
    s.not_built_reason = "the graph would need " + gf::with_commas(counts.links_directed) +
                         " directed links (over the build limit of " + gf::with_commas(gf::kMaxBuildLinks) + ")";
  if (o.format == "json") std::cout << gf::summary_json(s).dump(2) << "\n";
  else std::cout << gf::summary_text(s);
  return 0;
}

}  // namespace

Command add_topo(CLI::App& root) {
  auto o = std::make_shared<TopoOptions>();
  CLI::App* sub = root.add_subcommand("topo", "Summarize a cluster, show a server's nvidia-smi matrix or a route");
  sub->add_option("cluster", o->cluster, "Preset name, server name or cluster YAML file (default: dgx-h100-2node)");
  sub->add_option("--cluster", o->cluster_flag, "Same as the positional CLUSTER");
  sub->add_option("--nodes", o->nodes, "Number of servers (replaces the preset's count)");
  sub->add_option("--path", o->path, "Routes between two GPUs (index or name, e.g. gpu0 gpu8)")->expected(2);
  sub->add_flag("--matrix", o->matrix, "The nvidia-smi topo -m view of one server");
  sub->add_option("--server", o->server, "Which server --matrix shows (default 0)");
  sub->add_option("--format", o->format, "text, json or yaml")->check(CLI::IsMember({"text", "json", "yaml"}));
  return {sub, [o] { return run_topo(*o); }};
}

}  // namespace gfcli
