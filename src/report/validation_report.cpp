#include "report/validation_report.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "report/table.hpp"

namespace gf {

namespace {
// ---------------------------------------------------------------------------------------------
// Text (per data set, then an overall table), Markdown (docs/accuracy.md) and JSON.

std::string pct(double v) { return fmt::format("{:+.1f}%", v); }
std::string abs_pct(const std::optional<double>& v) { return v ? fmt::format("{:.1f}%", *v) : "n/a"; }
std::string gbps(double v) { return fmt::format("{:.2f}", v); }
std::string usec(double v) { return v > 0 ? fmt::format("{:.2f}", v) : "-"; }

std::string row_key(const ComparedRow& r) { return r.label.empty() ? to_string(Bytes(r.size)) : r.label; }

std::string choice(const ComparedRow& r) {
  if (!r.compared()) return "";
  return r.algorithm + "/" + r.protocol + " (" + std::to_string(r.channels) + " ch)";
}

std::string row_error(const ComparedRow& r) {
  if (!r.skipped.empty()) return "skipped";
  if (!r.failed.empty()) return "failed";
  return pct(r.error_pct);
}

std::string ranks_text(const ValidationResult& v) {
  const DatasetSpec& d = v.dataset;
  if (d.layout == TableLayout::ScalingSummary) return "1 x 2..8 (per row)";
  return fmt::format("{} x {} = {}", d.nodes, d.gpus_per_node, v.nranks);
}

std::string forced_text(const DatasetSpec& d) {
  if (d.layout == TableLayout::ScalingSummary) return "algorithm per row";
  if (d.algo == "auto" && d.proto == "auto") return "";
  return "forced " + d.algo + "/" + d.proto;
}

// The NCCL variables the run set (the manifest's `env:`), as applied: "NCCL_IB_QPS_PER_CONNECTION=4, ...".
std::string env_text(const DatasetSpec& d) {
  std::string out;
  for (const std::string& a : d.nccl.applied) out += (out.empty() ? "" : ", ") + a;
  return out;
}

std::string target_word(const std::optional<bool>& ok) { return !ok ? "n/a" : (*ok ? "met" : "MISSED"); }
std::string busbw_target(const ValidationResult& v) { return v.error.empty() ? target_word(v.busbw_ok()) : "NOT RUN"; }

std::string busbw_summary(const ValidationResult& v) {
  const ErrorSummary& s = v.busbw;
  if (!s.median_abs_pct) return "busbw: no compared row >= 64 KiB";
  std::string at = s.max_at_label.empty() ? to_string(Bytes(s.max_at_size)) : s.max_at_label;
  return fmt::format("busbw |error| over {} rows >= 64 KiB: median {:.1f}%, max {:.1f}% (at {}) [target <= {:.0f}%: {}]",
                     s.counted, *s.median_abs_pct, *s.max_abs_pct, at, kBusbwTargetPct, target_word(v.busbw_ok()));
}

std::string mid_summary(const ValidationResult& v) {
  const ErrorSummary& s = v.mid;
  if (!s.median_abs_pct) return "64 KiB-1 MiB: no compared row";
  return fmt::format("64 KiB-1 MiB: busbw |error| over {} rows: median {:.1f}%, max {:.1f}% (at {})", s.counted,
                     *s.median_abs_pct, *s.max_abs_pct, to_string(Bytes(s.max_at_size)));
}

std::string floor_summary(const ValidationResult& v) {
  if (!v.floor) return "latency floor: n/a (smallest size above 4 KiB)";
  const LatencyFloor& f = *v.floor;
  return fmt::format("latency floor at {}: measured {:.2f} us, predicted {:.2f} us, {} [target <= {:.0f}%: {}]",
                     to_string(Bytes(f.size)), f.measured_us, f.predicted_us, pct(f.error_pct), kFloorTargetPct,
                     target_word(v.floor_ok()));
}

std::string fit_text(const ValidationResult& v) {
  if (v.held_out()) return "held out";
  std::string s = "fitted:";
  for (const auto& c : v.dataset.fitted) s += " " + c;
  return s;
}

// Failure messages, each once, in row order.
std::vector<std::string> distinct_failures(const ValidationResult& v) {
  std::vector<std::string> out;
  for (const auto& r : v.rows)
    if (!r.failed.empty() && std::find(out.begin(), out.end(), r.failed) == out.end()) out.push_back(r.failed);
  return out;
}

std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

std::string md_cell(std::string s) {
  s = one_line(std::move(s));
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else out += c;
  }
  return out;
}

}  // namespace

std::string report_text(const ValidationReport& rep) {
  std::string out;
  for (const auto& v : rep.results) {
    const DatasetSpec& d = v.dataset;
    out += fmt::format("{}  ({}, {} ranks on {}{})\n", d.name, to_string(d.collective), ranks_text(v), v.cluster_name,
                       forced_text(d).empty() ? "" : ", " + forced_text(d));
    out += "  file: " + d.file + (d.title.empty() ? "" : "  table: " + d.title) + "\n";
    if (!d.note.empty()) out += "  note: " + d.note + "\n";
    if (!env_text(d).empty()) out += "  env: " + env_text(d) + "\n";
    TextTable t({d.layout == TableLayout::ScalingSummary ? "run" : ">size", ">meas us", ">pred us", ">meas busbw",
                 ">pred busbw", ">error", "algo/proto"});
    for (const auto& r : v.rows)
      t.add({row_key(r), usec(r.measured_us), usec(r.predicted_us), gbps(r.measured_busbw),
             r.compared() ? gbps(r.predicted_busbw) : "-", row_error(r), choice(r)});
    out += t.render();
    for (const auto& r : v.rows)
      if (!r.skipped.empty()) out += "  skipped " + row_key(r) + ": " + r.skipped + "\n";
    for (const auto& f : distinct_failures(v)) out += "  failed: " + one_line(f) + "\n";
    for (const auto& w : v.warnings) out += "  warning: " + w + "\n";
    out += "  " + busbw_summary(v) + "\n  " + mid_summary(v) + "\n  " + floor_summary(v) + "\n  " + fit_text(v) + "\n\n";
  }
  out += fmt::format("Overall (model {}; targets: median |busbw error| <= {:.0f}% for sizes >= 64 KiB, latency floor "
                     "within {:.0f}%)\n",
                     rep.model, kBusbwTargetPct, kFloorTargetPct);
  TextTable t({"data set", ">ranks", ">rows", ">median", ">max", ">64K-1M", ">floor", "busbw", "floor", "calibration"});
  for (const auto& v : rep.results)
    t.add({v.dataset.name, v.nranks ? std::to_string(v.nranks) : "2..8", std::to_string(v.busbw.counted),
           abs_pct(v.busbw.median_abs_pct), abs_pct(v.busbw.max_abs_pct), abs_pct(v.mid.median_abs_pct),
           v.floor ? pct(v.floor->error_pct) : "n/a",
           busbw_target(v), target_word(v.floor_ok()), fit_text(v)});
  out += t.render();
  for (const auto& f : rep.unlisted_files) out += "  not in the manifest: " + f + "\n";
  return out;
}

std::string report_markdown(const ValidationReport& rep) {
  std::string o;
  o += "# Accuracy against measured clusters\n\n";
  o += "<!-- Generated file: do not edit by hand. -->\n";
  o += "Generated, not hand-typed: `scripts/gen_accuracy.sh` runs `build/cli/gpufabric validate --format markdown > "
       "docs/accuracy.md`. The data sets, their clusters and documented outliers are in `" + rep.manifest +
       "` and `validation/clusters/`; the measured tables are `../shared/validation/measured/`, and `validation/measured/` for the "
       "entries with `dir: measured`.\n\n";
  o += fmt::format("Model: **{}**. Targets: median |busbw error| at most {:.0f}% for sizes >= 64 KiB on every data set, "
                   "and the latency floor (the smallest size, when it is at most 4 KiB) within {:.0f}%.\n\n",
                   rep.model, kBusbwTargetPct, kFloorTargetPct);
  o += "## How the numbers are computed\n\n"
       "- Each table is predicted on its cluster file with the same collective, element type, ranks (nodes x GPUs "
       "per node, GPUs 0..g-1 of servers 0..n-1) and, where the run forced them, algorithm and protocol.\n"
       "- Measured busbw = size / out-of-place time x nccl-tests' factor for the rank count (the printed busbw "
       "without its rounding); the prose summary gives busbw only.\n"
       "- Error = predicted busbw / measured busbw - 1, so **+ means the model is optimistic** (predicts a shorter "
       "time). Per data set: median and max of |error| over rows >= 64 KiB that are neither skipped (documented "
       "outliers) nor failed; the median of an even count is the mean of the middle two. The same statistic over "
       "64 KiB-1 MiB alone has its own column, since that is where latency and pipelining errors live.\n"
       "- Latency floor error = predicted time / measured time - 1 at the smallest size.\n\n";
  o += "## Calibration: fitted constants and held-out sets\n\n";
  if (rep.calibration.empty()) {
    o += "No model constant is fitted to measured data: every data set is held out.\n\n";
  } else {
    o += "| constant | where | fitted to | note |\n|---|---|---|---|\n";
    for (const auto& c : rep.calibration) {
      std::string sets;
      for (const auto& s : c.fitted_to) sets += (sets.empty() ? "" : ", ") + s;
      o += "| " + md_cell(c.constant) + " | `" + md_cell(c.where) + "` | " + (sets.empty() ? "(none named)" : sets) +
           " | " + md_cell(c.note) + " |\n";
    }
    o += "\nEvery data set not listed under *fitted to* is held out (the *calibration* column below).\n\n";
  }
  o += "## Summary\n\n";
  o += "| data set | collective | ranks | rows >= 64 KiB | median \\|error\\| | max \\|error\\| | "
       "median \\|error\\| 64 KiB-1 MiB (rows) | latency floor | busbw target | floor target | calibration |\n"
       "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& v : rep.results)
    o += fmt::format("| [{}](#{}) | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", v.dataset.name, v.dataset.name,
                     to_string(v.dataset.collective), ranks_text(v), v.busbw.counted, abs_pct(v.busbw.median_abs_pct),
                     abs_pct(v.busbw.max_abs_pct),
                     v.mid.counted ? abs_pct(v.mid.median_abs_pct) + " (" + std::to_string(v.mid.counted) + ")" : "n/a",
                     v.floor ? pct(v.floor->error_pct) : "n/a", busbw_target(v),
                     target_word(v.floor_ok()), fit_text(v));
  if (!rep.unlisted_files.empty()) {
    o += "\nMeasured files the manifest does not use:\n\n";
    for (const auto& f : rep.unlisted_files) o += "- `" + f + "`\n";
  }
  o += "\n## Per data set\n";
  for (const auto& v : rep.results) {
    const DatasetSpec& d = v.dataset;
    o += "\n### " + d.name + "\n\n";
    o += "- measured: `" + d.file + "`" + (d.title.empty() ? "" : ", table \"" + md_cell(d.title) + "\"") + "\n";
    o += "- cluster: `" + d.cluster + "` (" + v.cluster_name + "); " + to_string(d.collective) + ", " + ranks_text(v) +
         " ranks" + (forced_text(d).empty() ? "" : ", " + forced_text(d)) + "\n";
    if (!d.note.empty()) o += "- note: " + md_cell(d.note) + "\n";
    if (!env_text(d).empty()) o += "- env: " + md_cell(env_text(d)) + "\n";
    for (const auto& w : v.warnings) o += "- warning: " + md_cell(w) + "\n";
    for (const auto& r : v.rows)
      if (!r.skipped.empty()) o += "- skipped " + row_key(r) + ": " + md_cell(r.skipped) + "\n";
    for (const auto& f : distinct_failures(v)) o += "- could not predict: " + md_cell(f) + "\n";
    o += "- " + busbw_summary(v) + "\n- " + mid_summary(v) + "\n- " + floor_summary(v) + "\n- " + fit_text(v) + "\n\n";
    o += std::string("| ") + (d.layout == TableLayout::ScalingSummary ? "run" : "size") +
         " | measured busbw (GB/s) | predicted busbw (GB/s) | error | measured time (us) | predicted time (us) | "
         "algorithm/protocol |\n|---|---:|---:|---:|---:|---:|---|\n";
    for (const auto& r : v.rows)
      o += "| " + row_key(r) + " | " + gbps(r.measured_busbw) + " | " + (r.compared() ? gbps(r.predicted_busbw) : "-") +
           " | " + row_error(r) + " | " + usec(r.measured_us) + " | " + usec(r.predicted_us) + " | " + choice(r) + " |\n";
  }
  return o;
}

nlohmann::json report_json(const ValidationReport& rep) {
  nlohmann::json j;
  j["model"] = rep.model;
  j["manifest"] = rep.manifest;
  j["targets"] = {{"busbw_median_abs_pct", kBusbwTargetPct}, {"busbw_min_size", kBusbwMinSize},
                  {"floor_abs_pct", kFloorTargetPct}, {"floor_max_size", kFloorMaxSize}};
  j["calibration"] = nlohmann::json::array();
  for (const auto& c : rep.calibration)
    j["calibration"].push_back({{"constant", c.constant}, {"where", c.where}, {"fitted_to", c.fitted_to}, {"note", c.note}});
  j["datasets"] = nlohmann::json::array();
  auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  for (const auto& v : rep.results) {
    const DatasetSpec& d = v.dataset;
    nlohmann::json e = {{"name", d.name}, {"file", d.file}, {"title", d.title}, {"cluster", d.cluster},
                        {"cluster_name", v.cluster_name}, {"collective", to_string(d.collective)},
                        {"nodes", d.nodes}, {"gpus_per_node", d.gpus_per_node}, {"nranks", v.nranks},
                        {"algo", d.algo}, {"proto", d.proto}, {"note", d.note}, {"held_out", v.held_out()},
                        {"fitted", d.fitted}, {"warnings", v.warnings}, {"error", v.error}};
    e["busbw"] = {{"counted", v.busbw.counted}, {"median_abs_pct", opt(v.busbw.median_abs_pct)},
                  {"max_abs_pct", opt(v.busbw.max_abs_pct)}, {"max_at_size", v.busbw.max_at_size},
                  {"target_met", v.busbw_ok() ? nlohmann::json(*v.busbw_ok()) : nlohmann::json(nullptr)}};
    e["busbw_64k_1m"] = {{"counted", v.mid.counted}, {"median_abs_pct", opt(v.mid.median_abs_pct)},
                         {"max_abs_pct", opt(v.mid.max_abs_pct)}, {"max_at_size", v.mid.max_at_size}};
    if (v.floor)
      e["latency_floor"] = {{"size", v.floor->size}, {"measured_us", v.floor->measured_us},
                            {"predicted_us", v.floor->predicted_us}, {"error_pct", v.floor->error_pct},
                            {"target_met", *v.floor_ok()}};
    else e["latency_floor"] = nullptr;
    e["rows"] = nlohmann::json::array();
    for (const auto& r : v.rows) {
      nlohmann::json row = {{"size", r.size}, {"line", r.line}, {"nranks", r.nranks},
                            {"measured_us", r.measured_us}, {"measured_busbw", r.measured_busbw}};
      if (!r.label.empty()) row["label"] = r.label;
      if (r.compared()) {
        row["predicted_us"] = r.predicted_us;
        row["predicted_busbw"] = r.predicted_busbw;
        row["error_pct"] = r.error_pct;
        row["algorithm"] = r.algorithm;
        row["protocol"] = r.protocol;
        row["channels"] = r.channels;
      }
      if (!r.skipped.empty()) row["skipped"] = r.skipped;
      if (!r.failed.empty()) row["failed"] = r.failed;
      e["rows"].push_back(row);
    }
    j["datasets"].push_back(e);
  }
  j["unlisted_files"] = rep.unlisted_files;
  return j;
}

}  // namespace gf
