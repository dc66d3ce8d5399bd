// `gpufabric doctor`'s answer for people (text) and scripts (JSON): per finding its severity, rule,
// summary, evidence, the predicted busbw of the collective before and after the fix (when the
// finding could be modelled) and the fix; then a closing count, "N findings (C critical, W
// warnings)" or "no findings".
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "doctor/doctor.hpp"

namespace gf {

std::string doctor_text(const DoctorReport& r);
nlohmann::json doctor_json(const DoctorReport& r);
// The closing line alone ("2 findings (1 critical, 1 warning)", "no findings").
std::string doctor_tally(const DoctorReport& r);

}  // namespace gf
