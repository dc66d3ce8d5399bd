#include "report/topo_report.hpp"

#include <cmath>

#include <fmt/format.h>

#include "report/table.hpp"
#include "topology/bundle.hpp"

namespace gf {
namespace {

std::string ratio(double o) { return o == 1 ? "1:1 (non-blocking)" : fmt::format("{:g}:1", o); }

std::string bw_both(Bandwidth b) {
  if (b.to_gbps() >= 1e6)
    return with_commas(static_cast<int64_t>(std::llround(b.to_gbps() / 1e3))) + " Tb/s (" +
           with_commas(static_cast<int64_t>(std::llround(b.to_gBps() / 1e3))) + " TB/s)";
  if (b.to_gbps() >= 1e4) return fmt::format("{:.4g} Tb/s ({:.4g} TB/s)", b.to_gbps() / 1e3, b.to_gBps() / 1e3);
  return fmt::format("{:g} Gb/s ({:g} GB/s)", b.to_gbps(), b.to_gBps());
}

}  // namespace

std::string summary_text(const TopoSummary& s) {
  const ClusterCounts& c = s.counts;
  std::string out;
  out += fmt::format("cluster    {}{}\n", s.name, s.description.empty() ? "" : " - " + s.description);
  if (!s.source.empty()) out += fmt::format("source     {}\n", s.source);
  out += fmt::format("servers    {} x {} ({}, {})\n", with_commas(c.servers), s.server_name, s.gpu_model, s.gpu_arch);
  out += fmt::format("GPUs       {} ({} per server)\n", with_commas(c.gpus), c.shape.gpus_per_server);
  if (c.shape.nics_per_server > 0 && s.nic_groups.size() > 1) {
    std::string mix;
    for (const auto& g : s.nic_groups)
      mix += fmt::format("{}{} x {} {}", mix.empty() ? "" : ", ", g.per_server, g.tech, to_string_gbps(g.bandwidth));
    out += fmt::format("NICs       {} ({} per server: {}; {} per GPU)\n", with_commas(c.nics), c.shape.nics_per_server,
                       mix, to_string_gbps(s.nic_bandwidth_per_gpu));
  } else if (c.shape.nics_per_server > 0)
    out += fmt::format("NICs       {} ({} per server, {} {} each; {} per GPU)\n", with_commas(c.nics),
                       c.shape.nics_per_server, c.shape.nic_tech, to_string_gbps(c.shape.nic_bandwidth),
                       to_string_gbps(s.nic_bandwidth_per_gpu));
  else
    out += "NICs       none\n";
  if (c.scale_up_switches > 0)
    out += fmt::format("NVLink domain switches  {} chips outside the servers\n", with_commas(c.scale_up_switches));
  out += fmt::format("fabric     {}", s.fabric_kind);
  if (s.fabric_kind != "none") out += fmt::format(" on {}, switch {}", s.fabric_link, s.switch_model);
  out += "\n";
  if (!c.fabric.tiers.empty()) {
    TextTable t({"tier", ">switches", ">radix", ">ports used", "oversubscription"});
    for (const auto& tier : c.fabric.tiers)
      t.add({tier.name, with_commas(tier.switches), std::to_string(tier.radix), with_commas(tier.ports_used),
             ratio(tier.oversubscription)});
    out += t.render();
  }
  out += "links and cables\n";
  TextTable lt({"technology", "between", ">count"});
  for (const auto& x : c.intra_server) lt.add({x.tech, x.between, with_commas(x.count)});
  for (const auto& x : c.fabric.cables) lt.add({x.tech, x.between, with_commas(x.count)});
  out += lt.render();
  if (s.fabric_kind != "none") {
    out += fmt::format("network ports per NIC   {}\n", with_commas(c.fabric.ports_per_endpoint));
    out += fmt::format("bisection bandwidth     {} per direction\n", bw_both(c.fabric.bisection));
    if (c.fabric.max_server_hops > 0)
      out += fmt::format("max server hops         {} (direct fabric: server-to-server links)\n", c.fabric.max_server_hops);
    else
      out += fmt::format("max switch hops         {} (NIC to NIC)\n", c.fabric.max_switch_hops);
  }
  if (!s.built) {
    out += "routes     not computed: " + s.not_built_reason + "\n";
    return out;
  }
  out += "GPU-to-GPU routes from gpu0 (one line per distinct kind of route)\n";
  TextTable rt({"to", "relation", ">links", ">switches", ">equal-cost", ">per route", ">aggregate", ">latency"});
  for (const auto& r : s.routes)
    rt.add({r.to, r.relation, std::to_string(r.links), std::to_string(r.switch_hops), big_count(r.equal_cost),
            to_string_gBps(r.route_bottleneck), to_string_gBps(r.aggregate), to_string(r.latency)});
  out += rt.render();
  return out;
}

nlohmann::json summary_json(const TopoSummary& s) {
  using nlohmann::json;
  const ClusterCounts& c = s.counts;
  json j;
  j["name"] = s.name;
  j["description"] = s.description;
  j["source"] = s.source;
  j["server"] = {{"name", s.server_name}, {"gpu_model", s.gpu_model}, {"gpu_arch", s.gpu_arch}};
  j["servers"] = c.servers;
  j["gpus"] = c.gpus;
  j["gpus_per_server"] = c.shape.gpus_per_server;
  j["nics"] = c.nics;
  j["nics_per_server"] = c.shape.nics_per_server;
  j["nic_tech"] = c.shape.nic_tech;
  j["nic_gbps"] = c.shape.nic_bandwidth.to_gbps();
  j["nic_gbps_per_gpu"] = s.nic_bandwidth_per_gpu.to_gbps();
  if (s.nic_groups.size() > 1) {
    json groups = json::array();
    for (const auto& g : s.nic_groups)
      groups.push_back({{"tech", g.tech}, {"per_server", g.per_server}, {"gbps", g.bandwidth.to_gbps()}});
    j["nic_groups"] = groups;
  }
  j["scale_up_switches"] = c.scale_up_switches;
  j["fabric"] = {{"kind", s.fabric_kind}, {"link", s.fabric_link}, {"switch_model", s.switch_model}};
  json tiers = json::array();
  for (const auto& t : c.fabric.tiers)
    tiers.push_back({{"name", t.name}, {"switches", t.switches}, {"radix", t.radix}, {"ports_used", t.ports_used},
                     {"oversubscription", t.oversubscription}});
  j["fabric"]["tiers"] = tiers;
  json cables = json::array();
  for (const auto& x : c.intra_server) cables.push_back({{"tech", x.tech}, {"between", x.between}, {"count", x.count}});
  for (const auto& x : c.fabric.cables) cables.push_back({{"tech", x.tech}, {"between", x.between}, {"count", x.count}});
  j["links"] = cables;
  j["fabric"]["ports_per_endpoint"] = c.fabric.ports_per_endpoint;
  j["fabric"]["bisection_gbps"] = c.fabric.bisection.to_gbps();
  j["fabric"]["max_switch_hops"] = c.fabric.max_switch_hops;
  j["fabric"]["max_server_hops"] = c.fabric.max_server_hops;
  j["links_directed"] = c.links_directed;
  j["built"] = s.built;
  if (!s.built) j["not_built_reason"] = s.not_built_reason;
  json routes = json::array();
  for (const auto& r : s.routes)
    routes.push_back({{"from", r.from}, {"to", r.to}, {"relation", r.relation}, {"links", r.links},
                      {"switch_hops", r.switch_hops}, {"equal_cost_paths", r.equal_cost},
                      {"route_bottleneck_gBps", r.route_bottleneck.to_gBps()}, {"aggregate_gBps", r.aggregate.to_gBps()},
                      {"latency_ns", r.latency.to_ns()}});
  j["routes"] = routes;
  return j;
}

std::string path_text(const Cluster& c, const PathReport& r) {
  const RouteSample& s = r.sample;
  std::string out = fmt::format("{} -> {}: {}, {} links, {} switch hops\n", s.from, s.to, s.relation, s.links,
                                s.switch_hops);
  out += fmt::format("equal-cost routes   {}{}\n", big_count(s.equal_cost),
                     r.routes.size() < s.equal_cost ? fmt::format(" (first {} shown)", r.routes.size()) : "");
  out += fmt::format("bottleneck          {} per route, {} over all equal-cost routes (max-flow)\n",
                     to_string_gBps(s.route_bottleneck), to_string_gBps(s.aggregate));
  out += fmt::format("latency             {} (sum of link latencies)\n", to_string(s.latency));
  for (size_t i = 0; i < r.routes.size(); ++i) {
    out += fmt::format("route {}\n", i);
    // A hop over one cable of a bundle (topology/bundle.hpp) says which, "3/8", as `--fail
    // leaf0-spine0#3` names it; the column is there only where a route crosses a bundle.
    bool bundles = false;
    for (LinkId l : r.routes[i].links) bundles = bundles || bundle_place(c, l).cables > 1;
    std::vector<std::string> head{"hop", "from", "to", "technology", ">lanes", ">bandwidth/dir", ">latency"};
    if (bundles) head.insert(head.begin() + 5, ">cable");
    TextTable t(head);
    int hop = 0;
    for (LinkId l : r.routes[i].links) {
      const Link& k = c.link(l);
      std::vector<std::string> row{std::to_string(hop++), c.node_name(k.src), c.node_name(k.dst),
                                   c.catalog().tech(k.tech).name, std::to_string(k.lanes), to_string_gBps(k.bandwidth),
                                   to_string(k.latency)};
      if (bundles) {
        const BundlePlace p = bundle_place(c, l);
        row.insert(row.begin() + 5, p.cables > 1 ? fmt::format("{}/{}", p.cable, p.cables) : "");
      }
      t.add(row);
    }
    out += t.render();
  }
  return out;
}

nlohmann::json path_json(const Cluster& c, const PathReport& r) {
  using nlohmann::json;
  const RouteSample& s = r.sample;
  json j = {{"from", s.from}, {"to", s.to}, {"relation", s.relation}, {"links", s.links},
            {"switch_hops", s.switch_hops}, {"equal_cost_paths", s.equal_cost},
            {"route_bottleneck_gBps", s.route_bottleneck.to_gBps()}, {"aggregate_gBps", s.aggregate.to_gBps()},
            {"latency_ns", s.latency.to_ns()}};
  json routes = json::array();
  for (const auto& p : r.routes) {
    json hops = json::array();
    for (LinkId l : p.links) {
      const Link& k = c.link(l);
      hops.push_back({{"from", c.node_name(k.src)}, {"to", c.node_name(k.dst)}, {"tech", c.catalog().tech(k.tech).name},
                      {"lanes", k.lanes}, {"gBps", k.bandwidth.to_gBps()}, {"latency_ns", k.latency.to_ns()}});
      const BundlePlace p = bundle_place(c, l);
      if (p.cables > 1) hops.back()["cable"] = p.cable, hops.back()["cables"] = p.cables;
    }
    routes.push_back(hops);
  }
  j["routes"] = routes;
  return j;
}

}  // namespace gf
