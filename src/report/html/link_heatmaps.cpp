#include "report/html/link_heatmaps.hpp"

#include "report/html/heatmap.hpp"
#include "report/number_text.hpp"

namespace gf::html {

std::string link_heatmaps(const std::vector<std::vector<LinkHeat>>& tiers) {
  static const char* kIds[kLinkTiers] = {"heat-inside", "heat-nic", "heat-leaf-spine", "heat-spine-core", "heat-other"};
  std::string out;
  for (size_t t = 0; t < tiers.size() && t < static_cast<size_t>(kLinkTiers); ++t) {
    const std::vector<LinkHeat>& tier = tiers[t];
    if (tier.empty()) continue;
    Heatmap h;
    h.id = kIds[t];
    h.title = tier_title(static_cast<LinkTier>(t));
    h.cells.reserve(tier.size());
    for (const LinkHeat& l : tier)
      h.cells.push_back({l.utilisation, l.from + " -> " + l.to + ": " + fixed_text(l.utilisation * 100, 1) + "%, " +
                                            binary_size_text(l.bytes)});
    out += svg_heatmap(h);
  }
  return out;
}

}  // namespace gf::html
