// validate reports 64 KiB-1 MiB on its own (issue 19): that is where latency and pipelining errors
// live, and a set's large sizes can hide them in the >= 64 KiB statistic.
#include <gtest/gtest.h>

#include "accuracy/validate.hpp"
#include "report/validation_report.hpp"

using namespace gf;

namespace {

ComparedRow row(int64_t size, double error_pct) {
  ComparedRow r;
  r.size = size;
  r.measured_us = 10;
  r.measured_busbw = 1;
  r.predicted_us = 10;
  r.predicted_busbw = 1 + error_pct / 100;
  r.error_pct = error_pct;
  return r;
}

}  // namespace

TEST(AccValidateMidSizes, MidSizesAreSummarizedOnTheirOwn) {
  // 32 KiB is below both windows; 2 MiB and 1 GiB only in the >= 64 KiB one.
  // >= 64 KiB: |10|, |-20|, |30|, |100|, |2| -> sorted 2, 10, 20, 30, 100: median 20, max 100.
  // 64 KiB-1 MiB: 10, 20, 30 -> median 20, max 30 at 1 MiB.
  ValidationResult v;
  v.dataset.name = "hand";
  v.nranks = 16;
  v.rows = {row(32 << 10, 50), row(64 << 10, 10), row(256 << 10, -20), row(1 << 20, 30), row(2 << 20, 100),
            row(int64_t{1} << 30, 2)};
  v.busbw = summarize_errors(v.rows);
  v.mid = summarize_errors(v.rows, kBusbwMinSize, kMidMaxSize);
  EXPECT_EQ(v.busbw.counted, 5);
  EXPECT_DOUBLE_EQ(*v.busbw.median_abs_pct, 20);
  EXPECT_DOUBLE_EQ(*v.busbw.max_abs_pct, 100);
  EXPECT_EQ(v.mid.counted, 3);
  EXPECT_DOUBLE_EQ(*v.mid.median_abs_pct, 20);
  EXPECT_DOUBLE_EQ(*v.mid.max_abs_pct, 30);
  EXPECT_EQ(v.mid.max_at_size, 1 << 20);

  ValidationReport rep;
  rep.model = "flow";
  rep.results = {v};
  const std::string text = report_text(rep);
  EXPECT_NE(text.find("64K-1M"), std::string::npos);
  EXPECT_NE(text.find("64 KiB-1 MiB: busbw |error| over 3 rows: median 20.0%, max 30.0% (at 1 MiB)"), std::string::npos);
  const std::string md = report_markdown(rep);
  EXPECT_NE(md.find("| 20.0% (3) |"), std::string::npos);
  EXPECT_EQ(report_json(rep)["datasets"][0]["busbw_64k_1m"]["counted"], 3);
}
