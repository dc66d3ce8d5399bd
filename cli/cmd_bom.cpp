// gpufabric bom [CLUSTER] [--nodes N] [--fabric KIND] [--fabric-link TECH] [--prices FILE] [--format text|csv|json]
#include <gpufabric/bom.hpp>
#include <gpufabric/gpufabric.hpp>
#include <iostream>

#include "cluster_args.hpp"
#include "commands.hpp"

namespace gfcli {

namespace {

struct BomOptions {
  ClusterArgs where;
  std::string prices;
  std::string format = "text";
};

int run_bom(const BomOptions& o) {
  const gf::ClusterSpec spec = o.where.resolve();
  const gf::PriceTable prices =
      o.prices.empty() ? gf::PriceTable::builtin() : gf::PriceTable::load_over_builtin(o.prices);
  gf::Bom b = gf::make_bom(spec, prices);
  if (b.name.empty()) b.name = o.where.name();
  if (o.format == "json")
    std::cout << json_text(gf::bom_json(b)) << "\n";
  else if (o.format == "csv")
    std::cout << gf::bom_csv(b);
  else
    std::cout << gf::bom_text(b);
  return 0;
}

}  // namespace

Command add_bom(CLI::App& root) {
  auto o = std::make_shared<BomOptions>();
  CLI::App* sub =
      root.add_subcommand("bom", "Bill of materials: servers, NICs, switches, cables and optics, power and cost");
  o->where.add(sub, true, "Number of servers (replaces the cluster's count)");
  sub->add_option("--prices", o->prices, "Price and power file over the built-in table (docs/bom.md)");
  sub->add_option("--format", o->format, "text, csv or json")->check(CLI::IsMember({"text", "csv", "json"}));
  return {sub, [o] { return run_bom(*o); }};
}

}  // namespace gfcli
