#include "report/doctor_report.hpp"

#include <cctype>

#include <fmt/format.h>

namespace gf {

namespace {

std::string plural(int64_t n, const std::string& word) { return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s"); }

// Bytes in binary units, as nccl-tests sizes are written (1G = 2^30).
std::string size_text(Bytes size) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double b = static_cast<double>(size.count());
  int u = 0;
  while (b >= 1024 && u < 4) b /= 1024, ++u;
  return u == 0 ? fmt::format("{:.0f} B", b) : fmt::format("{:.2f} {}", b, units[u]);
}

std::string upper(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

// "all_reduce 1.00 GiB on 16 ranks: nccl-tests busbw 40.1 GB/s now -> 80.3 GB/s with <after> (2.00x)"
std::string prediction_text(const Finding& f) {
  const Prediction& p = *f.predicted;
  std::string with = f.compare ? f.compare->after_what : "the fix";
  std::string ratio = p.busbw_before_gBps > 0 ? fmt::format(" ({:.2f}x)", p.busbw_after_gBps / p.busbw_before_gBps) : "";
  return fmt::format("{} {} on {} ranks: nccl-tests busbw {:.1f} GB/s now -> {:.1f} GB/s with {}{}", p.collective,
                     size_text(p.size), p.ranks, p.busbw_before_gBps, p.busbw_after_gBps, with, ratio);
}

}  // namespace

std::string doctor_tally(const DoctorReport& r) {
  if (r.findings.empty()) return "no findings";
  int64_t critical = 0, warning = 0, info = 0;
  for (const Finding& f : r.findings)
    (f.severity == Severity::Critical ? critical : f.severity == Severity::Warning ? warning : info) += 1;
  std::string s = plural(static_cast<int64_t>(r.findings.size()), "finding") + " (" + std::to_string(critical) +
                  " critical, " + plural(warning, "warning");
  if (info > 0) s += ", " + std::to_string(info) + " info";
  return s + ")";
}

std::string doctor_text(const DoctorReport& r) {
  std::string out = "# gpufabric doctor: " + r.cluster + "\n";
  for (const std::string& n : r.notes) out += "# note: " + n + "\n";
  for (const Finding& f : r.findings) {
    out += "\n[" + upper(to_string(f.severity)) + "] " + f.rule + ": " + f.summary + "\n";
    for (const std::string& e : f.evidence) out += "  - " + e + "\n";
    if (f.predicted) out += "  predicted: " + prediction_text(f) + "\n";
    else if (f.compare) out += "  predicted: not computed\n";
    if (!f.fix.empty()) out += "  fix: " + f.fix + "\n";
  }
  out += "\n" + doctor_tally(r) + "\n";
  return out;
}

nlohmann::json doctor_json(const DoctorReport& r) {
  nlohmann::json j;
  j["cluster"] = r.cluster;
  j["notes"] = r.notes;
  nlohmann::json findings = nlohmann::json::array();
  int64_t critical = 0, warning = 0;
  for (const Finding& f : r.findings) {
    critical += f.severity == Severity::Critical;
    warning += f.severity == Severity::Warning;
    nlohmann::json jf = {{"rule", f.rule},         {"severity", to_string(f.severity)}, {"summary", f.summary},
                         {"evidence", f.evidence}, {"fix", f.fix}};
    if (f.compare) {
      jf["fix_modelled"] = {{"after", f.compare->after_what},
                            {"collective", to_string(f.compare->collective)},
                            {"routing_before", std::string(to_string(f.compare->before_routing))},
                            {"routing_after", std::string(to_string(f.compare->after_routing))}};
    }
    if (f.predicted) {
      const Prediction& p = *f.predicted;
      jf["predicted"] = {{"collective", p.collective},
                         {"size_bytes", p.size.count()},
                         {"ranks", p.ranks},
                         {"busbw_before_GBps", p.busbw_before_gBps},
                         {"busbw_after_GBps", p.busbw_after_gBps}};
    } else {
      jf["predicted"] = nullptr;
    }
    findings.push_back(std::move(jf));
  }
  j["findings"] = std::move(findings);
  j["summary"] = {{"findings", r.findings.size()},
                  {"critical", critical},
                  {"warnings", warning},
                  {"text", doctor_tally(r)}};
  return j;
}

}  // namespace gf
