#include "bom/design.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "bom/bom_report.hpp"
#include "config/presets.hpp"
#include "report/table.hpp"
#include "topology/fabric.hpp"
#include "topology/server_registry.hpp"

namespace gf {
namespace {

// The value the objective ranks by, larger is better.
double score(const std::string& objective, const DesignFigures& f) {
  const double busbw = f.perf ? f.perf->busbw_gBps : 0;
  if (objective == "busbw") return busbw;
  if (objective == "cost") return -f.bom.totals().usd;
  return f.busbw_per_musd();
}

std::string ratio(double o) { return fmt::format("{:g}:1", o); }

void check_query(const DesignQuery& q) {
  if (q.gpus < 1)
    throw InputError({}, "--gpus", "must be at least 1, got " + std::to_string(q.gpus), "e.g. --gpus 16384");
  if (!find_server(q.server))
    throw InputError({}, "--server", "unknown server '" + q.server + "'", suggest(q.server, server_names()));
  std::vector<std::string> kinds;
  for (const auto& b : fabric_registry()) kinds.push_back(b->name());
  for (const auto& k : q.kinds) find_fabric(k, {});  // did-you-mean on a typo
  const LinkCatalog cat = LinkCatalog::builtin();
  for (const auto& l : q.links)
    if (!cat.find(l))
      throw InputError({}, "--links", "unknown link technology '" + l + "'", suggest(l, cat.tech_names()));
  for (double o : q.oversubscription)
    if (!(o >= 1) || o > 64)
      throw InputError({}, "--oversubscription", fmt::format("must be from 1 to 64, got {:g}", o), "e.g. 1,2");
  for (int p : q.planes)
    if (p < 1 || p > 64) throw InputError({}, "--planes", "must be from 1 to 64, got " + std::to_string(p), "e.g. 1,2");
  const std::vector<std::string> objectives = {"busbw_per_dollar", "busbw", "cost"};
  if (std::find(objectives.begin(), objectives.end(), q.objective) == objectives.end())
    throw InputError({}, "--objective", "unknown objective '" + q.objective + "'", suggest(q.objective, objectives));
  if (q.budget_usd && *q.budget_usd <= 0) throw InputError({}, "--budget", "must be positive", "e.g. --budget 500M");
  if (q.flow_top < 0 || q.flow_top > 100)
    throw InputError({}, "--flow-top", "must be from 0 to 100, got " + std::to_string(q.flow_top), "e.g. --flow-top 3");
}

}  // namespace

std::vector<DesignCandidate> search_designs(const DesignQuery& q, const PriceTable& prices) {
  check_query(q);
  ClusterSpec base = resolve_cluster(q.server, ClusterOverrides{});
  const int gps = base.server.count(NodeKind::Gpu);
  if (gps < 1) throw InputError({}, "--server", q.server + " has no GPU", "pick a GPU server");
  base.servers = (q.gpus + gps - 1) / gps;
  std::string own_link;
  for (const auto& n : base.server.nodes)
    if (n.kind == NodeKind::Nic) own_link = n.tech;
  const std::vector<std::string> kinds =
      q.kinds.empty() ? std::vector<std::string>{"rail_optimized", "fat_tree"} : q.kinds;
  const std::vector<std::string> links = q.links.empty() ? std::vector<std::string>{own_link} : q.links;

  std::vector<DesignCandidate> out;
  for (const auto& kind : kinds)
    for (const auto& link : links)
      for (double o : q.oversubscription)
        for (int planes : q.planes) {
          DesignCandidate c;
          c.kind = kind, c.link = link, c.oversubscription = o, c.planes = planes;
          c.label =
              fmt::format("{} {} {}{}", kind, link, ratio(o), planes > 1 ? fmt::format(" x{} planes", planes) : "");
          ClusterSpec s = base;
          s.name = c.label;
          for (auto& n : s.server.nodes)
            if (n.kind == NodeKind::Nic) n.tech = link;
          s.fabric = FabricSpec{};
          s.fabric.kind = kind;
          s.fabric.link = link;
          s.fabric.oversubscription = o;
          s.fabric.planes = planes;
          try {
            c.figures = evaluate_design(s, c.label, prices, q.sweep);
          } catch (const InputError& e) {
            c.refused = e.message();
          }
          if (c.figures && q.budget_usd && c.figures->bom.totals().usd > *q.budget_usd) c.over_budget = true;
          out.push_back(std::move(c));
        }

  // Pareto front of (cost down, busbw up) among the buildable designs within budget.
  auto eligible = [](const DesignCandidate& c) { return c.figures && !c.over_budget && c.figures->perf; };
  for (auto& a : out) {
    if (!eligible(a)) continue;
    const double ca = a.figures->bom.totals().usd, ba = a.figures->perf->busbw_gBps;
    a.pareto = true;
    for (const auto& b : out) {
      if (&a == &b || !eligible(b)) continue;
      const double cb = b.figures->bom.totals().usd, bb = b.figures->perf->busbw_gBps;
      if (cb <= ca && bb >= ba && (cb < ca || bb > ba)) a.pareto = false;
    }
  }
  // Best first by the objective; refused and over-budget designs last, in grid order.
  std::stable_sort(out.begin(), out.end(), [&](const DesignCandidate& a, const DesignCandidate& b) {
    if (eligible(a) != eligible(b)) return eligible(a);
    if (!eligible(a)) return false;
    return score(q.objective, *a.figures) > score(q.objective, *b.figures);
  });
  // The analytical model charges no contention; the leaders are checked where it is charged.
  int flowed = 0;
  for (auto& c : out) {
    if (flowed >= q.flow_top || !eligible(c)) break;
    SweepOptions flow = q.sweep;
    flow.model = "flow";
    c.flow = evaluate_design(c.figures->spec, c.label, prices, flow).perf;
    ++flowed;
  }
  return out;
}

std::string design_text(const DesignQuery& q, const std::vector<DesignCandidate>& cands) {
  std::string out = fmt::format("design  {} GPUs of {}, {} {} on the {} model, ranked by {}\n", with_commas(q.gpus),
                                q.server, to_string(q.sweep.call.kind), with_commas(q.sweep.min_bytes.count()) + " B",
                                q.sweep.model, q.objective);
  TextTable t({"pareto", "design", ">GPUs", ">switches", ">optics", ">cost", ">$/GPU", ">max kW", ">bisection Tb/s",
               ">hops", ">busbw GB/s", ">GB/s per $M", ">flow busbw"});
  std::vector<std::string> refused;
  for (const auto& c : cands) {
    if (!c.figures) {
      refused.push_back(c.label + ": " + c.refused);
      continue;
    }
    const DesignFigures& f = *c.figures;
    const BomTotals tot = f.bom.totals();
    t.add({c.pareto        ? "*"
           : c.over_budget ? "over budget"
                           : "",
           c.label, with_commas(f.gpus), with_commas(f.switches), with_commas(f.bom.transceivers), dollars(tot.usd),
           dollars(tot.usd_per_gpu()), fmt::format("{:.0f}", tot.max_w / 1000),
           fmt::format("{:.1f}", f.bisection_gbps / 1000), std::to_string(f.max_switch_hops),
           f.perf ? fmt::format("{:.1f}", f.perf->busbw_gBps) : "-", fmt::format("{:.2f}", f.busbw_per_musd()),
           c.flow ? fmt::format("{:.1f}", c.flow->busbw_gBps) : "-"});
  }
  out += t.render();
  out += "* on the Pareto front of cost against busbw (no other design is cheaper and at least as fast)\n";
  if (q.flow_top > 0)
    out += "flow busbw: the best " + std::to_string(q.flow_top) + " again on the flow model (contention charged)\n";
  for (const auto& r : refused) out += "not buildable  " + r + "\n";
  return out;
}

nlohmann::ordered_json design_json(const DesignQuery& q, const std::vector<DesignCandidate>& cands) {
  nlohmann::ordered_json j;
  j["gpus"] = q.gpus;
  j["server"] = q.server;
  j["objective"] = q.objective;
  j["model"] = q.sweep.model;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& c : cands) {
    nlohmann::ordered_json d = {{"design", c.label},
                                {"kind", c.kind},
                                {"link", c.link},
                                {"oversubscription", c.oversubscription},
                                {"planes", c.planes},
                                {"pareto", c.pareto},
                                {"over_budget", c.over_budget}};
    if (c.figures)
      d["figures"] = compare_json({*c.figures}, to_string(q.sweep.call.kind))[0];
    else
      d["refused"] = c.refused;
    list.push_back(d);
  }
  j["designs"] = list;
  return j;
}

}  // namespace gf
