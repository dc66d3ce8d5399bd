#include "report/param_sweep_report.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "core/protocol.hpp"

namespace gf {
namespace {

// Per-size columns after the swept keys; none shares a name with a sweepable key (algo, proto).
const std::vector<std::string> kColumns = {"nranks", "size", "count", "time_us", "algbw_GBps", "busbw_GBps",
                                           "algorithm", "protocol", "channels"};

std::vector<std::string> cells(const ParamPointResult& p, const SweepRow& r, bool full_precision) {
  auto num = [&](double v) { return full_precision ? fmt::format("{}", v) : fmt::format("{:.2f}", v); };
  return {std::to_string(p.nranks), std::to_string(r.size.count()), std::to_string(r.count), num(r.time.to_us()),
          num(r.algbw_gBps), num(r.busbw_gBps), r.choice.algorithm, to_string(r.choice.proto),
          std::to_string(r.choice.channels)};
}

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// A swept value as JSON: a number when the whole text is one, else the text.
nlohmann::ordered_json value_json(const std::string& v) {
  const char* end = v.data() + v.size();
  int64_t i = 0;
  if (auto [p, ec] = std::from_chars(v.data(), end, i); ec == std::errc() && p == end && !v.empty()) return i;
  double d = 0;
  if (auto [p, ec] = std::from_chars(v.data(), end, d); ec == std::errc() && p == end && !v.empty()) return d;
  return v;
}

}  // namespace

std::string param_sweep_text(const ParamSweepTable& t) {
  std::vector<std::string> header = t.keys;
  header.insert(header.end(), kColumns.begin(), kColumns.end());
  std::vector<std::vector<std::string>> body;
  for (size_t i = 0; i < t.results.size(); ++i)
    for (const SweepRow& r : t.results[i].rows) {
      std::vector<std::string> row = t.values[i];
      for (auto& c : cells(t.results[i], r, false)) row.push_back(std::move(c));
      body.push_back(std::move(row));
    }
  std::vector<size_t> width(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& row : body) width[c] = std::max(width[c], row[c].size());
  }
  // The first column has the "# " of the header's comment mark in front of it.
  auto line = [&](const std::vector<std::string>& row, bool comment) {
    std::string s = comment ? "# " : "  ";
    for (size_t c = 0; c < row.size(); ++c) s += (c ? "  " : "") + fmt::format("{:>{}}", row[c], width[c]);
    return s + "\n";
  };
  std::string out = "# gpufabric sweep: " + t.title + ", " + std::to_string(t.results.size()) + " point" +
                    (t.results.size() == 1 ? "" : "s") + "\n";
  out += "# SIMULATED, not measured: one row per (point, size); time of one call, bandwidths in GB/s (1e9 B/s)\n";
  out += line(header, true);
  for (const auto& row : body) out += line(row, false);
  return out;
}

std::string param_sweep_csv(const ParamSweepTable& t) {
  std::string out;
  std::vector<std::string> header = t.keys;
  header.insert(header.end(), kColumns.begin(), kColumns.end());
  for (size_t c = 0; c < header.size(); ++c) out += (c ? "," : "") + csv_cell(header[c]);
  out += "\n";
  for (size_t i = 0; i < t.results.size(); ++i)
    for (const SweepRow& r : t.results[i].rows) {
      std::vector<std::string> row = t.values[i];
      for (auto& c : cells(t.results[i], r, true)) row.push_back(std::move(c));
      for (size_t c = 0; c < row.size(); ++c) out += (c ? "," : "") + csv_cell(row[c]);
      out += "\n";
    }
  return out;
}

nlohmann::ordered_json param_sweep_json(const ParamSweepTable& t) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (size_t i = 0; i < t.results.size(); ++i) {
    const ParamPointResult& p = t.results[i];
    for (const SweepRow& r : p.rows) {
      nlohmann::ordered_json row;
      for (size_t k = 0; k < t.keys.size(); ++k) row[t.keys[k]] = value_json(t.values[i][k]);
      row["nranks"] = p.nranks;
      row["nnodes"] = p.nnodes;
      row["gpus_per_node"] = p.ppn;
      row["size"] = r.size.count();
      row["count"] = r.count;
      row["time_us"] = r.time.to_us();
      row["algbw_GBps"] = r.algbw_gBps;
      row["busbw_GBps"] = r.busbw_gBps;
      row["algorithm"] = r.choice.algorithm;
      row["protocol"] = to_string(r.choice.proto);
      row["channels"] = r.choice.channels;
      if (!r.choice.note.empty()) row["note"] = r.choice.note;
      rows.push_back(std::move(row));
    }
  }
  return {{"sweep", {{"title", t.title}, {"keys", t.keys}, {"points", t.results.size()}}}, {"rows", rows}};
}

}  // namespace gf
