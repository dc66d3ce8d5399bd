// The price table: every built-in line has a source (a URL or "estimate") and a date, a user's
// file replaces lines item by item, and bad files fail at file:line:key.
#include <gtest/gtest.h>

#include <string>

#include "bom/bom.hpp"
#include "bom/price_table.hpp"
#include "config/presets.hpp"

namespace {

gf::InputError parse_error(const std::string& text) {
  const gf::PriceTable base = gf::PriceTable::builtin();
  try {
    gf::PriceTable::parse(text, "mine.yaml", &base);
  } catch (const gf::InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return gf::InputError({}, "", "");
}

TEST(BomPrices, EveryBuiltinLineHasASourceAndADate) {
  const gf::PriceTable t = gf::PriceTable::builtin();
  ASSERT_GE(t.entries().size(), 30u);
  for (const auto& [item, e] : t.entries()) {
    const bool url = e.source.find("http") != std::string::npos,
               estimate = e.source.find("estimate") != std::string::npos;
    EXPECT_TRUE(url || estimate) << item;
    EXPECT_EQ(e.date.size() >= 7, true) << item;
    EXPECT_GT(e.where.line, 0) << item;
    EXPECT_LE(e.typical_w, e.max_w) << item;
  }
}

TEST(BomPrices, TheBuiltInTablePricesTheDoneMeansPresets) {
  // The "done means": bom of the SuperPOD and an IB/RoCE comparison, all lines priced.
  for (const char* p : {"dgx-h100-superpod", "dgx-h100-superpod-su", "gb200-nvl72-cluster", "xai-colossus"}) {
    gf::Bom b = gf::make_bom(gf::resolve_cluster(p, gf::ClusterOverrides{}), gf::PriceTable::builtin());
    EXPECT_TRUE(b.unpriced.empty()) << p << ": " << (b.unpriced.empty() ? "" : b.unpriced.front());
  }
}

TEST(BomPrices, AUserLineReplacesTheBuiltInOne) {
  const gf::PriceTable base = gf::PriceTable::builtin();
  const gf::PriceTable t = gf::PriceTable::parse(
      "items:\n  switch/quantum2-qm9700: {unit: each, usd: 12345, typical_w: 1, max_w: 2, source: my quote estimate, "
      "date: 2026-11-01}\ngeometry:\n  servers_per_rack: 2\n",
      "mine.yaml", &base);
  EXPECT_EQ(t.find("switch/quantum2-qm9700")->usd, 12345);
  EXPECT_EQ(t.find("switch/quantum2-qm9700")->where.file, "mine.yaml");
  EXPECT_EQ(t.find("server/dgx-h100")->usd, base.find("server/dgx-h100")->usd);
  EXPECT_EQ(t.entries().size(), base.entries().size());
  // 32 DGX at 2 per rack: 16 racks in 2 rows of 8.
  gf::Bom b = gf::make_bom(gf::resolve_cluster("dgx-h100-superpod-su", gf::ClusterOverrides{}), t);
  EXPECT_EQ(b.racks, 16);
  EXPECT_EQ(b.rows, 2);
}

TEST(BomPrices, BadFilesNameFileLineAndKey) {
  struct Case {
    std::string text, key, words;
    int line;
  };
  const std::string ok = "unit: each, usd: 1, typical_w: 1, max_w: 1, source: estimate, date: 2026-11";
  const Case cases[] = {
      {"items:\n  switch/quantum9: {" + ok + "}\n", "items.switch/quantum9", "unknown item", 2},
      {"items:\n  widget/x: {" + ok + "}\n", "items.widget/x", "unknown item category", 2},
      {"items:\n  quantum2-qm9700: {" + ok + "}\n", "items.quantum2-qm9700", "unknown item", 2},
      {"items:\n  nic/ib-ndr: {unit: each, usd: -5, typical_w: 1, max_w: 1, source: estimate, date: 2026-11}\n",
       "items.nic/ib-ndr.usd", "negative", 2},
      {"items:\n\n  nic/ib-ndr: {usd: 5, typical_w: 1, max_w: 1, source: estimate, date: 2026-11}\n",
       "items.nic/ib-ndr.unit", "missing", 3},
      {"items:\n  fibre/ib-ndr: {" + ok + "}\n", "items.fibre/ib-ndr.unit", "per m", 2},
      {"items:\n  nic/ib-ndr: {unit: each, usd: 5, typical_w: 1, max_w: 1, source: my guess, date: 2026-11}\n",
       "items.nic/ib-ndr.source", "estimate", 2},
      {"items:\n  nic/ib-ndr: {unit: each, usd: 5, typical_w: 1, max_w: 1, source: estimate}\n",
       "items.nic/ib-ndr.date", "missing", 2},
      {"items:\n  nic/ib-ndr: {unit: each, usd: 5, typical_w: 9, max_w: 1, source: estimate, date: 2026-11}\n",
       "items.nic/ib-ndr.max_w", "below", 2},
      {"items:\n  nic/ib-ndr: {unit: each, usd: 5k, typical_w: 1, max_w: 1, source: estimate, date: 2026-11}\n",
       "items.nic/ib-ndr.usd", "plain number", 2},
      {"geometry:\n  servers_per_rak: 4\n", "geometry.servers_per_rak", "unknown key", 2},
      {"geometry:\n  slack_m: -1\n", "geometry.slack_m", "negative", 2},
  };
  for (const auto& c : cases) {
    gf::InputError e = parse_error(c.text);
    EXPECT_EQ(e.where().file, "mine.yaml") << c.text;
    EXPECT_EQ(e.where().line, c.line) << c.text;
    EXPECT_EQ(e.key(), c.key) << c.text;
    EXPECT_NE(std::string(e.message()).find(c.words), std::string::npos) << c.text << " -> " << e.message();
  }
}

}  // namespace
