#include "topology/fabrics/fabric_common.hpp"

namespace gf {

ResolvedSwitch resolve_switch(const FabricSpec& spec, const FabricShape& shape, const LinkCatalog& cat) {
  ResolvedSwitch r;
  r.link_name = spec.link.empty() ? shape.nic_tech : spec.link;
  auto tech = cat.find(r.link_name);
  if (!tech)
    throw InputError(spec.where, "fabric.link", "unknown link technology '" + r.link_name + "'",
                     suggest(r.link_name, cat.tech_names()));
  r.link = *tech;
  std::optional<SwitchModel> model;
  if (!spec.switch_model.empty()) {
    model = cat.find_switch(spec.switch_model);
    if (!model)
      throw InputError(spec.where, "fabric.switch_model", "unknown switch model '" + spec.switch_model + "'",
                       suggest(spec.switch_model, cat.switch_names()));
  } else {
    model = cat.default_switch_for(r.link_name);
  }
  if (model) {
    r.model = model->name;
    r.radix = model->radix;
    r.latency = model->latency;
  } else {
    r.model = "custom";
    r.latency = Time::ns(500);  // estimate for an unnamed Ethernet/IB switch
  }
  if (spec.switch_radix > 0) r.radix = spec.switch_radix;
  if (r.radix <= 0)
    throw InputError(spec.where, "fabric.switch_radix", "no switch model is known for '" + r.link_name + "'",
                     "set fabric.switch_radix (ports per switch) or fabric.switch_model");
  if (r.radix < 2)
    throw InputError(spec.where, "fabric.switch_radix", "a switch needs at least 2 ports, got " + std::to_string(r.radix));
  return r;
}

void require_radix(const FabricSpec& spec, const std::string& what, int64_t needed, int radix, const std::string& fix) {
  if (needed > radix)
    throw InputError(spec.where, "fabric.switch_radix",
                     what + " needs " + std::to_string(needed) + " ports per switch but the switch has " +
                         std::to_string(radix),
                     fix);
}

}  // namespace gf
