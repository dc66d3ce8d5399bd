// `gpufabric doctor CLUSTER --html FILE`: the doctor's findings as a page: the tally, then each
// finding with its severity, rule, summary, evidence, the busbw a model predicts before and after
// the fix (with a bar for each) and the fix.
#pragma once

#include <string>

#include "doctor/doctor.hpp"
#include "report/html/html_page.hpp"

namespace gf::html {

std::string doctor_html(const DoctorReport& r, const ReportMeta& meta);

}  // namespace gf::html
