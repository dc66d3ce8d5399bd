// The doctor report writers (src/report/doctor_report): findings built by hand, so every printed
// figure is the input's own.
#include <gtest/gtest.h>

#include "report/doctor_report.hpp"

namespace {

gf::DoctorReport sample() {
  gf::DoctorReport r;
  r.cluster = "test-cluster";
  r.notes.push_back("PCIe generation assumed");
  gf::Finding a;
  a.rule = "oversubscription";
  a.severity = gf::Severity::Critical;
  a.summary = "the leaf tier is 4:1 oversubscribed";
  a.evidence = {"leaf tier: 2 switches", "8 servers on 2 leaves"};
  a.fix = "add uplinks";
  a.compare = gf::Comparison{};
  a.compare->collective = gf::CollectiveKind::AllToAll;
  a.compare->after_what = "leaf tier at 1:1";
  // 1 GiB on 64 ranks, 10 GB/s now and 40 GB/s fixed: 40 / 10 = 4.00x.
  a.predicted = gf::Prediction{"alltoall", gf::Bytes::gib(1), 64, 10.0, 40.0};
  gf::Finding b;
  b.rule = "ecmp-collision";
  b.severity = gf::Severity::Warning;
  b.summary = "two flows share one uplink";
  b.fix = "adaptive routing";
  r.findings = {a, b};
  return r;
}

TEST(DoctorReport, TextShowsEachFindingAndTheTally) {
  const std::string t = gf::doctor_text(sample());
  EXPECT_NE(t.find("# gpufabric doctor: test-cluster\n"), std::string::npos) << t;
  EXPECT_NE(t.find("# note: PCIe generation assumed\n"), std::string::npos);
  EXPECT_NE(t.find("[CRITICAL] oversubscription: the leaf tier is 4:1 oversubscribed\n"), std::string::npos);
  EXPECT_NE(t.find("  - 8 servers on 2 leaves\n"), std::string::npos);
  EXPECT_NE(t.find("  predicted: alltoall 1.00 GiB on 64 ranks: nccl-tests busbw 10.0 GB/s now -> 40.0 GB/s with leaf tier at "
                   "1:1 (4.00x)\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("  fix: add uplinks\n"), std::string::npos);
  EXPECT_NE(t.find("[WARNING] ecmp-collision: two flows share one uplink\n"), std::string::npos);
  // One critical, one warning; the tally is the last line.
  EXPECT_NE(t.find("\n2 findings (1 critical, 1 warning)\n"), std::string::npos) << t;
  EXPECT_EQ(t.rfind("2 findings"), t.size() - std::string("2 findings (1 critical, 1 warning)\n").size());
}

TEST(DoctorReport, NothingFoundSaysSo) {
  gf::DoctorReport r;
  r.cluster = "clean";
  EXPECT_EQ(gf::doctor_tally(r), "no findings");
  EXPECT_NE(gf::doctor_text(r).find("\nno findings\n"), std::string::npos);
  const nlohmann::json j = gf::doctor_json(r);
  EXPECT_TRUE(j["findings"].empty());
  EXPECT_EQ(j["summary"]["findings"], 0);
}

TEST(DoctorReport, JsonCarriesThePredictionAndCounts) {
  const nlohmann::json j = gf::doctor_json(sample());
  // Round-trips through text, as a script reads it.
  const nlohmann::json back = nlohmann::json::parse(j.dump());
  EXPECT_EQ(back["cluster"], "test-cluster");
  ASSERT_EQ(back["findings"].size(), 2u);
  const auto& a = back["findings"][0];
  EXPECT_EQ(a["rule"], "oversubscription");
  EXPECT_EQ(a["severity"], "critical");
  EXPECT_EQ(a["evidence"].size(), 2u);
  EXPECT_EQ(a["predicted"]["collective"], "alltoall");
  EXPECT_EQ(a["predicted"]["size_bytes"], 1073741824);  // 2^30
  EXPECT_EQ(a["predicted"]["ranks"], 64);
  EXPECT_DOUBLE_EQ(a["predicted"]["busbw_before_GBps"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(a["predicted"]["busbw_after_GBps"].get<double>(), 40.0);
  EXPECT_EQ(a["fix_modelled"]["after"], "leaf tier at 1:1");
  EXPECT_TRUE(back["findings"][1]["predicted"].is_null());
  EXPECT_EQ(back["summary"]["critical"], 1);
  EXPECT_EQ(back["summary"]["warnings"], 1);
}

}  // namespace
