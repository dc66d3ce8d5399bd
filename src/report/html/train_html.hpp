// `gpufabric train ... --html FILE`: one training step as a page: the run's facts, the critical
// pipeline stage's step split into its phases (compute, exposed communication per parallelism,
// the pipeline bubble, the optimizer: the parts train's text report adds up to the step), and per
// parallelism its communication per step split into the exposed part and the rest.
#pragma once

#include <string>

#include "report/html/html_page.hpp"
#include "report/html/svg_bars.hpp"
#include "training/train_step.hpp"

namespace gf::html {

// The step's phases as one bar (zero phases are left out when drawn), in the text report's order.
Bar train_step_bar(const TrainResult& r);

std::string train_html(const TrainResult& r, const std::string& cluster, const ReportMeta& meta);

}  // namespace gf::html
