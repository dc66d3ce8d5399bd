// The note naming a faster option: the sweep simulates every option NCCL could have taken and
// names the fastest when NCCL's choice takes more than 10 % longer in the simulation.
#include <gtest/gtest.h>

#include "config/presets.hpp"
#include "engine/executor.hpp"
#include "model/model_factory.hpp"
#include "nccl/faster_choice.hpp"
#include "workload/sweep.hpp"

using namespace gf;

namespace {

struct Fixture {
  Cluster cluster;
  Router router;
  Communicator comm;
  Fixture()
      : cluster(build_cluster(resolve_cluster("dgx-h100-2node"))),
        router(cluster),
        comm(make_communicator(cluster, router, 2, 8)) {}
};

}  // namespace

TEST(NcclFasterChoice, NoteNamesNcclsSpellingAndTheSaving) {
  EXPECT_EQ(faster_choice_note({"tree", Protocol::LL, Time::us(70), 0.3}),
            "tree/LL takes 30% less time here in this simulation than NCCL's choice (NCCL_ALGO=Tree NCCL_PROTO=LL to "
            "force it)");
  // An algorithm NCCL lacks is forced with gpufabric's own flags.
  EXPECT_NE(faster_choice_note({"direct", Protocol::Simple, Time::us(1), 0.5}).find("--algo direct --proto simple"),
            std::string::npos);
}

// Each row's note against the test's own run of every option: a note exactly where the chosen
// time exceeds the fastest other option's by more than 10 %, naming that option.
TEST(NcclFasterChoice, SweepNotesTheFastestOptionWhenTheChoiceIsMoreThanTenPercentSlower) {
  Fixture s;
  SweepOptions o;
  o.call.kind = CollectiveKind::AllReduce;
  o.min_bytes = Bytes(64 << 10);
  o.max_bytes = Bytes(64 << 20);
  o.factor = 4;
  o.compare_choices = true;
  int noted = 0;
  for (const SweepRow& r : run_sweep(s.comm, s.router, o)) {
    CollectiveCall c = o.call;
    c.bytes = r.size;
    Time best = Time::infinity();
    std::string best_name;
    for (const TunerOption& opt : tuner_options(s.comm, c, nccl_settings("auto", "auto")))
      for (Protocol p : opt.protocols) {
        if (opt.algorithm == r.choice.algorithm && p == r.choice.proto) continue;
        std::unique_ptr<Model> m = make_model("flow", s.cluster);
        Time t = run_schedule(find_algorithm(opt.algorithm)->build(s.comm, c, {p, opt.channels}), s.comm, s.router, *m,
                              0, RoutingPolicy::Ecmp)
                     .duration;
        if (t < best) best = t, best_name = opt.algorithm + "/" + to_string(p);
      }
    const bool slower = r.time.to_s() > 1.1 * best.to_s();
    EXPECT_EQ(r.choice.note.find(best_name + " takes") != std::string::npos, slower) << r.size.count() << " B";
    noted += slower;
  }
  // The check must see both outcomes to mean anything on this sweep.
  EXPECT_GT(noted, 0);
}

TEST(NcclFasterChoice, AForcedChoiceHasNoAlternative) {
  Fixture s;
  CollectiveCall c;
  c.kind = CollectiveKind::AllReduce;
  c.bytes = Bytes(2 << 20);
  NcclSettings settings = nccl_settings("ring", "ll");
  TunerChoice t = choose(s.comm, s.router, c, settings);
  EXPECT_FALSE(faster_choice(s.comm, s.router, c, settings, t, Time::us(1e6), "flow", 0, RoutingPolicy::Ecmp));
}
