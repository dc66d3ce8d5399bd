// libFuzzer harness: scenario YAML in, a ScenarioSpec out (the cluster it names is not built).
#include "fuzz_common.hpp"
#include "workload/scenario_yaml.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gffuzz::expect_clean([&] { gf::parse_scenario_yaml(gffuzz::text_of(data, size), "fuzz.yaml", "."); });
  return 0;
}
