// The registered congestion-control schemes and the lookups over them (congestion_control.hpp).
#include <algorithm>
#include <stdexcept>

#include "model/packet/congestion_control.hpp"

namespace gf {

using CcMaker = std::unique_ptr<const CongestionControl>();
// Each scheme's maker, defined in its own file (cc_<name>.cpp); registering a scheme is naming
// its maker in these two lines. This order is `gpufabric list congestion-control`'s and the
// names' in messages.
CcMaker make_none_cc, make_dcqcn_cc, make_tcp_cc, make_ibcc_cc;
constexpr CcMaker* kMakers[] = {make_none_cc, make_dcqcn_cc, make_tcp_cc, make_ibcc_cc};

const std::vector<std::unique_ptr<const CongestionControl>>& congestion_control_registry() {
  // Immutable after first use: a table of stateless descriptions, not simulation state.
  static const std::vector<std::unique_ptr<const CongestionControl>> kSchemes = [] {
    std::vector<std::unique_ptr<const CongestionControl>> v;
    for (CcMaker* make : kMakers) v.push_back(make());
    return v;
  }();
  return kSchemes;
}

std::vector<const CongestionControl*> congestion_control_blocks() {
  std::vector<const CongestionControl*> out;
  for (const auto& cc : congestion_control_registry())
    if (!cc->block().empty()) out.push_back(cc.get());
  std::sort(out.begin(), out.end(), [](const CongestionControl* a, const CongestionControl* b) { return a->block() < b->block(); });
  return out;
}

std::vector<std::string> congestion_control_names() {
  std::vector<std::string> names = {"auto"};
  for (const auto& cc : congestion_control_registry()) names.push_back(cc->name());
  return names;
}

const CongestionControl* parse_congestion_control(std::string_view name, const SourceLocation& where,
                                                  const std::string& key) {
  if (name == "auto") return nullptr;
  for (const auto& cc : congestion_control_registry())
    if (cc->name() == name) return cc.get();
  throw InputError(where, key, "unknown congestion control '" + std::string(name) + "'",
                   suggest(std::string(name), congestion_control_names()));
}

const CongestionControl* find_congestion_control(std::string_view name) {
  for (const auto& cc : congestion_control_registry())
    if (cc->name() == name) return cc.get();
  throw std::invalid_argument("no congestion-control scheme '" + std::string(name) + "' is registered");
}

const CongestionControl& no_congestion_control() { return *find_congestion_control("none"); }

std::string congestion_control_name(const CongestionControl* cc) { return cc == nullptr ? "auto" : cc->name(); }

const CongestionControl& resolve_congestion_control(const CongestionControl* chosen, LinkFamily fabric) {
  if (chosen != nullptr) return *chosen;
  for (const auto& cc : congestion_control_registry()) {
    const std::vector<LinkFamily> fams = cc->auto_for();
    if (std::find(fams.begin(), fams.end(), fabric) != fams.end()) return *cc;
  }
  return no_congestion_control();
}

}  // namespace gf
