// NCCL's environment as the tuner honours it (nccl/nccl_env.hpp): NCCL_ALGO / NCCL_PROTO lists
// with '^' exclusion, the in-network switches at NCCL's defaults, channel bounds, and every
// variable either applied or said to be ignored.
#include <gtest/gtest.h>

#include <algorithm>

#include "algorithm_check.hpp"
#include "core/error.hpp"
#include "nccl/nccl_env.hpp"
#include "nccl/tuner.hpp"

using namespace gf;

namespace {

NcclSettings from(std::vector<std::pair<std::string, std::string>> vars, bool algo_flag = false) {
  NcclSettings s;
  apply_nccl_env(s, vars, "--env", algo_flag, false);
  return s;
}

std::string error_key(std::vector<std::pair<std::string, std::string>> vars) {
  try {
    from(std::move(vars));
  } catch (const InputError& e) {
    return e.key() + ": " + e.message();
  }
  return "";
}

CollectiveCall all_reduce(int64_t bytes) {
  CollectiveCall c;
  c.kind = CollectiveKind::AllReduce;
  c.bytes = Bytes(bytes);
  return c;
}

}  // namespace

TEST(NcclEnv, AlgoListsUseNcclSpellingsAndCaretExcludes) {
  EXPECT_EQ(from({{"NCCL_ALGO", "Tree,Ring"}}).algorithms, (std::vector<std::string>{"tree", "ring"}));
  // NCCL's names for the CollNet and NVLS algorithms; "CollNet" is both, as older releases said.
  EXPECT_EQ(from({{"NCCL_ALGO", "CollNetDirect,NVLSTree"}}).algorithms,
            (std::vector<std::string>{"collnet_direct", "nvlstree"}));
  EXPECT_EQ(from({{"NCCL_ALGO", "collnet"}}).algorithms, (std::vector<std::string>{"collnet_direct", "collnet_chain"}));
  // '^' keeps every registered algorithm but those listed.
  const std::vector<std::string> all = algorithm_names();
  const std::vector<std::string> kept = from({{"NCCL_ALGO", "^NVLS,NVLSTree"}}).algorithms;
  EXPECT_EQ(kept.size(), all.size() - 2);
  EXPECT_EQ(std::count(kept.begin(), kept.end(), "nvls"), 0);
  EXPECT_EQ(std::count(kept.begin(), kept.end(), "nvlstree"), 0);
  EXPECT_EQ(from({{"NCCL_PROTO", "^LL128"}}).protocols, (std::vector<Protocol>{Protocol::LL, Protocol::Simple}));
}

TEST(NcclEnv, DefaultsAreNcclsAndSwitchesApply) {
  const NcclSettings d;
  EXPECT_FALSE(d.collnet);  // NCCL_COLLNET_ENABLE defaults to 0
  EXPECT_TRUE(d.nvls);      // NCCL_NVLS_ENABLE defaults to 2, "enable if supported"
  const NcclSettings s = from({{"NCCL_COLLNET_ENABLE", "1"}, {"NCCL_NVLS_ENABLE", "0"}, {"NCCL_MAX_NCHANNELS", "4"}});
  EXPECT_TRUE(s.collnet);
  EXPECT_FALSE(s.nvls);
  EXPECT_EQ(s.max_channels, 4);
  EXPECT_EQ(s.applied, (std::vector<std::string>{"NCCL_COLLNET_ENABLE=1", "NCCL_NVLS_ENABLE=0", "NCCL_MAX_NCHANNELS=4"}));
}

TEST(NcclEnv, UnmodelledVariablesAreSaidToBeIgnored) {
  const NcclSettings s = from({{"NCCL_IB_TIMEOUT", "22"}, {"NCCL_DEBUG", "INFO"}, {"OTHER", "x"}});
  EXPECT_TRUE(s.applied.empty());
  ASSERT_EQ(s.ignored.size(), 2u);  // OTHER is not NCCL's
  EXPECT_EQ(s.ignored[0].rfind("NCCL_IB_TIMEOUT=22 (", 0), 0u);
  // --algo on the command line wins over NCCL_ALGO, and says so.
  const NcclSettings f = from({{"NCCL_ALGO", "tree"}}, true);
  EXPECT_TRUE(f.algorithms.empty());
  ASSERT_EQ(f.ignored.size(), 1u);
}

TEST(NcclEnv, BadValuesNameTheVariable) {
  EXPECT_EQ(error_key({{"NCCL_ALGO", "rign"}}).rfind("NCCL_ALGO: 'rign' is not an algorithm", 0), 0u);
  EXPECT_EQ(error_key({{"NCCL_PROTO", "LL256"}}).rfind("NCCL_PROTO: ", 0), 0u);
  EXPECT_EQ(error_key({{"NCCL_COLLNET_ENABLE", "yes"}}).rfind("NCCL_COLLNET_ENABLE: ", 0), 0u);
  EXPECT_EQ(error_key({{"NCCL_MAX_NCHANNELS", "65"}}).rfind("NCCL_MAX_NCHANNELS: ", 0), 0u);  // MAXCHANNELS is 64
  EXPECT_EQ(error_key({{"NCCL_MIN_NCHANNELS", "8"}, {"NCCL_MAX_NCHANNELS", "4"}}).rfind("NCCL_MIN_NCHANNELS: ", 0), 0u);
  EXPECT_EQ(error_key({{"NCCL_ALGO", "^ring,tree,nvls,nvlstree,collnet,pat,hierarchical,rhd,direct,pairwise,sendrecv"}})
                .rfind("NCCL_ALGO: ", 0),
            0u);
}

TEST(NcclEnv, TheTunerHonoursTheSettings) {
  // Two DGX H100 on NDR InfiniBand, whose switches can reduce (SHARP): CollNet can run here.
  auto env = algocheck::setup("dgx-h100", 2, 8);
  ASSERT_EQ(find_algorithm("collnet_direct")->unsupported(env->comm, CollectiveKind::AllReduce), "");
  const NcclSettings d;
  for (int64_t b = 8; b <= (int64_t{1} << 30); b *= 2) {
    // NCCL's default leaves CollNet off: auto never takes it.
    const TunerChoice c = choose(env->comm, env->router, all_reduce(b), d);
    EXPECT_EQ(c.algorithm.rfind("collnet", 0), std::string::npos) << b << " B chose " << c.algorithm;
    // NCCL_ALGO=Tree,Ring: the choice stays among them.
    const TunerChoice l = choose(env->comm, env->router, all_reduce(b), from({{"NCCL_ALGO", "Tree,Ring"}}));
    EXPECT_TRUE(l.algorithm == "tree" || l.algorithm == "ring") << b << " B chose " << l.algorithm;
  }
  // NCCL_MAX_NCHANNELS=4 caps the 16 channels NCCL gives NVLS and 2 x 8 NICs give the rest.
  const TunerChoice m = choose(env->comm, env->router, all_reduce(int64_t{1} << 30), from({{"NCCL_MAX_NCHANNELS", "4"}}));
  EXPECT_EQ(m.channels, 4);
  // A single NCCL_ALGO that cannot run is an error naming NCCL_ALGO, as a forced --algo is.
  try {
    choose(env->comm, env->router, all_reduce(1 << 20), from({{"NCCL_ALGO", "NVLS"}}));
    FAIL() << "nvls cannot join two servers";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "NCCL_ALGO");
  }
}
