// `train --trace`: the step's timeline follows the Trace Event Format (slices never go back in
// time on a track, every arrow has both ends, pointing forward), and a 1F1B pipeline of 2 stages
// and 2 micro-batches shows the passes in the order and at the times derived by hand.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "config/presets.hpp"
#include "report/train_trace.hpp"

namespace gf {
namespace {

constexpr double kF = 1e-3, kB = 2e-3, kP2p = 0.5e-3;  // one pass's forward, backward; one send (s)

struct Traced {
  nlohmann::json file;
  size_t events = 0;
};

Traced two_stage_trace(bool overlap_pp, const std::vector<std::pair<int, int>>& ranks = {}) {
  static const Cluster cluster = build_cluster(resolve_cluster("dgx-h100", 1));
  TrainResult r;
  r.layout.pp = 2;
  r.layout.overlap_pp = overlap_pp;
  r.microbatches = 2;
  r.comm.push_back({"pp", "sendrecv", "p2p", 1e6, kP2p, 4, 4 * kP2p, 0, 2});
  TrainTimeline t;
  PipelineInput in;
  in.stages = 2;
  in.microbatches = 2;
  // A blocking send is part of its pass (train_step.cpp), so the pass lasts that much longer.
  const double send = overlap_pp ? 0 : kP2p;
  in.forward_s = {kF + send, kF + send};
  in.backward_s = {kB + send, kB + send};
  in.p2p_s = overlap_pp ? kP2p : 0;
  t.pipe = run_pipeline(in);
  t.p2p_s = kP2p;
  t.overlap_pp = overlap_pp;
  TimelinePass pass;
  pass.forward_compute_s = kF;
  pass.backward_compute_s = kB;
  pass.send_s = send;
  t.passes = {pass, pass};
  t.tails = {{}, {}};
  std::ostringstream out;
  Traced tr;
  tr.events = write_train_trace(out, cluster, r, t, ranks);
  tr.file = nlohmann::json::parse(out.str());
  return tr;
}

// Pass slices ("forward mb 0", ...) per stage, in file order.
std::map<int64_t, std::vector<nlohmann::json>> passes(const nlohmann::json& file) {
  std::map<int64_t, std::vector<nlohmann::json>> out;
  for (const auto& e : file["traceEvents"]) {
    if (e["ph"] != "X") continue;
    const std::string name = e["name"];
    if (name.rfind("forward mb", 0) == 0 || name.rfind("backward mb", 0) == 0) out[e["pid"].get<int64_t>()].push_back(e);
  }
  return out;
}

TEST(TraceTrain, OneFOneBOnTwoStagesRunsThePassesInTheOrderAndAtTheTimesDerivedByHand) {
  // 1F1B (Narayanan et al. 2021, 2.2.1), p = 2, m = 2, F = 1 ms, B = 2 ms, a send 0.5 ms beside
  // the passes. Stage 0 warms up with p - 0 - 1 = 1 forward, so runs F0 F1 B0 B1; stage 1 none, so
  // F0 B0 F1 B1. A pass starts when its stage is free and its input has arrived:
  //   stage 0: F0 0-1, F1 1-2;   stage 1: F0 1.5-2.5 (F0 of stage 0 ended 1, + 0.5), B0 2.5-4.5,
  //   F1 4.5-5.5 (input at 2.5, stage busy until 4.5), B1 5.5-7.5;
  //   stage 0: B0 at 4.5 + 0.5 = 5 (to 7), B1 at 7.5 + 0.5 = 8 (to 10).
  // The bubble is the gaps: stage 0 idle 2-5 and 7-8, stage 1 idle 0-1.5.
  const Traced t = two_stage_trace(true);
  const auto by_stage = passes(t.file);
  ASSERT_EQ(by_stage.size(), 2u);
  const std::vector<std::pair<std::string, double>> want0 = {
      {"forward mb 0", 0}, {"forward mb 1", 1}, {"backward mb 0", 5}, {"backward mb 1", 8}};
  const std::vector<std::pair<std::string, double>> want1 = {
      {"forward mb 0", 1.5}, {"backward mb 0", 2.5}, {"forward mb 1", 4.5}, {"backward mb 1", 5.5}};
  for (const auto& [stage, want] : {std::pair{int64_t{0}, want0}, std::pair{int64_t{1}, want1}}) {
    const auto& got = by_stage.at(stage);
    ASSERT_EQ(got.size(), want.size()) << stage;
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(got[i]["name"], want[i].first) << stage << " " << i;
      EXPECT_NEAR(got[i]["ts"].get<double>(), want[i].second * 1e3, 1e-6) << stage << " " << i;  // ms -> us
      const bool fwd = want[i].first[0] == 'f';
      EXPECT_NEAR(got[i]["dur"].get<double>(), (fwd ? kF : kB) * 1e6, 1e-6);
    }
  }
  // One arrow per send between the shown ranks (rank 0 on stage 0, rank 1 on stage 1): two
  // activations forward, two gradients back; stage 0's F0 send lands on stage 1's F0 at 1.5 ms.
  std::map<uint64_t, nlohmann::json> from, to;
  for (const auto& e : t.file["traceEvents"]) {
    if (e["ph"] == "s") from[e["id"].get<uint64_t>()] = e;
    if (e["ph"] == "f") to[e["id"].get<uint64_t>()] = e;
  }
  ASSERT_EQ(from.size(), 4u);
  ASSERT_EQ(to.size(), 4u);
  bool f0 = false;
  for (const auto& [id, s] : from)
    if (s["pid"] == 0 && std::abs(s["ts"].get<double>() - 1e3) < 1e-6) {
      f0 = true;
      EXPECT_EQ(to[id]["pid"], 1);
      EXPECT_NEAR(to[id]["ts"].get<double>(), 1.5e3, 1e-6);
    }
  EXPECT_TRUE(f0);
}

TEST(TraceTrain, ABlockingSendIsTheLastPartOfItsPass) {
  // Without pp in --overlap the send holds its stage: F0 on stage 0 is 1 ms of compute then the
  // 0.5 ms send (1-1.5 ms), and stage 1's F0 starts when that send ends, at 1.5 ms.
  const Traced t = two_stage_trace(false);
  bool send = false;
  for (const auto& e : t.file["traceEvents"])
    if (e["ph"] == "X" && e["pid"] == 0 && e["name"] == "PP send activation mb 0 -> stage 1") {
      send = true;
      EXPECT_NEAR(e["ts"].get<double>(), 1e3, 1e-6);
      EXPECT_NEAR(e["dur"].get<double>(), 0.5e3, 1e-6);
    }
  EXPECT_TRUE(send);
  EXPECT_NEAR(passes(t.file).at(1)[0]["ts"].get<double>(), 1.5e3, 1e-6);
}

TEST(TraceTrain, FollowsTheTraceEventFormat) {
  for (bool overlap : {true, false}) {
    const Traced t = two_stage_trace(overlap);
    EXPECT_EQ(t.events, t.file["traceEvents"].size());
    std::map<std::pair<int64_t, int64_t>, double> last;  // per track, the latest timestamp
    std::map<uint64_t, double> starts, finishes;
    for (const auto& e : t.file["traceEvents"]) {
      const std::string ph = e["ph"];
      ASSERT_TRUE(ph == "X" || ph == "M" || ph == "s" || ph == "f") << ph;
      if (ph == "M") continue;
      const auto track = std::pair{e["pid"].get<int64_t>(), e["tid"].get<int64_t>()};
      const double ts = e["ts"].get<double>();
      if (last.count(track)) {
        EXPECT_GE(ts, last[track]) << e.dump();  // never back in time on a track
      }
      last[track] = ts;
      if (ph == "X") {
        EXPECT_GT(e["dur"].get<double>(), 0) << e.dump();
      }
      if (ph == "s") starts[e["id"].get<uint64_t>()] = ts;
      if (ph == "f") finishes[e["id"].get<uint64_t>()] = ts;
    }
    ASSERT_EQ(starts.size(), finishes.size());
    for (const auto& [id, ts] : starts) {
      ASSERT_TRUE(finishes.count(id)) << id;
      EXPECT_LE(ts, finishes[id] + 1e-9);
    }
  }
}

TEST(TraceTrain, RanksShownAreTheOnesAsked) {
  // Only rank 1 (stage 1): no stage-0 process, no arrows (their senders are not shown).
  const Traced t = two_stage_trace(true, {{1, 1}});
  for (const auto& e : t.file["traceEvents"]) {
    EXPECT_EQ(e["pid"], 1) << e.dump();
    EXPECT_NE(e["ph"], "s");
  }
}

}  // namespace
}  // namespace gf
