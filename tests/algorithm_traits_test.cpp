// What every algorithm declares about itself (collective/algorithm.hpp): its traits are complete,
// its refusals agree with the collectives it declares, and the latencies a schedule is charged
// are NCCL's published constants (tuning.cc, ../shared/validation/README.md sections 1-2).
#include <gtest/gtest.h>

#include <cmath>
#include <type_traits>

#include "algorithm_check.hpp"

using namespace gf;

// A trait with no sensible default cannot be left out: it does not compile.
static_assert(!std::is_default_constructible_v<NcclLatencies>);
static_assert(!std::is_default_constructible_v<ProtocolSet>);
static_assert(!std::is_default_constructible_v<AutoChoice>);

namespace {

// An algorithm whose traits a test fills in, to see the registry's check refuse them.
class Partial final : public Algorithm {
 public:
  explicit Partial(AlgorithmTraits t) : t_(std::move(t)) {}
  const AlgorithmTraits& traits() const override { return t_; }
  std::string unsupported(const Communicator&, CollectiveKind) const override { return ""; }
  Schedule build(const Communicator&, const CollectiveCall&, const AlgorithmOptions&) const override {
    return Schedule("partial", 2, 1, Protocol::Simple);
  }
  int channels(const Communicator&) const override { return 1; }
  std::optional<Time> estimate(const EstimateInput&, Protocol, int) const override { return std::nullopt; }
  int64_t step_transfers(const Communicator&, const CollectiveCall&, int) const override { return kNoSteadyForm; }

 private:
  AlgorithmTraits t_;
};

AlgorithmTraits complete() {
  return {"partial", "a test algorithm", "this test", {CollectiveKind::AllReduce}, ProtocolSet{Protocol::Simple},
          NcclLatencies{{1, 1, 1}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, false}, AutoChoice::never(), InNetwork::None};
}

}  // namespace

TEST(AlgorithmTraits, EveryRegisteredAlgorithmIsComplete) {
  for (const auto& a : algorithm_registry()) EXPECT_EQ(traits_problem(*a), "") << a->name();
}

TEST(AlgorithmTraits, TheCheckNamesWhatIsMissing) {
  EXPECT_EQ(traits_problem(Partial(complete())), "");
  AlgorithmTraits t = complete();
  t.description.clear();
  EXPECT_EQ(traits_problem(Partial(t)), "algorithm 'partial': no description");
  t = complete();
  t.collectives.clear();
  EXPECT_EQ(traits_problem(Partial(t)), "algorithm 'partial': implements no collective");
  t = complete();
  t.latency.hw_us[2][1] = std::nan("");  // NET, LL128
  EXPECT_EQ(traits_problem(Partial(t)), "algorithm 'partial': latency for protocol LL128 is not a finite figure >= 0");
}

TEST(AlgorithmTraits, RefusalsAgreeWithTheDeclaredCollectives) {
  const CollectiveKind kinds[] = {CollectiveKind::AllReduce, CollectiveKind::AllGather, CollectiveKind::ReduceScatter,
                                  CollectiveKind::Broadcast, CollectiveKind::Reduce,    CollectiveKind::AllToAll,
                                  CollectiveKind::SendRecv};
  auto env = algocheck::setup("dgx-h100", 2, 8);
  for (const auto& a : algorithm_registry())
    for (CollectiveKind k : kinds) {
      if (a->traits().implements(k)) continue;
      EXPECT_NE(a->unsupported(env->comm, k), "") << a->name() << " " << to_string(k);
    }
  // Ring runs every collective it declares on two H100 servers.
  for (CollectiveKind k : find_algorithm("ring")->traits().collectives)
    EXPECT_EQ(find_algorithm("ring")->unsupported(env->comm, k), "") << to_string(k);
}

TEST(AlgorithmTraits, SchedulesAreChargedNcclsLatencies) {
  // Ring, Simple (tuning.cc): base 8.4 us; per step NVLink 3.4, PCI 5.7, NET 14.0 us.
  Schedule ring("ring", 2, 1, Protocol::Simple);
  find_algorithm("ring")->apply_latencies(ring, Protocol::Simple);
  EXPECT_EQ(ring.base_latency(), Time::us(8.4));
  EXPECT_EQ(ring.step_latency()[0], Time::us(3.4));
  EXPECT_EQ(ring.step_latency()[1], Time::us(5.7));
  EXPECT_EQ(ring.step_latency()[2], Time::us(14.0));
  // NVLS, Simple: base 0 and NVLink 25 us charged once per call, so the base is 0 + 25 us and an
  // NVLink step costs only its wire time; NET 18 us per step.
  Schedule nvls("nvls", 2, 1, Protocol::Simple);
  find_algorithm("nvls")->apply_latencies(nvls, Protocol::Simple);
  EXPECT_EQ(nvls.base_latency(), Time::us(25.0));
  EXPECT_EQ(nvls.step_latency()[0], Time::zero());
  EXPECT_EQ(nvls.step_latency()[2], Time::us(18.0));
  // Tree, LL: base 6.8 us; NET 5.0 us per step.
  Schedule tree("tree", 2, 1, Protocol::LL);
  find_algorithm("tree")->apply_latencies(tree, Protocol::LL);
  EXPECT_EQ(tree.base_latency(), Time::us(6.8));
  EXPECT_EQ(tree.step_latency()[2], Time::us(5.0));
}

TEST(AlgorithmTraits, AutoTieOrderPutsInSwitchReductionFirst) {
  std::vector<std::pair<int, std::string>> ranked;
  for (const auto& a : algorithm_registry())
    if (a->traits().automatic.allowed()) ranked.emplace_back(a->traits().automatic.rank(), a->name());
  std::sort(ranked.begin(), ranked.end());
  std::vector<std::string> order;
  for (const auto& [r, name] : ranked) order.push_back(name);
  ASSERT_GE(order.size(), 6u);
  const std::vector<std::string> first = {"nvls", "nvlstree", "collnet_direct", "collnet_chain", "ring", "tree"};
  EXPECT_EQ(std::vector<std::string>(order.begin(), order.begin() + 6), first);
}
