// A scenario job's `env:` map means what the same NCCL_* variables mean in a real run's
// environment (nccl/nccl_env.hpp), job by job; a call's own algo / proto win, as --algo does.
#include <gtest/gtest.h>

#include <string>

#include "workload/scenario.hpp"
#include "workload/scenario_yaml.hpp"

using namespace gf;

namespace {

ScenarioResult run_text(const std::string& text) { return run_scenario(parse_scenario_yaml(text, "t.yaml")); }

const std::string kHead = "cluster: dgx-h100-2node\nmodel: analytical\njobs:\n";

std::string error_of(const std::string& text) {
  try {
    run_text(text);
  } catch (const InputError& e) {
    return e.where().file + ":" + std::to_string(e.where().line) + " " + e.key() + ": " + e.message();
  }
  return "no error";
}

}  // namespace

TEST(NcclScenarioEnv, EachJobChoosesUnderItsOwnEnvironment) {
  // 1 GiB all-reduce on both servers: under NCCL's defaults NCCL's model takes NVLS tree (its
  // bandwidth, 16 channels of NVLS against a ring's 400 GB/s of NICs); NCCL_ALGO=Ring forces the
  // ring, and `^` over NVLSTree and Tree leaves only ring as well.
  ScenarioResult r = run_text(kHead +
                              "  - {name: plain, servers: 0-1, calls: [{collective: all_reduce, size: 1G}]}\n"
                              "  - {name: ring, servers: 0-1, env: {NCCL_ALGO: Ring, NCCL_PROTO: Simple},\n"
                              "     calls: [{collective: all_reduce, size: 1G}]}\n"
                              "  - {name: not_trees, servers: 0-1, env: {NCCL_ALGO: '^NVLSTree,Tree'},\n"
                              "     calls: [{collective: all_reduce, size: 1G}]}\n"
                              "share_gpus: true\n");
  ASSERT_EQ(r.jobs.size(), 3u);
  EXPECT_EQ(r.jobs[0].calls[0].choice.algorithm, "nvlstree");
  EXPECT_EQ(r.jobs[1].calls[0].choice.algorithm, "ring");
  EXPECT_EQ(r.jobs[1].calls[0].choice.proto, Protocol::Simple);
  EXPECT_EQ(r.jobs[2].calls[0].choice.algorithm, "ring");
}

TEST(NcclScenarioEnv, ACallsOwnAlgoWinsOverTheJobsEnvironment) {
  ScenarioResult r = run_text(kHead +
                              "  - {servers: 0-1, env: {NCCL_ALGO: Ring},\n"
                              "     calls: [{collective: all_reduce, size: 1G, algo: tree}]}\n");
  EXPECT_EQ(r.jobs[0].calls[0].choice.algorithm, "tree");
}

TEST(NcclScenarioEnv, BadEntriesAreErrorsAtTheirLine) {
  // A malformed value, a name that is not NCCL's, a key given twice: each at its own line.
  EXPECT_EQ(
      error_of(kHead +
               "  - servers: 0-1\n    env:\n      NCCL_ALGO: Rink\n    calls: [{collective: all_reduce, size: 1M}]\n")
          .substr(0, 30),
      "t.yaml:6 jobs[0].env.NCCL_ALGO");
  EXPECT_NE(error_of(kHead + "  - servers: 0-1\n    env:\n      CUDA_VISIBLE_DEVICES: 0\n    calls: [{collective: "
                             "all_reduce, size: 1M}]\n")
                .find("t.yaml:6 jobs[0].env.CUDA_VISIBLE_DEVICES: not an NCCL variable"),
            std::string::npos);
  EXPECT_NE(error_of(kHead + "  - servers: 0-1\n    env:\n      NCCL_ALGO: Ring\n      NCCL_ALGO: Tree\n"
                             "    calls: [{collective: all_reduce, size: 1M}]\n")
                .find("given twice, at line 6 and at line 7"),
            std::string::npos);
  // A forced algorithm that cannot run here is named at the job's env: NVLS needs one NVLink domain.
  EXPECT_NE(error_of(kHead +
                     "  - servers: 0-1\n    env: {NCCL_ALGO: NVLS}\n    calls: [{collective: all_reduce, size: 1M}]\n")
                .find("t.yaml:5 jobs[0].env"),
            std::string::npos);
}

TEST(NcclScenarioEnv, IbHcaPerJobUsesOnlyItsNics) {
  // Two DGX H100, 1 GiB ring all-reduce: NCCL_IB_HCA keeping every other rail leaves 4 of the 8
  // NDR NICs, 4 x 50 GB/s out of a server for 8 GPUs' rings, so the job that names them runs
  // slower than one on all eight. Alone it takes what `perf --env NCCL_IB_HCA=...` takes: the same
  // NICs picked where the cluster is loaded (tests/nccl_ib_hca_test.cpp), here per job.
  const std::string call = "calls: [{collective: all_reduce, size: 1G, algo: ring, proto: simple}]";
  ScenarioResult r = run_text(kHead + "  - {name: all, servers: 0-1, " + call + "}\n" +
                              "  - {name: half, servers: 0-1, env: {NCCL_IB_HCA: '=mlx5_0,mlx5_2,mlx5_4,mlx5_6'}, " +
                              call + "}\n" + "share_gpus: true\n");
  ASSERT_EQ(r.jobs.size(), 2u);
  const ScenarioCallResult &all = r.jobs[0].calls.at(0), &half = r.jobs[1].calls.at(0);
  EXPECT_GT(static_cast<double>(half.alone_mean.picoseconds()),
            1.5 * static_cast<double>(all.alone_mean.picoseconds()));
  ScenarioResult alone_all = run_text(kHead + "  - {name: all, servers: 0-1, " + call + "}\n");
  ScenarioResult alone_half = run_text(
      kHead + "  - {name: half, servers: 0-1, env: {NCCL_IB_HCA: '=mlx5_0,mlx5_2,mlx5_4,mlx5_6'}, " + call + "}\n");
  EXPECT_EQ(half.alone_mean.picoseconds(), alone_half.jobs[0].calls.at(0).mean.picoseconds());
  EXPECT_EQ(all.alone_mean.picoseconds(), alone_all.jobs[0].calls.at(0).mean.picoseconds());
  // A value that leaves no NIC is an error at the job's env:.
  EXPECT_NE(error_of(kHead + "  - servers: 0-1\n    env: {NCCL_IB_HCA: '=mlx4_0'}\n    " + call + "\n")
                .find("t.yaml:5 jobs[0].env"),
            std::string::npos);
}

TEST(NcclScenarioEnv, TransportVariablesPerJobMoveTheRingAsInPerf) {
  // pcie-8gpu, one server; every job runs a 1 GiB ring/Simple all-reduce on GPUs 0-3 of socket 0
  // (gpu0, gpu1 under pcie0; gpu2, gpu3 under pcie1; both switches on cpu0), ring 0-1-2-3-0.
  // Derived as tests/nccl_transport_test.cpp derives `perf`'s figures:
  //  - P2P up to SYS, or NCCL's default PXB (1->2 and 3->0 become SHM over the links their P2P route
  //    used): every PCIe link carries one flow a direction, so busbw is the Gen4 x16 rate NCCL
  //    assumes, 24 GB/s (src/graph/topo.h PCI_BW);
  //  - P2P off (NCCL_P2P_DISABLE=1, or NCCL_P2P_LEVEL=LOC, its equivalent in paths.cc): every step
  //    climbs to cpu0's memory, pcie0's uplink carries two flows a direction: 12 GB/s.
  // A ring all-reduce on n = 4 ranks moves 2(n-1)/n = 1.5 x its size per rank, so the time alone is
  // 1.5 x 2^30 B / busbw: 67.1 ms at 24 GB/s, 134.2 ms at 12 GB/s.
  const std::string call = "calls: [{collective: all_reduce, size: 1G, algo: ring, proto: simple}]}\n";
  const std::string job = "servers: 0, gpus_per_server: 4, ";
  ScenarioResult r = run_text("cluster: pcie-8gpu\nmodel: analytical\nshare_gpus: true\njobs:\n"
                              "  - {name: plain, " + job + call +
                              "  - {name: off, " + job + "env: {NCCL_P2P_DISABLE: 1}, " + call +
                              "  - {name: loc, " + job + "env: {NCCL_P2P_LEVEL: LOC}, " + call +
                              "  - {name: sys, " + job + "env: {NCCL_P2P_LEVEL: SYS}, " + call);
  ASSERT_EQ(r.jobs.size(), 4u);
  const double bytes = 1.5 * static_cast<double>(int64_t{1} << 30);
  const auto busbw = [&](size_t j) {
    return bytes / (static_cast<double>(r.jobs[j].calls.at(0).alone_mean.picoseconds()) * 1e-12) / 1e9;
  };
  EXPECT_NEAR(busbw(0), 24.0, 24.0 * 0.03);
  EXPECT_NEAR(busbw(1), 12.0, 12.0 * 0.03);
  EXPECT_NEAR(busbw(2), 12.0, 12.0 * 0.03);
  EXPECT_NEAR(busbw(3), 24.0, 24.0 * 0.03);
}

TEST(NcclScenarioEnv, TransportThatNeedsANetworkIsAnErrorAtTheJobsEnv) {
  // P2P and SHM off on one server leave NET, and one server has no network between its NICs: the
  // refusal `perf` gives (NET pairs across NICs need --nodes 2), here at the job's env: line.
  const std::string e = error_of(
      "cluster: pcie-8gpu\nmodel: analytical\njobs:\n  - servers: 0\n"
      "    env: {NCCL_P2P_DISABLE: 1, NCCL_SHM_DISABLE: 1}\n"
      "    calls: [{collective: all_reduce, size: 1M}]\n");
  EXPECT_EQ(e.substr(0, 17), "t.yaml:5 jobs[0].") << e;
  EXPECT_NE(e.find("NET"), std::string::npos) << e;
}
