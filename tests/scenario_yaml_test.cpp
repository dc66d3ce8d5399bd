// Scenario files: the schema parses, and every bad input named in the scenario issue (GPUs that do
// not exist, jobs overlapping on a GPU, a start in the past, an empty job) is an InputError naming
// file:line and the key, with a fix.
#include <gtest/gtest.h>

#include <string>

#include "workload/scenario_yaml.hpp"
#include "workload/scenario.hpp"

using namespace gf;

namespace {

// The InputError a scenario raises, parsing and (when parsing passes) running it.
InputError error_of(const std::string& text) {
  try {
    ScenarioSpec s = parse_scenario_yaml(text, "bad.yaml");
    run_scenario(s);
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return InputError({}, "", "");
}

const char* kGood = R"(name: two
cluster: dgx-h100-2node
model: analytical
seed: 3
jobs:
  - name: a
    servers: 0
    gpus_per_server: 4
    start: 5us
    repeat: 2
    gap: 1us
    calls:
      - {collective: all_reduce, size: 1M, dtype: bfloat16}
      - {collective: all_gather, size: 64K, algo: ring, proto: simple, gap: 2us}
  - name: b
    gpus: [12, 13, 14, 15]
    calls:
      - {collective: broadcast, size: 8K, root: 3}
)";

}  // namespace

TEST(ScenarioYaml, ParsesEveryField) {
  ScenarioSpec s = parse_scenario_yaml(kGood, "good.yaml");
  EXPECT_EQ(s.cluster, "dgx-h100-2node");
  EXPECT_EQ(s.model, "analytical");
  EXPECT_EQ(s.routing, "ecmp");  // the default
  EXPECT_EQ(s.seed, 3u);
  ASSERT_EQ(s.jobs.size(), 2u);
  const JobSpec& a = s.jobs[0];
  EXPECT_EQ(a.servers, std::vector<int64_t>{0});
  EXPECT_EQ(a.gpus_per_server, 4);
  EXPECT_EQ(a.start, Time::us(5));
  EXPECT_EQ(a.repeat, 2);
  ASSERT_EQ(a.calls.size(), 2u);
  EXPECT_EQ(a.calls[0].size, Bytes::mib(1));
  EXPECT_EQ(a.calls[0].gap, Time::us(1));  // the job's gap
  EXPECT_EQ(a.calls[1].gap, Time::us(2));  // the call's own
  EXPECT_EQ(a.calls[1].algo, "ring");
  EXPECT_EQ(s.jobs[1].gpus, (std::vector<int64_t>{12, 13, 14, 15}));
  EXPECT_EQ(s.jobs[1].calls[0].places.at("root").line, 18);  // the broadcast call is the 18th line of kGood
}

TEST(ScenarioYaml, RangesListAndCombine) {
  ScenarioSpec s = parse_scenario_yaml(
      "cluster: dgx-h100-2node\njobs:\n  - {servers: \"0-1\", calls: [{collective: all_reduce, size: 1M}]}\n"
      "  - {gpus: \"0-2,5\", calls: [{collective: all_reduce, size: 1M}]}\n"
      "  - {gpus: [\"8-9\", 11], calls: [{collective: all_reduce, size: 1M}]}\n",
      "r.yaml");
  EXPECT_EQ(s.jobs[0].servers, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(s.jobs[1].gpus, (std::vector<int64_t>{0, 1, 2, 5}));
  EXPECT_EQ(s.jobs[2].gpus, (std::vector<int64_t>{8, 9, 11}));
  EXPECT_EQ(s.jobs[0].name, "job0");  // unnamed jobs are numbered
}

TEST(ScenarioYaml, UnknownKeySuggests) {
  InputError e = error_of("cluster: dgx-h100-2node\njobs:\n  - servers: 0\n    repaet: 2\n    calls: [{collective: all_reduce, size: 1M}]\n");
  EXPECT_EQ(e.where().file, "bad.yaml");
  EXPECT_EQ(e.where().line, 4);
  EXPECT_EQ(e.key(), "jobs[0].repaet");
  EXPECT_NE(e.hint().find("did you mean 'repeat'"), std::string::npos) << e.hint();
}

TEST(ScenarioYaml, GpusThatDoNotExist) {
  // dgx-h100-2node has 2 servers x 8 GPUs: GPU 16 and server 2 are one past the end.
  InputError e = error_of("cluster: dgx-h100-2node\njobs:\n  - gpus: 14-16\n    calls: [{collective: all_reduce, size: 1M}]\n");
  EXPECT_EQ(e.where().line, 3);
  EXPECT_EQ(e.key(), "jobs[0].gpus");
  EXPECT_NE(e.message().find("GPU 16 does not exist: the cluster has 16 GPUs"), std::string::npos) << e.message();
  InputError s = error_of("cluster: dgx-h100-2node\njobs:\n  - servers: 1-2\n    calls: [{collective: all_reduce, size: 1M}]\n");
  EXPECT_EQ(s.key(), "jobs[0].servers");
  EXPECT_NE(s.message().find("server 2 does not exist"), std::string::npos) << s.message();
}

TEST(ScenarioYaml, OverlappingJobsOnOneGpu) {
  const std::string text =
      "cluster: dgx-h100-2node\njobs:\n  - {name: a, servers: 0, calls: [{collective: all_reduce, size: 1M}]}\n"
      "  - {name: b, gpus: [7, 15], calls: [{collective: all_reduce, size: 1M}]}\n";
  InputError e = error_of(text);
  EXPECT_EQ(e.where().line, 4);
  EXPECT_EQ(e.key(), "jobs[1].gpus");
  EXPECT_NE(e.message().find("GPU 7 (gpu7) is also used by job 'a'"), std::string::npos) << e.message();
  EXPECT_NE(e.hint().find("share_gpus: true"), std::string::npos);
  // Allowed when the file says so.
  ScenarioSpec ok = parse_scenario_yaml(
      "cluster: dgx-h100-2node\nmodel: analytical\nshare_gpus: true\njobs:\n"
      "  - {name: a, servers: 0, calls: [{collective: all_reduce, size: 1M}]}\n"
      "  - {name: b, gpus: [7, 15], calls: [{collective: all_reduce, size: 1M}]}\n",
      "ok.yaml");
  EXPECT_NO_THROW(run_scenario(ok));
}

TEST(ScenarioYaml, StartInThePast) {
  InputError e = error_of("cluster: dgx-h100-2node\njobs:\n  - servers: 0\n    start: -5us\n    calls: [{collective: all_reduce, size: 1M}]\n");
  EXPECT_EQ(e.where().line, 4);
  EXPECT_EQ(e.key(), "jobs[0].start");
  EXPECT_NE(e.message().find("in the past"), std::string::npos) << e.message();
}

TEST(ScenarioYaml, EmptyJob) {
  InputError empty = error_of("cluster: dgx-h100-2node\njobs:\n  - servers: 0\n    calls: []\n");
  EXPECT_EQ(empty.key(), "jobs[0].calls");
  EXPECT_EQ(empty.where().line, 4);
  EXPECT_NE(empty.message().find("the job is empty"), std::string::npos) << empty.message();
  InputError missing = error_of("cluster: dgx-h100-2node\njobs:\n  - servers: 0\n");
  EXPECT_EQ(missing.key(), "jobs[0].calls");
  InputError nowhere = error_of("cluster: dgx-h100-2node\njobs:\n  - calls: [{collective: all_reduce, size: 1M}]\n");
  EXPECT_EQ(nowhere.key(), "jobs[0].servers");
  InputError zero = error_of("cluster: dgx-h100-2node\njobs:\n  - {servers: 0, calls: [{collective: all_reduce, size: 0}]}\n");
  EXPECT_EQ(zero.key(), "jobs[0].calls[0].size");
}

TEST(ScenarioYaml, NamesCheckedAgainstRegistries) {
  InputError c = error_of("cluster: dgx-h100-2node\njobs:\n  - servers: 0\n    calls:\n      - {collective: all_redcue, size: 1M}\n");
  EXPECT_EQ(c.where().line, 5);
  EXPECT_EQ(c.key(), "jobs[0].calls[0].collective");
  EXPECT_NE(c.hint().find("did you mean 'all_reduce'"), std::string::npos) << c.hint();
  InputError m = error_of("cluster: dgx-h100-2node\nmodel: flwo\njobs:\n  - {servers: 0, calls: [{collective: all_reduce, size: 1M}]}\n");
  EXPECT_EQ(m.where().line, 2);
  EXPECT_NE(m.hint().find("did you mean 'flow'"), std::string::npos) << m.hint();
  InputError cl = error_of("cluster: dgx-h10-2node\njobs:\n  - {servers: 0, calls: [{collective: all_reduce, size: 1M}]}\n");
  EXPECT_EQ(cl.where().line, 1);
  EXPECT_EQ(cl.key(), "cluster");
  InputError r = error_of("cluster: dgx-h100-2node\njobs:\n  - {servers: 0, calls: [{collective: broadcast, size: 1M, root: 8}]}\n");
  EXPECT_EQ(r.key(), "jobs[0].calls[0].root");
}
