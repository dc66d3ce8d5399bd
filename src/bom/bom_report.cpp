#include "bom/bom_report.hpp"

#include <fmt/format.h>

#include <cmath>

#include "report/table.hpp"

namespace gf {
namespace {

std::string quantity(const BomLine& l) {
  if (l.unit == PriceUnit::Metre) return with_commas(std::llround(l.quantity)) + " m";
  return with_commas(std::llround(l.quantity));
}
std::string kw(double w) { return fmt::format("{:.1f}", w / 1000); }

// CSV cells: quoted when they hold a comma or a quote (RFC 4180).
std::string cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

}  // namespace

std::string dollars(double usd) { return "$" + with_commas(std::llround(usd)); }

std::string geometry_text(const Geometry& g) {
  return fmt::format(
      "{} servers per rack, {} racks per row, racks {:g} m wide, rows {:g} m apart, {:g} m slack per cable; "
      "copper up to {:g} m (passive) and {:g} m (active), AOC elsewhere in a row, transceivers and fibre between rows; "
      "{} NVSwitch chips per NVLink switch tray",
      g.servers_per_rack, g.racks_per_row, g.rack_width_m, g.row_pitch_m, g.slack_m, g.dac_max_m, g.aec_max_m,
      g.nvlink_chips_per_tray);
}

std::string bom_text(const Bom& b) {
  std::string out;
  auto plural = [](int64_t n, const char* one, const char* many) {
    return with_commas(n) + " " + (n == 1 ? one : many);
  };
  out += fmt::format("bill of materials  {}: {}, {} in {}, {}\n", b.name, plural(b.counts.servers, "server", "servers"),
                     plural(b.counts.gpus, "GPU", "GPUs"), plural(b.racks, "rack", "racks"),
                     plural(b.rows, "row", "rows"));
  out += "prices             " + b.prices_origin + "\n";
  TextTable t({"group", "item", "what", "reach", ">quantity", ">unit price", ">cost", ">typical kW", ">max kW"});
  for (const auto& l : b.lines) {
    std::string unit_price = l.included ? "included" : !l.priced ? "no price" : dollars(l.unit_usd);
    if (l.priced && !l.included && l.unit != PriceUnit::Each) unit_price += std::string("/") + to_string(l.unit);
    const bool costed = l.priced && !l.included;
    t.add({l.group, l.item, l.what, l.reach, quantity(l), unit_price, costed ? dollars(l.usd()) : "-",
           costed ? kw(l.typical_w()) : "-", costed ? kw(l.max_w()) : "-"});
  }
  const BomTotals tot = b.totals();
  t.add({"total", "", "", "", "", "", dollars(tot.usd), kw(tot.typical_w), kw(tot.max_w)});
  out += t.render();
  out += fmt::format("per GPU            {}, {:.0f} W typical, {:.0f} W max\n", dollars(tot.usd_per_gpu()),
                     tot.typical_w_per_gpu(), tot.max_w_per_gpu());
  out += fmt::format("cables             {} ({} optical transceivers)\n", with_commas(b.cables),
                     with_commas(b.transceivers));
  out += "geometry           " + geometry_text(b.geometry) + "\n";
  if (!b.unpriced.empty()) {
    std::string list;
    for (const auto& u : b.unpriced) list += (list.empty() ? "" : ", ") + u;
    out += "not priced         " + list + " (counted, left out of the totals; add them with --prices FILE)\n";
  }
  return out;
}

std::string bom_csv(const Bom& b) {
  std::string out =
      "group,item,what,reach,quantity,unit,unit_usd,usd,unit_typical_w,typical_w,unit_max_w,max_w,status\n";
  for (const auto& l : b.lines) {
    const char* status = l.included ? "included" : l.priced ? "priced" : "no price";
    out += fmt::format("{},{},{},{},{:g},{},{:g},{:.2f},{:g},{:.2f},{:g},{:.2f},{}\n", cell(l.group), cell(l.item),
                       cell(l.what), cell(l.reach), l.quantity, to_string(l.unit), l.unit_usd, l.usd(),
                       l.unit_typical_w, l.typical_w(), l.unit_max_w, l.max_w(), status);
  }
  const BomTotals t = b.totals();
  out += fmt::format("total,,,,,,,{:.2f},,{:.2f},,{:.2f},\n", t.usd, t.typical_w, t.max_w);
  return out;
}

nlohmann::ordered_json bom_json(const Bom& b) {
  nlohmann::ordered_json j;
  j["name"] = b.name;
  j["servers"] = b.counts.servers;
  j["gpus"] = b.counts.gpus;
  j["racks"] = b.racks;
  j["rows"] = b.rows;
  j["prices"] = b.prices_origin;
  const Geometry& g = b.geometry;
  j["geometry"] = {{"servers_per_rack", g.servers_per_rack},
                   {"racks_per_row", g.racks_per_row},
                   {"rack_width_m", g.rack_width_m},
                   {"row_pitch_m", g.row_pitch_m},
                   {"slack_m", g.slack_m},
                   {"dac_max_m", g.dac_max_m},
                   {"aec_max_m", g.aec_max_m},
                   {"nvlink_chips_per_tray", g.nvlink_chips_per_tray}};
  nlohmann::ordered_json lines = nlohmann::ordered_json::array();
  for (const auto& l : b.lines) {
    lines.push_back({{"group", l.group},
                     {"item", l.item},
                     {"what", l.what},
                     {"reach", l.reach},
                     {"quantity", l.quantity},
                     {"unit", to_string(l.unit)},
                     {"status", l.included ? "included"
                                : l.priced ? "priced"
                                           : "no price"},
                     {"unit_usd", l.unit_usd},
                     {"usd", l.usd()},
                     {"typical_w", l.typical_w()},
                     {"max_w", l.max_w()}});
  }
  j["lines"] = lines;
  const BomTotals t = b.totals();
  j["total"] = {{"usd", t.usd},
                {"typical_w", t.typical_w},
                {"max_w", t.max_w},
                {"usd_per_gpu", t.usd_per_gpu()},
                {"typical_w_per_gpu", t.typical_w_per_gpu()},
                {"max_w_per_gpu", t.max_w_per_gpu()}};
  j["cables"] = b.cables;
  j["transceivers"] = b.transceivers;
  j["not_priced"] = b.unpriced;
  return j;
}

}  // namespace gf
