// run_doctor: option checks, predictions filled in for Comparisons (each distinct cluster
// simulated once), deterministic reports.
#include <gtest/gtest.h>

#include "doctor/doctor.hpp"
#include "test_clusters.hpp"
#include "topology/server_registry.hpp"

namespace gf {
namespace {

ClusterSpec pcie_8gpu() { return gftest::spec_of(find_server("pcie-8gpu")->make(), 1, "single_switch"); }

DoctorOptions quick(std::vector<std::string> rules) {
  DoctorOptions o;
  o.size = Bytes::mib(64);
  o.rules = std::move(rules);
  return o;
}

TEST(DoctorRun, UnknownRuleIsAnInputErrorWithASuggestion) {
  try {
    run_doctor(pcie_8gpu(), quick({"nic-afinity"}));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "--rules");
    EXPECT_NE(e.message().find("nic-afinity"), std::string::npos);
    EXPECT_NE(e.hint().find("nic-affinity"), std::string::npos);
  }
}

TEST(DoctorRun, UnknownModelAndOddSizeAreInputErrors) {
  DoctorOptions o = quick({});
  o.model = "flwo";
  EXPECT_THROW(run_doctor(pcie_8gpu(), o), InputError);
  o = quick({});
  o.size = Bytes(6);  // not a whole number of 4-byte floats
  EXPECT_THROW(run_doctor(pcie_8gpu(), o), InputError);
}

TEST(DoctorRun, SeverityNames) {
  EXPECT_STREQ(to_string(Severity::Info), "info");
  EXPECT_STREQ(to_string(Severity::Warning), "warning");
  EXPECT_STREQ(to_string(Severity::Critical), "critical");
}

TEST(DoctorRun, AllRulesServerRulesFirst) {
  std::vector<DoctorRule> all = doctor_rules();
  ASSERT_GE(all.size(), server_rules().size() + fabric_rules().size());
  for (size_t i = 0; i < server_rules().size(); ++i) EXPECT_STREQ(all[i].name, server_rules()[i].name);
}

TEST(DoctorRun, ComparisonIsPredicted) {
  DoctorReport r = run_doctor(pcie_8gpu(), quick({"nic-shortage"}));
  ASSERT_EQ(r.findings.size(), 1u);
  const Finding& f = r.findings[0];
  EXPECT_EQ(f.rule, "nic-shortage");
  ASSERT_TRUE(f.predicted);
  EXPECT_EQ(f.predicted->collective, "all_reduce");
  EXPECT_EQ(f.predicted->size, Bytes::mib(64));
  EXPECT_EQ(f.predicted->ranks, 16);  // scale-out comparisons run on 2 servers x 8 GPUs
  EXPECT_GT(f.predicted->busbw_before_gBps, 0);
  EXPECT_GT(f.predicted->busbw_after_gBps, 0);
}

TEST(DoctorRun, IdenticalComparisonsAreSimulatedOnce) {
  // pcie-8gpu: pcie-contention reports its 4 switches with one shared fix (a NIC for gpu1, gpu3,
  // gpu5, gpu7), and nic-shortage's one-NIC-per-GPU fix adds the same NICs in the same order: 5
  // comparisons over 2 distinct clusters (the server as it is and as fixed).
  DoctorReport r = run_doctor(pcie_8gpu(), quick({"pcie-contention", "nic-shortage"}));
  ASSERT_EQ(r.findings.size(), 5u);
  for (const Finding& f : r.findings) {
    ASSERT_TRUE(f.predicted) << f.summary;
    EXPECT_EQ(f.predicted->busbw_after_gBps, r.findings[0].predicted->busbw_after_gBps);
  }
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes.back().find("5 comparison(s), 2 distinct cluster(s) simulated"), std::string::npos) << r.notes.back();
}

TEST(DoctorRun, RulesRunInRegistryOrderWhateverTheOrderAsked) {
  DoctorReport r = run_doctor(pcie_8gpu(), quick({"nic-shortage", "gpu-p2p"}));
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].rule, "gpu-p2p");
  EXPECT_EQ(r.findings[1].rule, "nic-shortage");
}

TEST(DoctorRun, SameInputGivesTheSameReport) {
  DoctorReport a = run_doctor(pcie_8gpu(), quick({}));
  DoctorReport b = run_doctor(pcie_8gpu(), quick({}));
  EXPECT_EQ(a.cluster, b.cluster);
  EXPECT_EQ(a.notes, b.notes);
  ASSERT_EQ(a.findings.size(), b.findings.size());
  for (size_t i = 0; i < a.findings.size(); ++i) {
    const Finding &x = a.findings[i], &y = b.findings[i];
    EXPECT_EQ(x.rule, y.rule);
    EXPECT_EQ(x.severity, y.severity);
    EXPECT_EQ(x.summary, y.summary);
    EXPECT_EQ(x.evidence, y.evidence);
    EXPECT_EQ(x.fix, y.fix);
    ASSERT_EQ(x.predicted.has_value(), y.predicted.has_value());
    if (x.predicted) {
      EXPECT_EQ(x.predicted->busbw_before_gBps, y.predicted->busbw_before_gBps);
      EXPECT_EQ(x.predicted->busbw_after_gBps, y.predicted->busbw_after_gBps);
    }
  }
}

TEST(DoctorRun, ClusterNotesComeFirst) {
  // An imported server's assumptions travel with its spec; the report repeats them before its own.
  ClusterSpec spec = pcie_8gpu();
  spec.notes = {"PCIe links: pcie-gen4-x16 assumed"};
  DoctorReport r = run_doctor(spec, quick({"gpu-p2p"}));
  ASSERT_EQ(r.notes.size(), 2u);  // the spec's note, then the predictions' line
  EXPECT_EQ(r.notes[0], "PCIe links: pcie-gen4-x16 assumed");
}

TEST(DoctorRun, DgxH100HasNoServerFinding) {
  std::vector<std::string> names;
  for (const DoctorRule& r : server_rules()) names.emplace_back(r.name);
  DoctorReport r = run_doctor(gftest::spec_of(find_server("dgx-h100")->make(), 2, "single_switch"), quick(names));
  EXPECT_TRUE(r.findings.empty());
  EXPECT_TRUE(r.notes.empty());  // nothing predicted, nothing assumed
}

}  // namespace
}  // namespace gf
