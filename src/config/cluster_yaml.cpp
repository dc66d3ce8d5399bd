#include "config/cluster_yaml.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "config/cluster_set.hpp"
#include "config/yaml_fields.hpp"
#include "topology/nic_count.hpp"
#include "topology/nic_transport.hpp"
#include "topology/server_registry.hpp"

namespace gf {
namespace {

const std::vector<std::string> kNodeKinds = {"gpu", "nvswitch", "pcie_switch", "cpu", "nic"};

NodeKind parse_kind(const YamlFields& f) {
  std::string k = f.required_string("kind");
  for (NodeKind kind : {NodeKind::Gpu, NodeKind::NvSwitch, NodeKind::PcieSwitch, NodeKind::Cpu, NodeKind::Nic})
    if (k == to_string(kind)) return kind;
  f.fail("kind", "unknown node kind '" + k + "'", suggest(k, kNodeKinds));
}

const std::vector<std::pair<LinkFamily, std::string>>& family_names() {
  static const std::vector<std::pair<LinkFamily, std::string>> k = {
      {LinkFamily::NvLink, "nvlink"}, {LinkFamily::NvLinkC2C, "nvlink_c2c"}, {LinkFamily::Pcie, "pcie"},
      {LinkFamily::Xgmi, "xgmi"}, {LinkFamily::InterSocket, "inter_socket"}, {LinkFamily::InfiniBand, "infiniband"},
      {LinkFamily::RoCE, "roce"}, {LinkFamily::EthernetTcp, "ethernet_tcp"}, {LinkFamily::Efa, "efa"},
      {LinkFamily::GaudiRoce, "gaudi_roce"}};
  return k;
}

std::string family_key(LinkFamily f) {
  for (const auto& [fam, name] : family_names())
    if (fam == f) return name;
  return "?";
}

void parse_link_technologies(const YAML::Node& list, const std::string& file, LinkCatalog& cat) {
  if (!list.IsSequence())
    throw InputError(location_of(list, file), "link_technologies", "expected a list of technologies",
                     "write one `- {name: ..., family: ..., bandwidth: ...}` line per technology");
  // Each name is checked against the catalog, a linear search: bounded so the check stays cheap.
  // The built-in catalog has a few dozen; a cluster adds a handful.
  constexpr size_t kMaxTechs = 1000;
  if (list.size() > kMaxTechs)
    throw InputError(location_of(list, file), "link_technologies",
                     std::to_string(list.size()) + " technologies; a cluster file may add at most " + std::to_string(kMaxTechs),
                     "define only the technologies the server and fabric use (docs/limits.md)");
  for (size_t i = 0; i < list.size(); ++i) {
    YamlFields f(list[i], file, "link_technologies[" + std::to_string(i) + "]",
                 {"name", "family", "bandwidth", "latency", "rdma", "description", "source", "transport",
                  "transport_latency", "transport_source"});
    LinkTech t;
    t.name = f.required_string("name");
    if (cat.find(t.name)) f.fail("name", "technology '" + t.name + "' already exists", "pick another name");
    std::string fam = f.required_string("family");
    std::vector<std::string> names;
    bool found = false;
    for (const auto& [lf, n] : family_names()) {
      names.push_back(n);
      if (n == fam) t.family = lf, found = true;
    }
    if (!found) f.fail("family", "unknown link family '" + fam + "'", suggest(fam, names));
    if (!f.has("bandwidth")) f.fail("bandwidth", "missing", "add e.g. `bandwidth: 400Gbps` (per direction)");
    t.per_lane = *f.bandwidth("bandwidth");
    t.latency = f.time("latency").value_or(Time::ns(100));
    t.rdma = f.boolean_or("rdma", t.family != LinkFamily::EthernetTcp);
    t.description = f.string_or("description", t.name);
    t.source = f.string_or("source", "user-defined in " + file);
    // What the NIC transport adds per step (topology/nic_transport.hpp): the term given, else the
    // named transport's, else the family's, each with its citation or fit.
    NicTransport transport = transport_of_family(t.family);
    if (f.has("transport")) {
      const std::string key = f.required_string("transport");
      const std::optional<NicTransport> named = parse_transport(key);
      if (!named) f.fail("transport", "unknown transport '" + key + "'", suggest(key, transport_keys()));
      if (!transport_fits_family(*named, t.family))
        f.fail("transport", "transport '" + key + "' does not run on family '" + fam + "'",
               "use family ethernet_tcp for socket, gpudirect-tcpx and gpudirect-tcpxo; the others run on their own family");
      transport = *named;
    }
    const TransportLatency d = transport_term(transport);
    t.transport_latency = f.time("transport_latency").value_or(d.latency);
    t.transport_source = f.has("transport_latency") ? f.string_or("transport_source", "user-defined in " + file)
                                                     : d.source;
    cat.add(std::move(t));
  }
}

GpuSpec parse_gpu(const YAML::Node& n, const std::string& file) {
  YamlFields f(n, file, "server.gpu", {"model", "arch", "memory_bw", "bf16_tflops", "source"});
  GpuSpec g;
  g.model = f.required_string("model");
  g.arch = f.string_or("arch", "hopper");
  g.memory_bw = f.bandwidth("memory_bw").value_or(Bandwidth::gBps(2000));
  g.bf16_tflops = f.number_or("bf16_tflops", 0, 0);
  g.source = f.string_or("source", "");
  return g;
}

// `p2p: false`: the server's GPUs cannot reach each other's memory directly (no CUDA peer access:
// GeForce cards on the stock driver, some virtual machines), so NCCL sends between them through
// host memory (SHM) or the NICs (topology/p2p_level.hpp).
void parse_p2p(const YamlFields& f, ServerTemplate& t) {
  if (!f.has("p2p")) return;
  const YAML::Node v = f.get("p2p");
  if (!v.IsScalar() || (v.Scalar() != "true" && v.Scalar() != "false"))
    f.fail("p2p", "expected true or false", "write `p2p: false` for GPUs without peer-to-peer access");
  t.transport.p2p_capable = v.Scalar() == "true";
}

// `server: {base: hgx-h100, nic_tech: roce-400g, ...}`: a built-in server with a few changes, so a
// cluster can say "HGX H100 on 400G RoCE" without spelling out the board.
ServerTemplate parse_server_from_base(const YamlFields& f, const LinkCatalog& cat) {
  std::string base = f.required_string("base");
  const ServerPreset* p = find_server(base);
  if (!p) f.fail("base", "unknown server '" + base + "'", suggest(base, server_names()));
  for (const char* k : {"nodes", "links", "scale_up"})
    if (f.has(k))
      f.fail(k, "cannot be combined with `base:`",
             "print the server with `gpufabric topo " + base + " --format yaml` and edit its nodes there");
  ServerTemplate t = p->make();
  t.name = f.string_or("name", t.name);
  t.description = f.string_or("description", t.description);
  t.source = f.string_or("source", t.source);
  t.default_fabric = f.string_or("default_fabric", t.default_fabric);
  if (f.has("gpu")) t.gpu = parse_gpu(f.get("gpu"), f.where().file);
  if (f.has("nic_tech")) {
    std::string tech = f.required_string("nic_tech");
    if (!cat.find(tech)) f.fail("nic_tech", "unknown link technology '" + tech + "'", suggest(tech, cat.tech_names()));
    for (auto& node : t.nodes)
      if (node.compute_nic()) node.tech = tech;
  }
  parse_p2p(f, t);
  if (f.has("nics")) {
    const int n = static_cast<int>(f.integer_or("nics", 0, 1));
    try {
      set_compute_nics(t, n, f.where(), f.key_path("nics"));
    } catch (const InputError& e) {
      f.fail("nics", e.message(), e.hint());  // at the key's own line
    }
  }
  t.validate(cat, f.where());
  return t;
}

ServerTemplate parse_server_map(const YAML::Node& n, const std::string& file, const LinkCatalog& cat) {
  YamlFields f(n, file, "server",
               {"base", "nic_tech", "nics", "name", "description", "source", "gpu", "nodes", "links", "scale_up",
                "default_fabric", "p2p"});
  if (f.has("base")) return parse_server_from_base(f, cat);
  ServerTemplate t;
  t.name = f.string_or("name", "custom-server");
  t.description = f.string_or("description", "");
  t.source = f.string_or("source", file);
  t.default_fabric = f.string_or("default_fabric", "leaf_spine");
  if (f.has("nic_tech")) f.fail("nic_tech", "only applies with `base:`", "set each NIC's tech in `nodes:` instead");
  if (f.has("nics")) f.fail("nics", "only applies with `base:`", "list each NIC in `nodes:` instead");
  parse_p2p(f, t);
  if (f.has("gpu")) t.gpu = parse_gpu(f.get("gpu"), file);
  else t.gpu = {"unknown-gpu", "hopper", Bandwidth::gBps(2000), 0, "default (no gpu: block given)"};
  if (!f.has("nodes")) f.fail("nodes", "missing", "list the server's devices under `nodes:`");
  YAML::Node nodes = f.get("nodes");
  if (!nodes.IsSequence()) f.fail("nodes", "expected a list of nodes", "write one `- {name: gpu0, kind: gpu}` line per device");
  for (size_t i = 0; i < nodes.size(); ++i) {
    YamlFields nf(nodes[i], file, "server.nodes[" + std::to_string(i) + "]",
                  {"name", "kind", "numa", "rail", "tech", "cpu_affinity", "label", "role"});
    ServerNode sn;
    sn.name = nf.required_string("name");
    sn.kind = parse_kind(nf);
    sn.numa = static_cast<int>(nf.integer_or("numa", -1, -1));
    sn.rail = static_cast<int>(nf.integer_or("rail", -1, -1));
    sn.tech = nf.string_or("tech", "");
    sn.cpu_affinity = nf.string_or("cpu_affinity", "");
    sn.label = nf.string_or("label", "");
    sn.role = nf.string_or("role", "");
    if (!sn.role.empty() && sn.kind != NodeKind::Nic) nf.fail("role", "only a NIC has a role", "remove `role:` or make the node kind: nic");
    if (!sn.role.empty() && std::find(nic_roles().begin(), nic_roles().end(), sn.role) == nic_roles().end())
      nf.fail("role", "unknown NIC role '" + sn.role + "'", suggest(sn.role, nic_roles()) + " (compute, storage, management or frontend)");
    if (sn.kind == NodeKind::Nic) {
      if (sn.tech.empty()) nf.fail("tech", "missing: a NIC needs its port technology", "e.g. tech: ib-ndr");
      if (!cat.find(sn.tech)) nf.fail("tech", "unknown link technology '" + sn.tech + "'", suggest(sn.tech, cat.tech_names()));
      if (sn.rail < 0 && sn.compute_nic()) nf.fail("rail", "missing: a NIC needs its rail (0, 1, ...)", "add e.g. `rail: 0`: NICs of one rail meet on one leaf");
    }
    if (t.index_of(sn.name) >= 0) nf.fail("name", "node name '" + sn.name + "' is used twice", "give every node its own name");
    t.nodes.push_back(std::move(sn));
  }
  if (f.has("links")) {
    YAML::Node links = f.get("links");
    if (!links.IsSequence()) f.fail("links", "expected a list of links", "write one `- {a: gpu0, b: nvswitch0, tech: nvlink4}` line per link");
    for (size_t i = 0; i < links.size(); ++i) {
      YamlFields lf(links[i], file, "server.links[" + std::to_string(i) + "]", {"a", "b", "tech", "lanes"});
      ServerLink l;
      for (const char* end : {"a", "b"}) {
        std::string name = lf.required_string(end);
        int idx = t.index_of(name);
        if (idx < 0) {
          std::vector<std::string> names;
          for (const auto& sn : t.nodes) names.push_back(sn.name);
          lf.fail(end, "no node named '" + name + "' in this server", suggest(name, names));
        }
        (end[0] == 'a' ? l.a : l.b) = idx;
      }
      if (l.a == l.b) lf.fail("b", "a link from a node to itself", "make `a` and `b` two different nodes");
      l.tech = lf.required_string("tech");
      if (!cat.find(l.tech)) lf.fail("tech", "unknown link technology '" + l.tech + "'", suggest(l.tech, cat.tech_names()));
      l.lanes = static_cast<int>(lf.integer_or("lanes", 1, 1));
      t.links.push_back(l);
    }
  }
  if (f.has("scale_up")) {
    YamlFields sf(f.get("scale_up"), file, "server.scale_up", {"servers_per_domain", "switch_chips", "links_per_gpu", "tech"});
    ScaleUpDomain d;
    d.servers_per_domain = static_cast<int>(sf.integer_or("servers_per_domain", 0, 1));
    d.switch_chips = static_cast<int>(sf.integer_or("switch_chips", 0, 1));
    d.links_per_gpu = static_cast<int>(sf.integer_or("links_per_gpu", 0, 1));
    d.tech = sf.required_string("tech");
    for (const char* k : {"servers_per_domain", "switch_chips", "links_per_gpu"})
      if (!sf.has(k)) sf.fail(k, "missing", std::string("add `") + k + ": ...` to the scale_up block");
    t.scale_up = d;
  }
  t.validate(cat, f.where());
  return t;
}

FabricSpec parse_fabric(const YAML::Node& n, const std::string& file, const std::string& default_kind) {
  YamlFields f(n, file, "fabric",
               {"kind", "link", "switch_model", "switch_radix", "spine_radix", "switch_latency", "oversubscription",
                "spine_oversubscription", "tiers", "planes", "groups", "routers_per_group", "global_links_per_router",
                "torus_dims"});
  FabricSpec s;
  s.where = f.where();
  s.kind = f.string_or("kind", default_kind);
  s.link = f.string_or("link", "");
  s.switch_model = f.string_or("switch_model", "");
  s.switch_radix = static_cast<int>(f.integer_or("switch_radix", 0, 2));
  s.spine_radix = static_cast<int>(f.integer_or("spine_radix", 0, 2));
  if (s.spine_radix > 0 && s.kind != "leaf_spine" && s.kind != "fat_tree" && s.kind != "rail_optimized")
    f.fail("spine_radix", "only Clos fabrics have switches above the leaves, this one is '" + s.kind + "'",
           "use kind: leaf_spine, fat_tree or rail_optimized, or remove spine_radix");
  s.switch_latency = f.time("switch_latency");
  s.oversubscription = f.number_or("oversubscription", 1, 1);
  s.spine_oversubscription = f.number_or("spine_oversubscription", 1, 1);
  s.tiers = static_cast<int>(f.integer_or("tiers", 0, 0));
  if (s.tiers > 3) f.fail("tiers", "at most 3 switch tiers are supported, got " + std::to_string(s.tiers), "use tiers: 2 or 3, or 0 for automatic");
  s.planes = static_cast<int>(f.integer_or("planes", 1, 1));
  s.groups = static_cast<int>(f.integer_or("groups", 0, 0));
  s.routers_per_group = static_cast<int>(f.integer_or("routers_per_group", 0, 0));
  s.global_links_per_router = static_cast<int>(f.integer_or("global_links_per_router", 0, 0));
  if (f.has("torus_dims")) {
    YAML::Node d = f.get("torus_dims");
    if (!d.IsSequence()) f.fail("torus_dims", "expected a list such as [4, 4, 4]", "write `torus_dims: [4, 4]` with one size per dimension");
    for (size_t i = 0; i < d.size(); ++i) {
      int v = 0;
      try {
        v = d[i].as<int>();
      } catch (const YAML::Exception&) {
        f.fail("torus_dims", "expected whole numbers such as [4, 4, 4]", "write `torus_dims: [4, 4]` with one size per dimension");
      }
      if (v < 2) f.fail("torus_dims", "every dimension needs at least 2 servers, got " + std::to_string(v), "drop dimensions of size 1: [4, 1, 4] is [4, 4]");
      s.torus_dims.push_back(v);
    }
  }
  return s;
}

}  // namespace

ClusterSpec parse_cluster_yaml(const std::string& text, const std::string& file) {
  return parse_cluster_node(load_yaml_document(text, file, "start from `gpufabric topo dgx-h100 --format yaml`"), file);
}

ClusterSpec parse_cluster_node(const YAML::Node& root, const std::string& file) {
  refuse_other_format(root, file, {"jobs", "cluster"}, "this is a scenario file, not a cluster",
                      "run it with `gpufabric run " + file + "`; a cluster file has `server:` (gpufabric topo dgx-h100 --format yaml)");
  YamlFields f(root, file, "", {"name", "description", "source", "server", "servers", "fabric", "link_technologies"});
  ClusterSpec spec;
  spec.where = {file, 0, 0};
  spec.name = f.string_or("name", file);
  spec.description = f.string_or("description", "");
  spec.source = f.string_or("source", file);
  if (f.has("link_technologies")) parse_link_technologies(f.get("link_technologies"), file, spec.catalog);
  if (!f.has("server")) f.fail("server", "missing", "name a built-in server (e.g. `server: dgx-h100`) or describe one");
  YAML::Node server = f.get("server");
  if (server.IsScalar()) {
    const ServerPreset* p = find_server(server.Scalar());
    if (!p) f.fail("server", "unknown server '" + server.Scalar() + "'", suggest(server.Scalar(), server_names()));
    spec.server = p->make();
  } else {
    spec.server = parse_server_map(server, file, spec.catalog);
  }
  spec.servers = f.integer_or("servers", 1, 1);
  spec.where = f.where("servers");
  spec.where.file = file;
  if (f.has("fabric")) {
    spec.fabric = parse_fabric(f.get("fabric"), file, spec.server.default_fabric);
  } else {
    spec.fabric.kind = spec.server.default_fabric;
    spec.fabric.where = f.where();
  }
  return spec;
}

ClusterSpec load_cluster_file(const std::string& path) {
  std::ifstream in(path);
  if (!in || std::filesystem::is_directory(path))
    throw InputError({path, 0, 0}, "", std::filesystem::is_directory(path) ? "is a folder, not a file" : "cannot read the file",
                     "check the path; or name a preset (gpufabric list presets)");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_cluster_yaml(ss.str(), path);
}

std::string cluster_to_yaml(const ClusterSpec& spec) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << spec.name;
  if (!spec.description.empty()) out << YAML::Key << "description" << YAML::Value << spec.description;
  if (!spec.source.empty()) out << YAML::Key << "source" << YAML::Value << spec.source;
  // Technologies the cluster added beyond the built-in catalog.
  LinkCatalog builtin = LinkCatalog::builtin();
  bool any_custom = false;
  for (const auto& t : spec.catalog.techs()) {
    if (builtin.find(t.name)) continue;
    if (!any_custom) out << YAML::Key << "link_technologies" << YAML::Value << YAML::BeginSeq, any_custom = true;
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << t.name << YAML::Key << "family"
        << YAML::Value << family_key(t.family) << YAML::Key << "bandwidth" << YAML::Value
        << fmt::format("{:.12g}GB/s", t.per_lane.to_gBps()) << YAML::Key << "latency" << YAML::Value
        << fmt::format("{}ps", t.latency.picoseconds()) << YAML::Key << "rdma" << YAML::Value << t.rdma
        << YAML::Key << "transport_latency" << YAML::Value << fmt::format("{}ps", t.transport_latency.picoseconds())
        << YAML::EndMap;
  }
  if (any_custom) out << YAML::EndSeq;
  const ServerTemplate& s = spec.server;
  out << YAML::Key << "server" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << s.name;
  out << YAML::Key << "description" << YAML::Value << s.description;
  out << YAML::Key << "source" << YAML::Value << s.source;
  out << YAML::Key << "default_fabric" << YAML::Value << s.default_fabric;
  if (!s.transport.p2p_capable) out << YAML::Key << "p2p" << YAML::Value << false;
  out << YAML::Key << "gpu" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "model" << YAML::Value
      << s.gpu.model << YAML::Key << "arch" << YAML::Value << s.gpu.arch << YAML::Key << "memory_bw" << YAML::Value
      << fmt::format("{:g}GB/s", s.gpu.memory_bw.to_gBps()) << YAML::Key << "bf16_tflops" << YAML::Value
      << s.gpu.bf16_tflops << YAML::EndMap;
  out << YAML::Key << "nodes" << YAML::Value << YAML::BeginSeq;
  for (const auto& n : s.nodes) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << n.name << YAML::Key << "kind"
        << YAML::Value << to_string(n.kind);
    if (n.numa >= 0) out << YAML::Key << "numa" << YAML::Value << n.numa;
    if (n.rail >= 0) out << YAML::Key << "rail" << YAML::Value << n.rail;
    if (!n.tech.empty()) out << YAML::Key << "tech" << YAML::Value << n.tech;
    if (!n.cpu_affinity.empty()) out << YAML::Key << "cpu_affinity" << YAML::Value << n.cpu_affinity;
    if (!n.label.empty()) out << YAML::Key << "label" << YAML::Value << n.label;
    if (!n.role.empty()) out << YAML::Key << "role" << YAML::Value << n.role;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  out << YAML::Key << "links" << YAML::Value << YAML::BeginSeq;
  for (const auto& l : s.links) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "a" << YAML::Value << s.nodes[l.a].name << YAML::Key << "b"
        << YAML::Value << s.nodes[l.b].name << YAML::Key << "tech" << YAML::Value << l.tech;
    if (l.lanes != 1) out << YAML::Key << "lanes" << YAML::Value << l.lanes;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  if (s.scale_up) {
    out << YAML::Key << "scale_up" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "servers_per_domain"
        << YAML::Value << s.scale_up->servers_per_domain << YAML::Key << "switch_chips" << YAML::Value
        << s.scale_up->switch_chips << YAML::Key << "links_per_gpu" << YAML::Value << s.scale_up->links_per_gpu
        << YAML::Key << "tech" << YAML::Value << s.scale_up->tech << YAML::EndMap;
  }
  out << YAML::EndMap;
  out << YAML::Key << "servers" << YAML::Value << spec.servers;
  const FabricSpec& fb = spec.fabric;
  out << YAML::Key << "fabric" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "kind" << YAML::Value << fb.kind;
  if (!fb.link.empty()) out << YAML::Key << "link" << YAML::Value << fb.link;
  if (!fb.switch_model.empty()) out << YAML::Key << "switch_model" << YAML::Value << fb.switch_model;
  if (fb.switch_radix > 0) out << YAML::Key << "switch_radix" << YAML::Value << fb.switch_radix;
  if (fb.spine_radix > 0) out << YAML::Key << "spine_radix" << YAML::Value << fb.spine_radix;
  if (fb.switch_latency)
    out << YAML::Key << "switch_latency" << YAML::Value << fmt::format("{}ps", fb.switch_latency->picoseconds());
  out << YAML::Key << "oversubscription" << YAML::Value << fb.oversubscription;
  if (fb.spine_oversubscription != 1) out << YAML::Key << "spine_oversubscription" << YAML::Value << fb.spine_oversubscription;
  if (fb.tiers > 0) out << YAML::Key << "tiers" << YAML::Value << fb.tiers;
  if (fb.planes != 1) out << YAML::Key << "planes" << YAML::Value << fb.planes;
  if (fb.groups > 0) out << YAML::Key << "groups" << YAML::Value << fb.groups;
  if (fb.routers_per_group > 0) out << YAML::Key << "routers_per_group" << YAML::Value << fb.routers_per_group;
  if (fb.global_links_per_router > 0)
    out << YAML::Key << "global_links_per_router" << YAML::Value << fb.global_links_per_router;
  if (!fb.torus_dims.empty()) out << YAML::Key << "torus_dims" << YAML::Value << YAML::Flow << fb.torus_dims;
  out << YAML::EndMap;
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace gf
