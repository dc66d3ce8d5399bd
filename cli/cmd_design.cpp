// gpufabric design --gpus N [--server S] [--fabric-kinds K,...] [--links T,...] [--oversubscription O,...]
//                  [--planes P,...] [--budget $X] [--objective busbw_per_dollar|busbw|cost]
//                  [--collective C] [-b SIZE] [--model M] [--flow-top K] [--prices FILE] [--format text|json]
#include <cmath>
#include <gpufabric/bom.hpp>
#include <gpufabric/gpufabric.hpp>
#include <iostream>

#include "commands.hpp"

namespace gfcli {

namespace {

struct DesignOptions {
  int64_t gpus = 0;
  std::string server = "dgx-h100";
  std::vector<std::string> kinds, links;
  std::vector<double> oversubscription{1};
  std::vector<int> planes{1};
  std::string budget;
  std::string objective = "busbw_per_dollar";
  std::string collective = "all_reduce";
  std::string size = "1G";
  std::string model = "analytical";
  int flow_top = 3;
  std::string prices;
  std::string format = "text";
};

// "$500M", "500M", "2.5e8", "1.2B": US dollars.
double dollars_flag(const std::string& text) {
  std::string s = text;
  if (!s.empty() && s[0] == '$') s.erase(0, 1);
  double scale = 1;
  if (!s.empty()) {
    const char last = static_cast<char>(std::toupper(static_cast<unsigned char>(s.back())));
    if (last == 'K')
      scale = 1e3;
    else if (last == 'M')
      scale = 1e6;
    else if (last == 'B' || last == 'G')
      scale = 1e9;
    if (scale != 1) s.pop_back();
  }
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !std::isfinite(v) || v <= 0)
    throw gf::InputError({}, "--budget", "expected an amount of dollars, got '" + text + "'",
                         "e.g. --budget 500M or --budget 2.5e8");
  return v * scale;
}

int run_design(const DesignOptions& o) {
  gf::DesignQuery q;
  q.gpus = o.gpus;
  q.server = o.server;
  q.kinds = o.kinds;
  q.links = o.links;
  q.oversubscription = o.oversubscription;
  q.planes = o.planes;
  q.objective = gf::ascii_lower(o.objective);
  if (!o.budget.empty()) q.budget_usd = dollars_flag(o.budget);
  auto kind = gf::parse_collective(o.collective);
  if (!kind)
    throw gf::InputError({}, "--collective", "unknown collective '" + o.collective + "'",
                         gf::suggest(o.collective, gf::collective_names()));
  q.sweep.call.kind = *kind;
  try {
    q.sweep.min_bytes = q.sweep.max_bytes = gf::parse_size(o.size);
  } catch (const gf::UnitError& e) {
    throw gf::InputError({}, "-b", e.what(), "sizes look like 8, 1K, 128M, 8G");
  }
  q.sweep.model = gf::ascii_lower(o.model);
  gf::require_model(q.sweep.model, {}, "--model");
  q.flow_top = o.flow_top;
  const gf::PriceTable prices =
      o.prices.empty() ? gf::PriceTable::builtin() : gf::PriceTable::load_over_builtin(o.prices);
  const auto designs = gf::search_designs(q, prices);
  if (o.format == "json")
    std::cout << json_text(gf::design_json(q, designs)) << "\n";
  else
    std::cout << gf::design_text(q, designs);
  return 0;
}

}  // namespace

Command add_design(CLI::App& root) {
  auto o = std::make_shared<DesignOptions>();
  CLI::App* sub =
      root.add_subcommand("design", "Search fabric designs for N GPUs: cost, power and busbw, the Pareto front");
  sub->add_option("--gpus", o->gpus, "GPUs to connect")->required();
  sub->add_option("--server", o->server, "Server (gpufabric list presets; default dgx-h100)");
  sub->add_option("--fabric-kinds", o->kinds, "Fabric kinds to try (default rail_optimized,fat_tree)")->delimiter(',');
  sub->add_option("--links", o->links, "NIC and fabric technologies to try (default: the server's NICs')")
      ->delimiter(',');
  sub->add_option("--oversubscription", o->oversubscription, "Leaf oversubscriptions to try (default 1)")
      ->delimiter(',');
  sub->add_option("--planes", o->planes, "Plane counts to try (default 1)")->delimiter(',');
  sub->add_option("--budget", o->budget, "Most a design may cost, e.g. 500M (over it: listed, not ranked)");
  sub->add_option("--objective", o->objective, "busbw_per_dollar (default), busbw or cost");
  sub->add_option("--collective", o->collective, "Collective evaluated (default all_reduce)");
  sub->add_option("-b,--size", o->size, "Its size (default 1G)");
  sub->add_option("--model", o->model, "Fidelity of the evaluation (default analytical)");
  sub->add_option("--flow-top", o->flow_top, "Run the best this many again on the flow model (default 3; 0: none)");
  sub->add_option("--prices", o->prices, "Price and power file over the built-in table (docs/bom.md)");
  sub->add_option("--format", o->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  return {sub, [o] { return run_design(*o); }};
}

}  // namespace gfcli
