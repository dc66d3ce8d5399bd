// `gpufabric design`: the grid of designs, the refused ones with their reason, the budget, the
// ranking and the Pareto front of cost against busbw.
#include <gtest/gtest.h>

#include <set>

#include "bom/design.hpp"

namespace {

gf::DesignQuery small_query() {
  gf::DesignQuery q;
  q.gpus = 256;  // 32 DGX H100: one SuperPOD scalable unit
  q.server = "dgx-h100";
  q.kinds = {"rail_optimized", "fat_tree"};
  q.links = {"ib-ndr", "roce-400g"};
  q.oversubscription = {1, 2};
  q.sweep.call.kind = gf::CollectiveKind::AllReduce;
  q.sweep.min_bytes = q.sweep.max_bytes = gf::Bytes(int64_t{1} << 30);
  q.sweep.model = "analytical";
  return q;
}

bool dominates(const gf::DesignCandidate& a, const gf::DesignCandidate& b) {
  const double ca = a.figures->bom.totals().usd, cb = b.figures->bom.totals().usd;
  const double ba = a.figures->perf->busbw_gBps, bb = b.figures->perf->busbw_gBps;
  return ca <= cb && ba >= bb && (ca < cb || ba > bb);
}

TEST(BomDesign, TheFrontHoldsExactlyTheUndominatedDesigns) {
  const auto cands = gf::search_designs(small_query(), gf::PriceTable::builtin());
  ASSERT_EQ(cands.size(), 2u * 2 * 2);  // kinds x links x oversubscriptions x 1 plane count
  std::set<std::string> labels;
  int on_front = 0;
  for (const auto& c : cands) {
    labels.insert(c.label);
    ASSERT_TRUE(c.figures.has_value()) << c.label << ": " << c.refused;
    EXPECT_EQ(c.figures->gpus, 256);
    bool dominated = false;
    for (const auto& o : cands) dominated |= &o != &c && dominates(o, c);
    EXPECT_EQ(c.pareto, !dominated) << c.label;
    on_front += c.pareto;
  }
  EXPECT_EQ(labels.size(), cands.size());
  EXPECT_GE(on_front, 1);
  // Ranked best first by busbw per dollar.
  for (size_t i = 1; i < cands.size(); ++i)
    EXPECT_GE(cands[i - 1].figures->busbw_per_musd(), cands[i].figures->busbw_per_musd());
}

TEST(BomDesign, ABudgetBelowEveryDesignLeavesNoFront) {
  gf::DesignQuery q = small_query();
  q.links = {"ib-ndr"};
  q.oversubscription = {1};
  q.budget_usd = 1e6;  // 32 DGX H100 alone cost more than $1M at any price in the table
  for (const auto& c : gf::search_designs(q, gf::PriceTable::builtin())) {
    EXPECT_TRUE(c.over_budget) << c.label;
    EXPECT_FALSE(c.pareto) << c.label;
  }
}

TEST(BomDesign, ADesignTheRadixCannotBuildIsRefusedWithItsReason) {
  // A 2-tier leaf-spine of 64-port switches holds at most 64 leaves x 32 down ports = 2,048 NICs;
  // 4,096 GPUs of DGX H100 have 4,096.
  gf::DesignQuery q = small_query();
  q.gpus = 4096;
  q.kinds = {"leaf_spine"};
  q.links = {"ib-ndr"};
  q.oversubscription = {1};
  const auto cands = gf::search_designs(q, gf::PriceTable::builtin());
  ASSERT_EQ(cands.size(), 1u);
  EXPECT_FALSE(cands[0].figures.has_value());
  EXPECT_NE(cands[0].refused.find("64"), std::string::npos) << cands[0].refused;
}

TEST(BomDesign, BadQueriesAreInputErrors) {
  const gf::PriceTable t = gf::PriceTable::builtin();
  gf::DesignQuery q = small_query();
  q.objective = "cheapest";
  EXPECT_THROW(gf::search_designs(q, t), gf::InputError);
  q = small_query();
  q.server = "dgx-h1000";
  EXPECT_THROW(gf::search_designs(q, t), gf::InputError);
  q = small_query();
  q.kinds = {"fat_tre"};
  EXPECT_THROW(gf::search_designs(q, t), gf::InputError);
  q = small_query();
  q.links = {"ib-nrd"};
  EXPECT_THROW(gf::search_designs(q, t), gf::InputError);
  q = small_query();
  q.gpus = 0;
  EXPECT_THROW(gf::search_designs(q, t), gf::InputError);
}

}  // namespace

namespace {

TEST(BomDesign, TheLeadersRunAgainOnTheFlowModel) {
  gf::DesignQuery q = small_query();
  q.links = {"ib-ndr"};
  q.flow_top = 2;
  const auto cands = gf::search_designs(q, gf::PriceTable::builtin());
  ASSERT_EQ(cands.size(), 4u);
  for (size_t i = 0; i < cands.size(); ++i) {
    EXPECT_EQ(cands[i].flow.has_value(), i < 2) << cands[i].label;
    if (cands[i].flow) {
      EXPECT_GT(cands[i].flow->busbw_gBps, 0) << cands[i].label;
    }
  }
  q.flow_top = -1;
  EXPECT_THROW(gf::search_designs(q, gf::PriceTable::builtin()), gf::InputError);
}

}  // namespace
