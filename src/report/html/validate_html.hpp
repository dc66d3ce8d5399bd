// `gpufabric validate --html FILE`: predicted against measured, set by set: a summary table (the
// busbw target and latency floor per set), then per set a chart of busbw against size with the
// measured curve, the band the busbw target allows around it (+-kBusbwTargetPct), and the
// prediction, and the rows.
#pragma once

#include <string>

#include "report/html/html_page.hpp"
#include "report/validation_report.hpp"

namespace gf::html {

std::string validate_html(const ValidationReport& rep, const ReportMeta& meta);

}  // namespace gf::html
