// gpufabric list presets|links|topologies|switches|algorithms|rules|fidelity|congestion-control|models|gpus
#include <fmt/format.h>

#include <cstdlib>
#include <iostream>

#include <gpufabric/gpufabric.hpp>

#include "commands.hpp"

namespace gfcli {

namespace {

// What one unit of a link technology is, as a hardware reader names it: the catalog's bandwidth is
// per direction for one NVLink, one whole PCIe link of its width (x16 is sixteen PCIe lanes), one
// socket link or one network port; a server link's `lanes:` bonds several such units.
std::string unit_of(const gf::LinkTech& l) {
  switch (l.family) {
    case gf::LinkFamily::NvLink: return "per direction per NVLink";
    case gf::LinkFamily::NvLinkC2C: return "per direction per C2C link";
    case gf::LinkFamily::Xgmi: return "per direction per xGMI link";
    case gf::LinkFamily::InterSocket: return "per direction per socket link";
    case gf::LinkFamily::Pcie: {
      const auto x = l.name.rfind("-x");
      const int width = x == std::string::npos ? 0 : std::atoi(l.name.c_str() + x + 2);
      if (width <= 0) return "per direction per PCIe link";
      return "per direction per x" + std::to_string(width) + " link: " + std::to_string(width) + " PCIe lanes of " +
             gf::to_string_gBps(gf::Bandwidth::bytes_per_s(l.per_lane.bytes_per_second() / width)) + " each";
    }
    default: return "per direction per port";
  }
}

struct ListOptions {
  std::string what;
  std::string format = "text";
};

int run_list(const ListOptions& o) {
  gf::TextTable t({"name", "description", "source"}, "");
  nlohmann::json j = nlohmann::json::array();
  auto row = [&](const std::string& name, const std::string& desc, const std::string& src) {
    t.add({name, desc, src});
    j.push_back({{"name", name}, {"description", desc}, {"source", src}});
  };
  if (o.what == "presets") {
    for (const auto& p : gf::list_presets()) row(p.name, "[" + p.kind + "] " + p.description, p.source);
  } else if (o.what == "links") {
    const gf::LinkCatalog catalog = gf::LinkCatalog::builtin();
    for (const auto& l : catalog.techs())
      row(l.name, l.description + " (" + gf::to_string_gBps(l.per_lane) + " " + unit_of(l) + ")", l.source);
  } else if (o.what == "switches") {
    const gf::LinkCatalog catalog = gf::LinkCatalog::builtin();
    for (const auto& s : catalog.switches())
      row(s.name, s.description + " (" + std::to_string(s.radix) + " ports)", s.source);
  } else if (o.what == "rules") {
    for (const gf::DoctorRule& r : gf::doctor_rules()) row(r.name, r.description, r.source);
  } else if (o.what == "algorithms") {
    for (const auto& a : gf::algorithm_registry()) row(a->name(), a->description(), a->source());
  } else if (o.what == "fidelity") {
    for (const gf::ModelInfo& m : gf::model_registry()) row(m.name, m.description, m.source);
  } else if (o.what == "models") {
    for (const gf::ModelShape& m : gf::model_presets()) row(m.name, m.description, m.source);
  } else if (o.what == "gpus") {
    for (const gf::TrainingGpu& g : gf::training_gpus())
      row(g.model,
          fmt::format("{:g} TFLOP/s BF16{}, {:.0f} GB at {:g} GB/s (dense peaks)", g.bf16_tflops,
                      g.fp8_tflops > 0 ? fmt::format(", {:g} FP8", g.fp8_tflops) : std::string(), g.memory_bytes / 1e9,
                      g.memory_gBps),
          g.source);
  } else if (o.what == "congestion-control") {
    for (const auto& cc : gf::congestion_control_registry()) row(cc->name(), cc->description(), cc->source());
  } else {
    for (const auto& f : gf::fabric_registry()) row(f->name(), f->description(), f->source());
  }
  if (o.format == "json")
    std::cout << json_text(j) << "\n";
  else
    std::cout << t.render();
  return 0;
}

}  // namespace

Command add_list(CLI::App& root) {
  auto o = std::make_shared<ListOptions>();
  CLI::App* sub =
      root.add_subcommand("list",
                          "List built-ins: presets, links, topologies, switches, algorithms, doctor rules, fidelity "
                          "levels (network models), congestion control, models (transformers), gpus");
  sub->add_option("what", o->what, "What to list")
      ->required()
      ->check(CLI::IsMember({"presets", "links", "topologies", "switches", "algorithms", "rules", "fidelity",
                             "congestion-control", "models", "gpus"}));
  sub->add_option("--format", o->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  return {sub, [o] { return run_list(*o); }};
}

}  // namespace gfcli
