// gpufabric topo [CLUSTER] [--nodes N] [--fabric KIND] [--fabric-link TECH] [--path A B | --matrix |
//                --nccl-graph [--rank R]] [--format text|json|yaml|dot|svg]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>

#include <gpufabric/gpufabric.hpp>

#include "cluster_args.hpp"
#include "commands.hpp"

namespace gfcli {

namespace {

struct TopoOptions {
  ClusterArgs where;
  std::vector<std::string> path;
  bool matrix = false;
  int64_t server = 0;
  std::string format = "text";
  bool nccl_graph = false;
  int64_t rank = -1;
  CLI::Option* rank_opt = nullptr;
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
  if (o.format == "json") std::cout << json_text(gf::path_json(c, r)) << "\n";
  else std::cout << gf::path_text(c, r);
  return 0;
}

// What NCCL would log at init for one process per GPU on every server of the cluster.
int run_nccl_graph(const gf::ClusterSpec& spec, const gf::Cluster& c, const TopoOptions& o) {
  gf::Router router(c);
  gf::Communicator comm = gf::make_communicator(c, router, static_cast<int>(c.servers()), c.gpus_per_server());
  gf::NcclGraph g = gf::build_nccl_graph(comm, router);
  const gf::Rank rank = o.rank_opt->count() > 0 ? static_cast<gf::Rank>(o.rank) : -1;
  const std::string name = spec.name.empty() ? o.where.name() : spec.name;
  if (o.format == "json") std::cout << json_text(gf::nccl_graph_json(g, name, rank)) << "\n";
  else std::cout << gf::nccl_graph_text(g, name, rank);
  return 0;
}

// The drawing as SVG, laid out by Graphviz's `dot` (Debian package graphviz, which
// scripts/setup.sh installs): the DOT text goes through a private temporary file, so no user text
// reaches a shell.
std::string svg_of(const std::string& dot) {
  char in_path[] = "/tmp/gpufabric-topo-XXXXXX";
  const int fd = mkstemp(in_path);
  if (fd < 0) throw gf::InputError({}, "--format", "cannot create a temporary file for Graphviz", "use --format dot | dot -Tsvg");
  {
    std::FILE* f = fdopen(fd, "w");
    std::fwrite(dot.data(), 1, dot.size(), f);
    std::fclose(f);
  }
  std::string svg;
  std::FILE* p = popen((std::string("dot -Tsvg ") + in_path + " 2>/dev/null").c_str(), "r");
  if (p) {
    char buf[65536];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) svg.append(buf, n);
  }
  const int status = p ? pclose(p) : -1;
  std::remove(in_path);
  if (status != 0 || svg.find("<svg") == std::string::npos)
    throw gf::InputError({}, "--format", "svg is drawn by Graphviz's `dot`, which did not run here",
                         "install Graphviz (apt-get install graphviz; scripts/setup.sh does), or use --format dot");
  return svg;
}

int run_topo(const TopoOptions& o) {
  const std::string name = o.where.name();
  if (o.rank_opt->count() > 0 && !o.nccl_graph)
    throw gf::InputError({}, "--rank", "--rank picks the lines one rank of --nccl-graph would log", "add --nccl-graph");
  if (o.rank_opt->count() > 0 && (o.rank < 0 || o.rank > INT32_MAX))
    throw gf::InputError({}, "--rank", "must be a rank, 0 or more, got " + std::to_string(o.rank), "e.g. --rank 0");
  if (o.nccl_graph && (!o.path.empty() || o.matrix))
    throw gf::InputError({}, "--nccl-graph", "shows the whole communicator; it does not combine with --path or --matrix",
                         "drop --path/--matrix");
  if (o.nccl_graph && o.format == "yaml")
    throw gf::InputError({}, "--format", "--nccl-graph prints text or json", "use --format text or --format json");
  gf::ClusterSpec spec = o.where.resolve();
  if (o.format == "yaml") {
    gf::count_cluster(spec);  // validate before printing
    std::cout << gf::cluster_to_yaml(spec);
    return 0;
  }
  gf::ClusterCounts counts = gf::count_cluster(spec);
  bool buildable = counts.links_directed <= gf::kMaxBuildLinks;
  if (o.format == "dot" || o.format == "svg") {
    if (o.matrix || o.nccl_graph)
      throw gf::InputError({}, "--format", o.format + " draws the cluster (or, with --path, its routes); it does not combine with --matrix or --nccl-graph",
                           "drop --format " + o.format + ", or the other option");
    if (!buildable)
      throw gf::InputError({}, "cluster", "this design is too large to build (" + std::to_string(counts.links_directed) +
                                              " directed links) and so to draw", "use fewer --nodes");
    const gf::Cluster c = gf::build_cluster(spec);
    const std::string title = spec.name.empty() ? name : spec.name;
    std::string dot;
    if (o.path.empty()) {
      dot = gf::topo_dot(c, title);
    } else {
      // Every equal-cost route, up to kDrawnRoutes (a 3-tier fat tree has at most (k/2)^2).
      constexpr size_t kDrawnRoutes = 1024;
      const gf::Router router(c);
      const gf::NodeId a = gpu_by_name(c, o.path[0]), b = gpu_by_name(c, o.path[1]);
      if (a == b) throw gf::InputError({}, "--path", "both ends are " + o.path[0], "name two different GPUs");
      const std::vector<gf::Path> routes = router.equal_cost_paths(a, b, kDrawnRoutes);
      if (routes.empty())
        throw gf::InputError({}, "--path", "no route from " + o.path[0] + " to " + o.path[1],
                             "check that every server has a NIC on the fabric");
      dot = gf::topo_dot_routes(c, title + ": " + o.path[0] + " to " + o.path[1], routes);
    }
    if (o.format == "dot") std::cout << dot;
    else std::cout << svg_of(dot);
    return 0;
  }
  if (!o.path.empty() || o.matrix || o.nccl_graph) {
    if (!buildable)
      throw gf::InputError({}, "cluster", "this design is too large to build (" + std::to_string(counts.links_directed) +
                                              " directed links)", "use fewer --nodes for --path, --matrix or --nccl-graph");
    gf::Cluster c = gf::build_cluster(spec);
    if (!o.path.empty()) return run_path(spec, c, o);
    if (o.nccl_graph) return run_nccl_graph(spec, c, o);
    gf::TopoMatrix m = gf::topo_matrix(c, o.server);
    if (o.format == "json") std::cout << json_text(gf::topo_matrix_json(m)) << "\n";
    else std::cout << gf::topo_matrix_text(m, true);
    return 0;
  }
  std::optional<gf::Cluster> built;
  if (buildable) built.emplace(gf::build_cluster(spec));
  gf::TopoSummary s = gf::summarize(spec, built ? &*built : nullptr);
  if (!buildable)
    s.not_built_reason = "the graph would need " + gf::with_commas(counts.links_directed) +
                         " directed links (over the build limit of " + gf::with_commas(gf::kMaxBuildLinks) + ")";
  if (o.format == "json") std::cout << json_text(gf::summary_json(s)) << "\n";
  else std::cout << gf::summary_text(s);
  return 0;
}

}  // namespace

Command add_topo(CLI::App& root) {
  auto o = std::make_shared<TopoOptions>();
  CLI::App* sub = root.add_subcommand("topo", "Summarize a cluster, show a server's nvidia-smi matrix, a route or NCCL's rings and trees");
  o->where.add(sub, true, "Number of servers (replaces the cluster's count)");
  sub->add_option("--path", o->path, "Routes between two GPUs (index or name, e.g. gpu0 gpu8)")->expected(2);
  sub->add_flag("--matrix", o->matrix, "The nvidia-smi topo -m view of one server");
  sub->add_option("--server", o->server, "Which server --matrix shows (default 0)");
  sub->add_flag("--nccl-graph", o->nccl_graph,
                "The rings and trees NCCL would build, as its NCCL_DEBUG=INFO lines (Channel, Ring, Trees, NVLS Head)");
  o->rank_opt = sub->add_option("--rank", o->rank, "With --nccl-graph: only the lines this rank would log");
  sub->add_option("--format", o->format,
                  "text, json, yaml, dot or svg (a drawing: Graphviz DOT, or SVG laid out by Graphviz; aggregated for large clusters; with --path, the routes highlighted)")
      ->check(CLI::IsMember({"text", "json", "yaml", "dot", "svg"}));
  return {sub, [o] { return run_topo(*o); }};
}

}  // namespace gfcli
