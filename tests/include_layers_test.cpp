// The house's include rules (docs/architecture.md, "Folders"), checked over the source tree so that
// a change that lifts a folder above its layer, or reaches into a folder's private helpers, fails
// here instead of being found by a reader.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

// Each src/ folder and the folders it may include (itself always). The order is the layering:
// every folder may include only folders listed before it.
const std::map<std::string, std::set<std::string>>& allowed() {
  static const std::map<std::string, std::set<std::string>> k = {
      {"core", {}},
      {"topology", {"core"}},
      {"config", {"core", "topology"}},
      {"routing", {"core", "topology"}},
      {"collective", {"core", "topology", "routing"}},
      // model/packet/packet_yaml reads its block with config/yaml_fields.
      {"model", {"core", "topology", "routing", "config"}},
      {"engine", {"core", "topology", "routing", "collective", "model"}},
      {"nccl", {"core", "topology", "routing", "collective", "model", "engine"}},
      {"workload", {"core", "topology", "config", "routing", "collective", "model", "engine", "nccl"}},
      // training/: a step's generator, compute pricing and pipeline schedule over the workload layer.
      {"training", {"core", "topology", "config", "routing", "collective", "model", "engine", "nccl", "workload"}},
      // inference/: serving (prefill, decode, KV cache) on the training layer's compute pricing, at its level.
      {"inference", {"core", "topology", "config", "routing", "collective", "model", "engine", "nccl", "workload", "training"}},
      {"accuracy", {"core", "topology", "config", "routing", "collective", "model", "engine", "nccl", "workload", "training"}},
      // replay/: recorded traces (Chakra, Kineto) in, replayed with training's group timing.
      {"replay", {"core", "topology", "config", "routing", "collective", "model", "engine", "nccl", "workload", "training"}},
      {"doctor", {"core", "topology", "config", "routing", "collective", "model", "engine", "nccl", "workload"}},
      {"report",
       {"core", "topology", "config", "routing", "collective", "model", "engine", "nccl", "workload", "training",
        "inference", "accuracy", "doctor", "replay"}},
      // Bills of materials, power and cost, and the design search over them (docs/bom.md).
      {"bom",
       {"core", "topology", "config", "routing", "collective", "model", "engine", "nccl", "workload", "report"}},
      // The facade behind include/gpufabric/ (simulation.hpp) sits on top of the library.
      {"api",
       {"core", "topology", "config", "routing", "collective", "model", "engine", "nccl", "workload", "training",
        "inference", "accuracy", "doctor", "replay", "report", "bom"}},
  };
  return k;
}

struct Include {
  std::string file;  // relative to the repository
  int line;
  std::string target;  // as written: "folder/..."
};

std::vector<Include> includes_under(const fs::path& root, const std::string& sub) {
  std::vector<Include> out;
  const std::regex re(R"re(^\s*#\s*include\s*"([^"]+)")re");
  for (const auto& e : fs::recursive_directory_iterator(root / sub)) {
    if (!e.is_regular_file()) continue;
    const std::string ext = e.path().extension().string();
    if (ext != ".hpp" && ext != ".cpp") continue;
    std::ifstream in(e.path());
    std::string text;
    int n = 0;
    while (std::getline(in, text)) {
      ++n;
      std::smatch m;
      if (std::regex_search(text, m, re)) out.push_back({fs::relative(e.path(), root).string(), n, m[1].str()});
    }
  }
  return out;
}

std::string folder_of(const std::string& include) { return include.substr(0, include.find('/')); }

const fs::path kRoot = GPUFABRIC_SOURCE_DIR;

TEST(IncludeLayers, EveryFolderIncludesOnlyTheLayersBelowIt) {
  std::vector<Include> all = includes_under(kRoot, "src");
  ASSERT_GT(all.size(), 500u) << "the walk found too few includes to be the source tree";
  for (const Include& i : all) {
    const std::string own = folder_of(i.file.substr(4));  // after "src/"
    const std::string to = folder_of(i.target);
    if (i.target.find('/') == std::string::npos || to == own) continue;
    auto it = allowed().find(own);
    ASSERT_TRUE(it != allowed().end()) << "src/" << own << "/ is not in the layer table of this test and docs/architecture.md";
    EXPECT_TRUE(it->second.count(to)) << i.file << ":" << i.line << " includes " << i.target << ": " << own
                                      << "/ may not include " << to << "/";
  }
}

TEST(IncludeLayers, TheMaxMinSolverIncludesOnlyCore) {
  for (const Include& i : includes_under(kRoot, "src/model/flow")) {
    if (i.file.find("maxmin_solver") == std::string::npos) continue;
    const std::string to = folder_of(i.target);
    EXPECT_TRUE(to == "core" || i.target.rfind("model/flow/maxmin_solver", 0) == 0)
        << i.file << ":" << i.line << " includes " << i.target;
  }
}

TEST(IncludeLayers, AlgorithmsArePrivateToTheirFolderAndTheRegistry) {
  for (const std::string sub : {"src", "cli", "include", "tests", "bench"}) {
    for (const Include& i : includes_under(kRoot, sub)) {
      if (i.target.rfind("collective/algorithms/", 0) != 0) continue;
      const bool inside = i.file.rfind("src/collective/algorithms/", 0) == 0;
      const bool registry = i.file == "src/collective/algorithm_registry.cpp";
      EXPECT_TRUE(inside || registry) << i.file << ":" << i.line << " includes " << i.target
                                      << ": reach algorithms through collective/algorithm.hpp";
    }
  }
}

TEST(IncludeLayers, TheCommandLineUsesOnlyThePublicApi) {
  for (const Include& i : includes_under(kRoot, "cli")) {
    if (i.target.find('/') == std::string::npos) continue;  // cli's own headers
    EXPECT_EQ(i.target.rfind("gpufabric/", 0), 0u) << i.file << ":" << i.line << " includes " << i.target;
  }
}

TEST(IncludeLayers, ThePythonModuleUsesOnlyThePublicApi) {
  // Quoted or angled: the module includes everything with <>, so both forms are read here. A
  // folder of src/ named first is reaching past the facade.
  const std::regex re(R"re(^\s*#\s*include\s*[<"]([^>"]+)[>"])re");
  int facade = 0;
  for (const auto& e : fs::recursive_directory_iterator(kRoot / "python")) {
    if (!e.is_regular_file() || (e.path().extension() != ".cpp" && e.path().extension() != ".hpp")) continue;
    std::ifstream in(e.path());
    std::string text;
    for (int n = 1; std::getline(in, text); ++n) {
      std::smatch m;
      if (!std::regex_search(text, m, re)) continue;
      const std::string target = m[1].str(), top = folder_of(target);
      if (top == "gpufabric") ++facade;
      EXPECT_FALSE(target.find('/') != std::string::npos && fs::is_directory(kRoot / "src" / top))
          << e.path() << ":" << n << " includes " << target << ": use include/gpufabric/";
    }
  }
  EXPECT_GT(facade, 0) << "python/ includes the public API";
}

}  // namespace
