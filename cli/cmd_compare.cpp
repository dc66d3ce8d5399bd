// gpufabric compare A B [C ...] [--collective all_reduce|none] [-b SIZE] [--model M] [--prices FILE] [--format
// text|json]
#include <gpufabric/bom.hpp>
#include <gpufabric/gpufabric.hpp>
#include <iostream>

#include "commands.hpp"

namespace gfcli {

namespace {

struct CompareOptions {
  std::vector<std::string> designs;
  std::string collective = "all_reduce";
  std::string size = "1G";
  std::string model = gf::default_model_name();
  std::string prices;
  std::string format = "text";
};

int run_compare(const CompareOptions& o) {
  if (o.designs.size() < 2)
    throw gf::InputError({}, "DESIGNS", "compare needs two designs or more, got " + std::to_string(o.designs.size()),
                         "e.g. gpufabric compare dgx-h100-superpod my-roce.yaml");
  std::optional<gf::SweepOptions> sweep;
  std::string label;
  if (gf::ascii_lower(o.collective) != "none") {
    gf::SweepOptions s;
    auto kind = gf::parse_collective(o.collective);
    if (!kind)
      throw gf::InputError({}, "--collective", "unknown collective '" + o.collective + "'",
                           gf::suggest(o.collective, gf::collective_names()) + ", or none");
    s.call.kind = *kind;
    try {
      s.min_bytes = s.max_bytes = gf::parse_size(o.size);
    } catch (const gf::UnitError& e) {
      throw gf::InputError({}, "-b", e.what(), "sizes look like 8, 1K, 128M, 8G");
    }
    s.model = gf::ascii_lower(o.model);
    gf::require_model(s.model, {}, "--model");
    sweep = s;
    label = std::string(gf::to_string(*kind)) + " " + o.size;
  }
  const gf::PriceTable prices =
      o.prices.empty() ? gf::PriceTable::builtin() : gf::PriceTable::load_over_builtin(o.prices);
  std::vector<gf::DesignFigures> figures;
  for (const auto& d : o.designs) {
    const gf::ClusterSpec spec = gf::resolve_cluster(d, gf::ClusterOverrides{});
    figures.push_back(gf::evaluate_design(spec, spec.name.empty() ? d : spec.name, prices, sweep));
  }
  if (o.format == "json")
    std::cout << json_text(gf::compare_json(figures, label)) << "\n";
  else
    std::cout << gf::compare_text(figures, label);
  return 0;
}

}  // namespace

Command add_compare(CLI::App& root) {
  auto o = std::make_shared<CompareOptions>();
  CLI::App* sub =
      root.add_subcommand("compare", "Designs side by side: hardware, power, cost, bisection, hops, busbw per dollar");
  sub->add_option("designs", o->designs, "Two or more presets or cluster YAML files")->required();
  sub->add_option("--collective", o->collective, "Collective whose busbw is compared (default all_reduce; none: skip)");
  sub->add_option("-b,--size", o->size, "Its size, e.g. 1G (default 1G)");
  sub->add_option("--model", o->model, "Fidelity: analytical, flow (default) or packet");
  sub->add_option("--prices", o->prices, "Price and power file over the built-in table (docs/bom.md)");
  sub->add_option("--format", o->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  return {sub, [o] { return run_compare(*o); }};
}

}  // namespace gfcli
