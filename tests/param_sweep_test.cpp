// Parameter sweeps (docs/sweeps.md): the grid's order, key settings through the cluster reader,
// run keys, the text form that carries rows between MPI ranks, and threads giving the same rows.
#include <gpufabric/param_sweep.hpp>
#include <gpufabric/simulation.hpp>
#include <gpufabric/sweep_file.hpp>
#include <gtest/gtest.h>

#include <cstring>

namespace gf {
namespace {

SweepAxis axis(std::string key, std::vector<std::string> values) { return {std::move(key), std::move(values), {"--set", 0, 0}}; }

TEST(ParamGrid, FullGridVariesTheFirstKeySlowest) {
  const ParamGrid g = ParamGrid::full({axis("servers", {"2", "4", "8"}), axis("fabric.oversubscription", {"1", "2"})});
  ASSERT_EQ(g.size(), 6u);  // 3 x 2
  EXPECT_EQ(g.values(0), (std::vector<std::string>{"2", "1"}));
  EXPECT_EQ(g.values(1), (std::vector<std::string>{"2", "2"}));
  EXPECT_EQ(g.values(2), (std::vector<std::string>{"4", "1"}));
  EXPECT_EQ(g.values(5), (std::vector<std::string>{"8", "2"}));
}

TEST(ParamGrid, ZipAdvancesTogetherAndRefusesUnequalLengths) {
  const ParamGrid z = ParamGrid::zipped({axis("servers", {"2", "4"}), axis("algo", {"ring", "tree"})});
  ASSERT_EQ(z.size(), 2u);
  EXPECT_EQ(z.values(1), (std::vector<std::string>{"4", "tree"}));
  try {
    ParamGrid::zipped({axis("servers", {"2", "4"}), axis("algo", {"ring"})});
    FAIL() << "unequal zipped lists accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "algo");
    EXPECT_NE(e.message().find("equal length"), std::string::npos) << e.what();
  }
  // A grid and a zip group: 2 x 2 points, the zipped pair as one digit.
  const ParamGrid c = ParamGrid::combined({axis("seed", {"0", "1"})}, {axis("servers", {"2", "4"}), axis("algo", {"ring", "tree"})});
  EXPECT_EQ(c.size(), 4u);
  EXPECT_EQ(c.values(3), (std::vector<std::string>{"1", "4", "tree"}));
}

TEST(ParamGrid, RefusesAKeySweptTwice) {
  EXPECT_THROW(ParamGrid::full({axis("servers", {"2"}), axis("servers", {"4"})}), InputError);
}

TEST(ClusterSet, SetsKeysOfAServerNameAndAPreset) {
  const ClusterSpec s = resolve_cluster_set("dgx-h100", {}, {{"servers", "4", {"--set", 0, 0}},
                                                              {"fabric.oversubscription", "2", {"--set", 0, 0}}});
  EXPECT_EQ(s.servers, 4);
  EXPECT_EQ(s.fabric.oversubscription, 2.0);
  EXPECT_EQ(s.fabric.kind, resolve_cluster("dgx-h100").fabric.kind);  // the server's usual fabric is kept
  const ClusterSpec p = resolve_cluster_set("dgx-h100-2node", {}, {{"fabric.link", "roce-400g", {"--set", 0, 0}}});
  EXPECT_EQ(p.fabric.link, "roce-400g");
  EXPECT_EQ(p.servers, 2);  // the preset's own
}

TEST(ClusterSet, AnErrorAtASetKeyNamesTheSettingWithDidYouMean) {
  try {
    resolve_cluster_set("dgx-h100", {}, {{"fabric.oversubscriptoin", "2", {"--set", 0, 0}}});
    FAIL() << "a misspelled key was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().file, "--set");
    EXPECT_EQ(e.key(), "fabric.oversubscriptoin");
    EXPECT_NE(e.hint().find("oversubscription"), std::string::npos) << e.what();
  }
  try {
    resolve_cluster_set("dgx-h100", {}, {{"servers", "0", {"sweep.yaml", 7, 0}}});
    FAIL() << "zero servers accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().file, "sweep.yaml");
    EXPECT_EQ(e.where().line, 7);
    EXPECT_EQ(e.key(), "servers");
  }
  try {
    resolve_cluster_set("dgx-h100", {}, {{"sevrers", "2", {"--set", 0, 0}}});
    FAIL() << "an unknown top-level key accepted";
  } catch (const InputError& e) {
    EXPECT_NE(e.hint().find("'servers'"), std::string::npos) << e.what();
  }
}

TEST(RunSetting, ChecksAsThePerfFlagsDo) {
  SweepOptions o;
  apply_run_setting(o, {"algo", "Ring", {"--set", 0, 0}});
  EXPECT_EQ(o.algo, "ring");
  apply_run_setting(o, {"seed", "7", {"--set", 0, 0}});
  EXPECT_EQ(o.seed, 7u);
  try {
    apply_run_setting(o, {"algo", "rign", {"--set", 0, 0}});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(e.hint().find("'ring'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(apply_run_setting(o, {"seed", "-1", {"--set", 0, 0}}), InputError);
  EXPECT_THROW(apply_run_setting(o, {"model", "flwo", {"--set", 0, 0}}), InputError);
}

SweepOptions one_size(int64_t bytes) {
  SweepOptions o;
  o.call.kind = CollectiveKind::AllReduce;
  o.min_bytes = o.max_bytes = Bytes(bytes);
  return o;
}

TEST(ParamSweep, APointIsTheSameRunAsTheClusterLoadedPlainly) {
  // servers=2 on the 2-server preset changes nothing, so its rows are the plain sweep's.
  ParamSweepRequest r;
  r.cluster = "dgx-h100-2node";
  r.options = one_size(1 << 20);
  r.grid = ParamGrid::full({axis("servers", {"2"})});
  const std::vector<ParamSweepRow> rows = run_param_sweep(r);
  const Simulation sim = Simulation::load("dgx-h100-2node");
  const std::vector<SweepRow> plain = sim.sweep(sim.communicator(), r.options);
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(rows[0].row.time, plain[0].time);
  EXPECT_EQ(rows[0].row.choice.algorithm, plain[0].choice.algorithm);
  EXPECT_EQ(rows[0].nranks, 16);  // 2 servers x 8 H100 (NVIDIA DGX H100 User Guide)
}

TEST(ParamSweep, ThreadsGiveTheSameRowsInGridOrder) {
  ParamSweepRequest r;
  r.cluster = "dgx-h100";
  r.options = one_size(8 << 20);
  r.options.model = "analytical";
  r.grid = ParamGrid::full({axis("servers", {"4", "2", "8"}), axis("algo", {"ring", "tree"})});
  const ParamSweep sweep(r);
  const std::vector<ParamPointResult> one = sweep.run(1), three = sweep.run(3);
  ASSERT_EQ(one.size(), 6u);
  for (size_t i = 0; i < one.size(); ++i) {
    ASSERT_TRUE(one[i].ran && three[i].ran);
    EXPECT_EQ(one[i].nranks, 8 * std::stoll(r.grid.values(i)[0]));  // servers x 8 GPUs, in grid order
    ASSERT_EQ(one[i].rows.size(), 1u);
    EXPECT_EQ(one[i].rows[0].time, three[i].rows[0].time);
    EXPECT_EQ(one[i].rows[0].choice.algorithm, r.grid.values(i)[1]);
  }
  // Longest first: the 8-server points (most links) lead the order.
  EXPECT_EQ(r.grid.values(sweep.order()[0])[0], "8");
  EXPECT_EQ(param_sweep_text(sweep.table(one)), param_sweep_text(sweep.table(three)));
}

TEST(ParamResult, TheTextFormKeepsEveryBit) {
  std::vector<ParamPointResult> in(3), out(3);
  in[1].ran = true;
  in[1].nranks = 16;
  SweepRow row;
  row.size = Bytes(1 << 30);
  row.time = Time::ps(123456789);
  row.algbw_gBps = 0.1 + 0.2;  // not exactly representable: a lossy form would change its last bit
  row.busbw_gBps = 1.0 / 3.0;
  row.choice.algorithm = "ring";
  row.choice.proto = Protocol::LL128;
  in[1].rows.push_back(row);
  ParamPointError err{2, {"--set", 0, 0}, "algo", "cannot run", "use auto", true};
  const auto e = decode_param_results(encode_param_results(in, err), out);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->point, 2u);
  EXPECT_EQ(e->key, "algo");
  EXPECT_FALSE(out[0].ran);
  ASSERT_TRUE(out[1].ran);
  const SweepRow& r = out[1].rows.at(0);
  EXPECT_EQ(std::memcmp(&r.algbw_gBps, &row.algbw_gBps, sizeof(double)), 0);
  EXPECT_EQ(std::memcmp(&r.busbw_gBps, &row.busbw_gBps, sizeof(double)), 0);
  EXPECT_EQ(r.time, row.time);
  EXPECT_EQ(r.choice.proto, Protocol::LL128);
}

TEST(SweepFile, ReadsGridZipAndPerfWordsWithLines) {
  const SweepFile f = parse_sweep_file(
      "cluster: dgx-h100\nperf: all_reduce -b 1G -e 1G\ngrid:\n  servers: [2, 4]\nzip:\n  algo: [ring, tree]\n"
      "  proto: [simple, ll]\n",
      "s.yaml");
  EXPECT_EQ(f.cluster, "dgx-h100");
  EXPECT_EQ(f.perf, (std::vector<std::string>{"all_reduce", "-b", "1G", "-e", "1G"}));
  ASSERT_EQ(f.grid.size(), 1u);
  EXPECT_EQ(f.grid[0].where.line, 4);
  ASSERT_EQ(f.zip.size(), 2u);
  EXPECT_EQ(f.zip[1].values, (std::vector<std::string>{"simple", "ll"}));
  try {
    parse_sweep_file("perf: all_reduce\ngird: {servers: [2]}\n", "s.yaml");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().line, 2);
    EXPECT_NE(e.hint().find("'grid'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gf
