// Every registered algorithm, on every collective, on a spread of communicators: either it says
// in words why it cannot run, or it builds a schedule the symbolic checker proves correct
// (algorithm_check.hpp). The per-algorithm files check the closed forms.
#include <gtest/gtest.h>

#include <set>

#include "algorithm_check.hpp"

using namespace gf;
using algocheck::call;
using algocheck::channels;

namespace {

struct Shape {
  const char* server;
  int nodes, ppn;
};

// Power-of-two and odd rank, node and per-node counts; NVSwitch with and without in-switch
// reduction (H100 / A100), PCIe only, and a fabric without SHARP (AWS EFA).
const Shape kShapes[] = {{"dgx-h100", 1, 8}, {"dgx-h100", 2, 8}, {"dgx-h100", 3, 4}, {"dgx-h100", 4, 2},
                         {"dgx-h100", 5, 1}, {"dgx-h100", 8, 1}, {"dgx-h100", 1, 3}, {"dgx-a100", 2, 4},
                         {"pcie-8gpu", 1, 8}, {"aws-p5", 2, 8}};

const CollectiveKind kKinds[] = {CollectiveKind::AllReduce, CollectiveKind::AllGather, CollectiveKind::ReduceScatter,
                                 CollectiveKind::Broadcast, CollectiveKind::Reduce,    CollectiveKind::AllToAll,
                                 CollectiveKind::SendRecv};

}  // namespace

TEST(AlgorithmRegistry, NamesDescriptionsAndSources) {
  // NCCL's algorithms first, with their NCCL_ALGO spellings, in NCCL's order; then ours (any, so
  // adding one needs no edit here); names unique.
  const std::vector<std::string> nccl = {"ring", "tree", "nvls", "nvlstree", "collnet_direct", "collnet_chain", "pat"};
  const std::vector<std::string> names = algorithm_names();
  ASSERT_GE(names.size(), nccl.size());
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + static_cast<long>(nccl.size())), nccl);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  for (const auto& a : algorithm_registry()) {
    EXPECT_FALSE(a->description().empty()) << a->name();
    EXPECT_FALSE(a->source().empty()) << a->name();
  }
  EXPECT_EQ(find_algorithm("nope"), nullptr);
}

TEST(AlgorithmRegistry, EverySupportedCombinationIsACorrectCollective) {
  int built = 0;
  std::set<std::string> ran;  // algorithm names that built at least once
  for (const Shape& sh : kShapes) {
    auto env = algocheck::setup(sh.server, sh.nodes, sh.ppn);
    const int n = env->comm.nranks;
    for (const auto& a : algorithm_registry())
      for (CollectiveKind k : kKinds) {
        std::string why = a->unsupported(env->comm, k);
        if (!why.empty()) continue;
        ran.insert(a->name());
        // An even size, and one that splits unevenly over ranks and 3 channels.
        for (auto [bytes, C] : {std::pair<int64_t, int>{int64_t{1} << 16, 1}, {4007 * int64_t{n}, 3}}) {
          const int root = n > 2 ? n - 2 : 0;
          EXPECT_TRUE(algocheck::correct(*a, env->comm, call(k, bytes, root), channels(C)))
              << a->name() << " " << to_string(k) << " on " << sh.server << " " << sh.nodes << "x" << sh.ppn << ", "
              << bytes << " bytes, " << C << " channels";
          ++built;
        }
      }
  }
  // Every algorithm ran somewhere in this spread.
  EXPECT_EQ(ran.size(), algorithm_registry().size());
  EXPECT_GT(built, 100);
}

TEST(AlgorithmRegistry, RefusalsSayWhyAndWhatToDo) {
  // One example per kind of refusal; each reason names the missing capability.
  auto pcie = algocheck::setup("pcie-8gpu", 1, 8);
  auto a100 = algocheck::setup("dgx-a100", 2, 8);
  auto h100x1 = algocheck::setup("dgx-h100", 1, 8);
  auto h100x2 = algocheck::setup("dgx-h100", 2, 8);
  auto efa = algocheck::setup("aws-p5", 2, 8);
  auto has = [](const std::string& why, const std::string& part) {
    return why.find(part) != std::string::npos ? ::testing::AssertionSuccess()
                                               : ::testing::AssertionFailure() << "'" << why << "' lacks '" << part << "'";
  };
  const Algorithm& nvls = algocheck::algo("nvls");
  EXPECT_TRUE(has(nvls.unsupported(pcie->comm, CollectiveKind::AllReduce), "joined by PCIe"));
  EXPECT_TRUE(has(nvls.unsupported(a100->comm, CollectiveKind::AllReduce), "do not reduce (ampere"));
  EXPECT_TRUE(has(nvls.unsupported(h100x2->comm, CollectiveKind::AllReduce), "use nvlstree"));
  EXPECT_TRUE(has(nvls.unsupported(h100x1->comm, CollectiveKind::AllToAll), "not alltoall"));
  EXPECT_TRUE(has(algocheck::algo("nvlstree").unsupported(h100x1->comm, CollectiveKind::AllReduce), "use nvls"));
  EXPECT_TRUE(has(algocheck::algo("pat").unsupported(h100x2->comm, CollectiveKind::AllGather),
                  "one GPU per node; this communicator has 8 per node"));
  EXPECT_TRUE(has(algocheck::algo("collnet_chain").unsupported(efa->comm, CollectiveKind::AllReduce),
                  "switches do not reduce"));
  EXPECT_TRUE(has(algocheck::algo("collnet_direct").unsupported(h100x1->comm, CollectiveKind::AllReduce), "one server"));
  EXPECT_TRUE(has(algocheck::algo("tree").unsupported(h100x2->comm, CollectiveKind::AllGather), "use ring"));
  auto twelve = algocheck::setup("dgx-h100", 3, 4);
  EXPECT_TRUE(has(algocheck::algo("rhd").unsupported(twelve->comm, CollectiveKind::ReduceScatter), "power-of-two"));
  EXPECT_EQ(algocheck::algo("rhd").unsupported(twelve->comm, CollectiveKind::AllReduce), "");
}

TEST(AlgorithmRegistry, BuildWithChunksMatchesBuild) {
  // The chunk log is bookkeeping only: logging must not change the schedule.
  auto env = algocheck::setup("dgx-h100", 2, 8);
  for (const auto& a : algorithm_registry())
    for (CollectiveKind k : kKinds) {
      if (!a->unsupported(env->comm, k).empty()) continue;
      Schedule plain = a->build(env->comm, call(k, 1 << 16), channels(2));
      ChunkLog log;
      Schedule logged = build_with_chunks(*a, env->comm, call(k, 1 << 16), channels(2), log);
      ASSERT_EQ(plain.size(), logged.size()) << a->name();
      EXPECT_EQ(log.size(), logged.size());
      for (size_t i = 0; i < plain.size(); ++i) {
        const Transfer &x = plain.transfer(static_cast<TransferId>(i)), &y = logged.transfer(static_cast<TransferId>(i));
        EXPECT_TRUE(x.src == y.src && x.dst == y.dst && x.bytes == y.bytes && x.reduce == y.reduce) << a->name() << " " << i;
      }
      EXPECT_EQ(plain.algorithm(), a->name());
      EXPECT_EQ(plain.channels(), 2);
    }
}
