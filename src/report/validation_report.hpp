// Renderings of a `gpufabric validate` run: text (per data set, then an overall table),
// Markdown (what docs/accuracy.md holds) and JSON. accuracy/validate runs and compares; this file
// only prints, so it sits in report/ (which may include accuracy/, not the reverse).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "accuracy/validate.hpp"

namespace gf {

// A run over several data sets, as the three formats print it.
struct ValidationReport {
  std::string model;
  std::string manifest;                     // as given, for the report's provenance line
  std::vector<Calibration> calibration;
  std::vector<ValidationResult> results;
  std::vector<std::string> unlisted_files;  // measured files the manifest does not mention
};

std::string report_text(const ValidationReport& rep);
std::string report_markdown(const ValidationReport& rep);
nlohmann::json report_json(const ValidationReport& rep);

}  // namespace gf
