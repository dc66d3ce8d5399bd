// The symbolic checker (algorithm_check.hpp) on hand-made schedules: it must accept correct ones
// and reject each kind of mistake, or the algorithm tests that rely on it prove nothing.
#include <gtest/gtest.h>

#include "algorithm_check.hpp"

using namespace gf;
using algocheck::call;

namespace {

// A 3-rank ring all-gather of S = 300 (blocks of 100): step 0 every rank sends its own block to the
// next, step 1 forwards the block it just received. `drop_dep`: step 1 forgets to wait;
// `drop_last`: rank 2's step-1 send is missing.
::testing::AssertionResult ring_all_gather(bool drop_dep, bool drop_last) {
  Schedule s("hand", 3, 1, Protocol::Simple);
  ChunkLog log;
  Emitter e(s, &log);
  TransferId into[3];
  for (Rank r = 0; r < 3; ++r)
    into[(r + 1) % 3] = e.add(make_transfer(r, (r + 1) % 3, Bytes(100), false, 0, 0), {}, {Chunk{r, kEveryRank, 0, Bytes(100)}});
  for (Rank r = 0; r < 3; ++r) {
    if (drop_last && r == 2) continue;
    const Rank from = (r + 2) % 3;  // the block r received at step 0
    Transfer t = make_transfer(r, (r + 1) % 3, Bytes(100), false, 0, 1);
    if (drop_dep) e.add(t, {}, {Chunk{from, kEveryRank, 0, Bytes(100)}});
    else e.add(t, {into[r]}, {Chunk{from, kEveryRank, 0, Bytes(100)}});
  }
  return algocheck::correct(s, log, call(CollectiveKind::AllGather, 300));
}

// A 2-rank all-reduce: rank 0 sends its buffer to rank 1, which adds it and sends the sum back.
// `back_reduces`: the way back adds instead of copying (rank 0 would count itself twice);
// `back_waits`: whether the way back waits for the way there.
::testing::AssertionResult pair_all_reduce(bool back_reduces, bool back_waits) {
  Schedule s("hand", 2, 1, Protocol::Simple);
  ChunkLog log;
  Emitter e(s, &log);
  const Chunk all{kEveryRank, kEveryRank, 0, Bytes(64)};
  TransferId there = e.add(make_transfer(0, 1, Bytes(64), true, 0, 0), {}, {all});
  Transfer back = make_transfer(1, 0, Bytes(64), back_reduces, 0, 1);
  if (back_waits) e.add(back, {there}, {all});
  else e.add(back, {}, {all});
  return algocheck::correct(s, log, call(CollectiveKind::AllReduce, 64));
}

}  // namespace

TEST(AlgorithmCheck, AcceptsACorrectRingAllGather) { EXPECT_TRUE(ring_all_gather(false, false)); }

TEST(AlgorithmCheck, RejectsForwardingDataNotYetReceived) {
  // Without the dependency, a step-1 send may leave before the block it forwards has arrived.
  auto r = ring_all_gather(true, false);
  EXPECT_FALSE(r);
  EXPECT_NE(std::string(r.message()).find("before its source holds"), std::string::npos) << r.message();
}

TEST(AlgorithmCheck, RejectsAMissingTransfer) {
  // Rank 0 never gets rank 1's block.
  auto r = ring_all_gather(false, true);
  EXPECT_FALSE(r);
  EXPECT_NE(std::string(r.message()).find("rank 0 ends with"), std::string::npos) << r.message();
}

TEST(AlgorithmCheck, AcceptsACorrectPairAllReduce) { EXPECT_TRUE(pair_all_reduce(false, true)); }

TEST(AlgorithmCheck, RejectsDoubleCounting) {
  // Rank 0 would end with its own input twice: [21].
  auto r = pair_all_reduce(true, true);
  EXPECT_FALSE(r);
  EXPECT_NE(std::string(r.message()).find("[21]"), std::string::npos) << r.message();
}

TEST(AlgorithmCheck, RejectsARace) {
  // Rank 1 sends its buffer back while rank 0's data may still be landing in it.
  auto r = pair_all_reduce(false, false);
  EXPECT_FALSE(r);
  EXPECT_NE(std::string(r.message()).find("unordered"), std::string::npos) << r.message();
}

TEST(AlgorithmCheck, RejectsChunksOfTheWrongCollectiveAndWrongSizes) {
  Schedule s("hand", 2, 1, Protocol::Simple);
  ChunkLog log;
  Emitter e(s, &log);
  // An all-gather chunk must have an owner.
  e.add(make_transfer(0, 1, Bytes(50), false, 0, 0), {}, {Chunk{kEveryRank, kEveryRank, 0, Bytes(50)}});
  EXPECT_FALSE(algocheck::correct(s, log, call(CollectiveKind::AllGather, 100)));
  Schedule s2("hand", 2, 1, Protocol::Simple);
  ChunkLog log2;
  Emitter e2(s2, &log2);
  // 60 bytes on the wire, but the chunk says 50.
  e2.add(make_transfer(0, 1, Bytes(60), false, 0, 0), {}, {Chunk{0, kEveryRank, 0, Bytes(50)}});
  auto r = algocheck::correct(s2, log2, call(CollectiveKind::AllGather, 100));
  EXPECT_FALSE(r);
  EXPECT_NE(std::string(r.message()).find("add up to 50"), std::string::npos) << r.message();
}

TEST(AlgorithmCheck, RejectsABufferNotFullyCovered) {
  // A correct-looking 2-rank all-reduce of only half of a 128-byte buffer.
  Schedule s("hand", 2, 1, Protocol::Simple);
  ChunkLog log;
  Emitter e(s, &log);
  const Chunk half{kEveryRank, kEveryRank, 0, Bytes(64)};
  TransferId there = e.add(make_transfer(0, 1, Bytes(64), true, 0, 0), {}, {half});
  e.add(make_transfer(1, 0, Bytes(64), false, 0, 1), {there}, {half});
  EXPECT_FALSE(algocheck::correct(s, log, call(CollectiveKind::AllReduce, 128)));
}

TEST(AlgorithmCheck, FollowsInSwitchReductionThroughGroups) {
  // NVLS-style all-reduce on 3 ranks: the switch sums slice p into rank p (group -> rank), rank p
  // multicasts it (rank -> group). Correct with the dependency; a race without it.
  for (bool wait : {true, false}) {
    Schedule s("hand", 3, 1, Protocol::Simple);
    ChunkLog log;
    Emitter e(s, &log);
    const int32_t G = group_endpoint(s.add_group({{0, 1, 2}, ReductionPoint::NvSwitch}));
    for (Rank p = 0; p < 3; ++p) {
      const Chunk slice{kEveryRank, kEveryRank, p, Bytes(10)};
      TransferId red = e.add(make_transfer(G, p, Bytes(10), false, 0, 0), {}, {slice});
      Transfer out = make_transfer(p, G, Bytes(10), false, 0, 1);
      if (wait) e.add(out, {red}, {slice});
      else e.add(out, {}, {slice});
    }
    EXPECT_EQ(static_cast<bool>(algocheck::correct(s, log, call(CollectiveKind::AllReduce, 30))), wait);
  }
}
