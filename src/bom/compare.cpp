#include "bom/compare.hpp"

#include <fmt/format.h>

#include "bom/bom_report.hpp"
#include "collective/communicator.hpp"
#include "report/table.hpp"
#include "routing/router.hpp"

namespace gf {

double DesignFigures::busbw_per_musd() const {
  const double usd = bom.totals().usd;
  if (!perf || usd <= 0) return 0;
  return perf->busbw_gBps / (usd / 1e6);
}

DesignFigures evaluate_design(const ClusterSpec& spec, const std::string& name, const PriceTable& prices,
                              const std::optional<SweepOptions>& sweep) {
  DesignFigures d;
  d.name = name;
  d.spec = spec;
  d.bom = make_bom(spec, prices);
  d.bom.name = name;
  const ClusterCounts& c = d.bom.counts;
  d.gpus = c.gpus;
  for (const auto& t : c.fabric.tiers) d.switches += t.switches;
  d.bisection_gbps = c.fabric.bisection.to_gbps();
  d.max_switch_hops = c.fabric.max_switch_hops;
  if (sweep) {
    if (c.links_directed > kMaxBuildLinks)
      throw InputError(spec.where, "cluster",
                       name + " is too large to simulate (" + with_commas(c.links_directed) + " directed links)",
                       "compare it without --collective");
    const Cluster cluster = build_cluster(spec);
    const Router router(cluster);
    const Communicator comm =
        make_communicator(cluster, router, static_cast<int>(spec.servers), cluster.gpus_per_server());
    const std::vector<SweepRow> rows = run_sweep(comm, router, *sweep);
    if (!rows.empty()) d.perf = rows.back();
  }
  return d;
}

namespace {

std::string gbps(double v) { return v >= 1000 ? fmt::format("{:.1f} Tb/s", v / 1000) : fmt::format("{:.0f} Gb/s", v); }

}  // namespace

std::string compare_text(const std::vector<DesignFigures>& designs, const std::string& collective_label) {
  std::vector<std::string> head = {"figure"};
  for (const auto& d : designs) head.push_back(">" + d.name);
  TextTable t(head);
  auto row = [&](const std::string& label, auto cell) {
    std::vector<std::string> r = {label};
    for (const auto& d : designs) r.push_back(cell(d));
    t.add(r);
  };
  row("GPUs", [](const DesignFigures& d) { return with_commas(d.gpus); });
  row("servers", [](const DesignFigures& d) { return with_commas(d.bom.counts.servers); });
  row("switches", [](const DesignFigures& d) { return with_commas(d.switches); });
  row("cables", [](const DesignFigures& d) { return with_commas(d.bom.cables); });
  row("optical transceivers", [](const DesignFigures& d) { return with_commas(d.bom.transceivers); });
  row("power, typical",
      [](const DesignFigures& d) { return fmt::format("{:.1f} kW", d.bom.totals().typical_w / 1000); });
  row("power, max", [](const DesignFigures& d) { return fmt::format("{:.1f} kW", d.bom.totals().max_w / 1000); });
  row("cost", [](const DesignFigures& d) { return dollars(d.bom.totals().usd); });
  row("cost per GPU", [](const DesignFigures& d) { return dollars(d.bom.totals().usd_per_gpu()); });
  row("bisection (per direction)", [](const DesignFigures& d) { return gbps(d.bisection_gbps); });
  row("max switch hops", [](const DesignFigures& d) { return std::to_string(d.max_switch_hops); });
  if (!collective_label.empty()) {
    row(collective_label + " busbw", [](const DesignFigures& d) {
      return d.perf ? fmt::format("{:.1f} GB/s", d.perf->busbw_gBps) : std::string("-");
    });
    row("  algorithm", [](const DesignFigures& d) { return d.perf ? d.perf->choice.algorithm : std::string("-"); });
    row("busbw per $M", [](const DesignFigures& d) { return fmt::format("{:.2f} GB/s", d.busbw_per_musd()); });
  }
  std::string out = t.render();
  for (const auto& d : designs)
    if (!d.bom.unpriced.empty()) {
      std::string list;
      for (const auto& u : d.bom.unpriced) list += (list.empty() ? "" : ", ") + u;
      out += "not priced in " + d.name + ": " + list + " (left out of its cost)\n";
    }
  return out;
}

nlohmann::ordered_json compare_json(const std::vector<DesignFigures>& designs, const std::string& collective_label) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& d : designs) {
    const BomTotals t = d.bom.totals();
    nlohmann::ordered_json j = {{"name", d.name},
                                {"gpus", d.gpus},
                                {"servers", d.bom.counts.servers},
                                {"switches", d.switches},
                                {"cables", d.bom.cables},
                                {"transceivers", d.bom.transceivers},
                                {"typical_w", t.typical_w},
                                {"max_w", t.max_w},
                                {"usd", t.usd},
                                {"usd_per_gpu", t.usd_per_gpu()},
                                {"bisection_gbps", d.bisection_gbps},
                                {"max_switch_hops", d.max_switch_hops},
                                {"not_priced", d.bom.unpriced}};
    if (d.perf) {
      j["collective"] = collective_label;
      j["bytes"] = d.perf->size.count();
      j["busbw_gBps"] = d.perf->busbw_gBps;
      j["algorithm"] = d.perf->choice.algorithm;
      j["busbw_gBps_per_musd"] = d.busbw_per_musd();
    }
    out.push_back(j);
  }
  return out;
}

}  // namespace gf
