// The price and power of every item a bill of materials can hold: one entry per item, each with
// its unit, price, typical and maximum power, a source (a URL or the word "estimate") and a date.
// The built-in table is presets/prices/prices.yaml compiled in; a user's file replaces entries of
// the same item and adds nothing unknown (docs/bom.md).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bom/geometry.hpp"
#include "core/error.hpp"

namespace gf {

// What an item is priced per: a whole device, one port end of a cable (a transceiver), a metre of
// fibre, or one NVLink domain (its copper spine).
enum class PriceUnit { Each, Port, Metre, Domain };
const char* to_string(PriceUnit u);

struct PriceEntry {
  std::string item;  // "<category>/<name>": "switch/quantum2-qm9700", "transceiver/ib-ndr"
  PriceUnit unit = PriceUnit::Each;
  double usd = 0;              // per unit
  double typical_w = 0;        // per unit, as run in a training cluster
  double max_w = 0;            // per unit, the datasheet maximum (>= typical_w)
  bool includes_nics = false;  // server entries: the system price already holds its NICs
  std::string source;          // a URL, or text with the word "estimate"
  std::string date;            // YYYY-MM or YYYY-MM-DD: when the figure was true
  SourceLocation where;        // file:line it came from
};

// The categories a price file may name, each with the unit its entries must use.
struct PriceCategory {
  std::string name;  // "server", "nic", "switch", "nvlink-switch-tray", "nvlink-spine", "dac", ...
  PriceUnit unit;
  std::string what;  // one line for messages and docs
};
const std::vector<PriceCategory>& price_categories();

class PriceTable {
 public:
  // presets/prices/prices.yaml as compiled in.
  static PriceTable builtin();
  // Parses a price file: `items:` (item -> {unit, usd, typical_w, max_w, source, date[, includes_nics]})
  // and an optional `geometry:` block. Unknown items or keys, negative figures, a missing unit,
  // source or date: InputError at file:line:key. Entries replace those of `base` with the same item.
  static PriceTable parse(const std::string& text, const std::string& file, const PriceTable* base = nullptr);
  // Reads `path` and parses it over the built-in table.
  static PriceTable load_over_builtin(const std::string& path);

  const PriceEntry* find(const std::string& item) const;
  const std::map<std::string, PriceEntry>& entries() const { return entries_; }
  const GeometryOverrides& geometry() const { return geometry_; }
  // Where the table came from: "built-in" or "built-in + FILE".
  const std::string& origin() const { return origin_; }

 private:
  std::map<std::string, PriceEntry> entries_;  // ordered: deterministic output
  GeometryOverrides geometry_;
  std::string origin_ = "built-in";
};

}  // namespace gf
