// The doctor given a scenario: the sharp-trees rule names a job that asks for CollNet but gets no
// SHARP tree, with the cost predicted for that job without and with the tree.
#include <gtest/gtest.h>

#include "config/presets.hpp"
#include "doctor/doctor.hpp"
#include "workload/scenario_yaml.hpp"

using namespace gf;

TEST(DoctorSharp, RefusedJobIsAFindingWithItsCost) {
  const ScenarioSpec s = load_scenario_file(std::string(GPUFABRIC_SOURCE_DIR) + "/examples/sharp-two-jobs-hdr.yaml");
  ClusterOverrides o;
  o.nodes = s.nodes;
  const ClusterSpec spec = resolve_cluster(s.cluster, o);
  DoctorOptions opt;
  opt.rules = {"sharp-trees"};
  opt.model = "analytical";
  opt.scenario = &s;
  const DoctorReport r = run_doctor(spec, opt);
  ASSERT_EQ(r.findings.size(), 1u);
  const Finding& f = r.findings[0];
  EXPECT_EQ(f.severity, Severity::Warning);
  EXPECT_NE(f.summary.find("job 'b'"), std::string::npos) << f.summary;
  ASSERT_TRUE(f.predicted.has_value());
  // CollNet sends each byte once up the tree and once down, where a ring sends 2(n-1)/n of it over
  // the NICs twice over (reduce-scatter then all-gather): with the tree, job b is faster.
  EXPECT_GT(f.predicted->busbw_after_gBps, f.predicted->busbw_before_gBps);
  // Without a scenario, the rule has nothing to look at.
  opt.scenario = nullptr;
  EXPECT_TRUE(run_doctor(spec, opt).findings.empty());
}
