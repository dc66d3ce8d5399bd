#include "report/nccl_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

namespace gf {

namespace {

// Cells of the extra columns; a zero-size row was not tuned and shows dashes.
std::string algo_cell(const SweepRow& r) { return r.choice.algorithm.empty() ? "-" : r.choice.algorithm; }
std::string proto_cell(const SweepRow& r) { return r.choice.algorithm.empty() ? "-" : to_string(r.choice.proto); }
std::string channels_cell(const SweepRow& r) {
  return r.choice.algorithm.empty() ? "-" : std::to_string(r.choice.channels);
}

std::string program_name(const SweepOptions& o) { return std::string(to_string(o.call.kind)) + "_perf"; }

std::string step_text(const SweepOptions& o) {
  // nccl-tests: "step: <n>(factor)" or "step: <n>(bytes)".
  return o.step_bytes > 0 ? fmt::format("{}(bytes)", o.step_bytes) : fmt::format("{:g}(factor)", o.factor);
}

// Lines like "# note (8 B .. 4096 B, 10 sizes): ..." for each distinct per-size note, in the order
// they first appear, so a fallback the tuner made is visible without a column of repeated text.
// The algorithms and protocols the sweep was allowed, as NCCL_ALGO / NCCL_PROTO would say them.
std::string algo_setting(const SweepOptions& o) {
  if (o.algo != "auto" || o.nccl.algorithms.empty()) return o.algo;
  std::string s;
  for (const auto& a : o.nccl.algorithms) s += (s.empty() ? "" : ",") + a;
  return s;
}
std::string proto_setting(const SweepOptions& o) {
  if (o.proto != "auto" || o.nccl.protocols.empty()) return o.proto;
  std::string s;
  for (Protocol p : o.nccl.protocols) s += (s.empty() ? "" : ",") + std::string(to_string(p));
  return s;
}

std::vector<std::string> row_notes(const std::vector<SweepRow>& rows) {
  struct Span {
    std::string note;
    int64_t first = 0, last = 0;
    int count = 0;
  };
  std::vector<Span> spans;
  for (const auto& r : rows) {
    if (r.choice.note.empty()) continue;
    auto it = std::find_if(spans.begin(), spans.end(), [&](const Span& s) { return s.note == r.choice.note; });
    if (it == spans.end()) spans.push_back({r.choice.note, r.size.count(), r.size.count(), 1});
    else it->last = r.size.count(), ++it->count;
  }
  std::vector<std::string> out;
  for (const auto& s : spans)
    out.push_back(s.count == 1 ? fmt::format("note ({} B): {}", s.first, s.note)
                               : fmt::format("note ({} B .. {} B, {} sizes): {}", s.first, s.last, s.count, s.note));
  return out;
}

std::string rstrip(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// CSV cell: quoted when it holds a comma, quote or newline.
std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string nccl_number(double value, int width) {
  if (!std::isfinite(value)) return fmt::format("{:>{}}", std::isnan(value) ? "nan" : "inf", width);
  char buf[64];
  for (int decimals : {2, 1, 0}) {
    int n = std::snprintf(buf, sizeof buf, "%*.*f", width, decimals, value);
    if (n <= width) return buf;
  }
  // Too many digits for fixed notation: nccl-tests switches to one decimal of mantissa in wide
  // cells (time, 7) and none in narrow ones (bandwidths, 6).
  std::snprintf(buf, sizeof buf, "%*.*e", width, width >= 7 ? 1 : 0, value);
  return buf;
}

double average_busbw(const std::vector<SweepRow>& rows) {
  if (rows.empty()) return 0;
  // nccl-tests adds each half's busbw and divides by the number of halves timed; both halves
  // have the same time here, so this is also the mean over rows.
  double sum = 0;
  for (const auto& r : rows) sum += 2 * r.busbw_gBps;
  return sum / static_cast<double>(2 * rows.size());
}

std::string nccl_redop(const SweepOptions& o) {
  // nccl-tests prints the op for reductions and for sendrecv (which loops over ops like a
  // reduction although it does not reduce); data-movement collectives print "none".
  return is_reduction(o.call.kind) || o.call.kind == CollectiveKind::SendRecv ? o.call.redop : "none";
}

int nccl_root(const SweepOptions& o) { return is_rooted(o.call.kind) ? o.call.root : -1; }

bool nccl_checks_in_place(CollectiveKind k) {
  // nccl-tests alltoall.cu and sendrecv.cu: "We don't support in-place" -> reportErrors = 0.
  return k != CollectiveKind::AllToAll && k != CollectiveKind::SendRecv;
}

std::string nccl_table_text(const SweepOptions& o, const PerfContext& ctx, const std::vector<SweepRow>& rows) {
  std::string out;
  auto line = [&](const std::string& s) { out += rstrip(s) + "\n"; };
  const std::string redop = nccl_redop(o);
  const int root = nccl_root(o);
  const bool in_place_checked = nccl_checks_in_place(o.call.kind);

  // Preamble: what was simulated, on what, with which settings.
  line(fmt::format("# gpufabric perf {} on {}: {} ranks = {} server{} x {} GPU{}{}", to_string(o.call.kind), ctx.cluster,
                   ctx.nranks, ctx.nnodes, ctx.nnodes == 1 ? "" : "s", ctx.ppn, ctx.ppn == 1 ? "" : "s",
                   ctx.gpu.empty() ? "" : " (" + ctx.gpu + ")"));
  line(fmt::format("# SIMULATED with the {} model ({} routing), not measured: no GPU ran; in-place time = "
                   "out-of-place time, #wrong = 0 (no data moved)", o.model, to_string(o.routing)));
  line(fmt::format("# {}  minBytes {} maxBytes {} step: {} datatype {} op {} root {} algo {} proto {} seed {}",
                   program_name(o), o.min_bytes.count(), o.max_bytes.count(), step_text(o), o.call.type.name, redop,
                   root, algo_setting(o), proto_setting(o), o.seed));
  for (const auto& n : ctx.nccl) line("# nccl: " + n);
  for (const auto& n : ctx.notes) line("# note: " + n);
  for (const auto& n : row_notes(rows)) line("# " + n);

  // Header: nccl-tests' three lines (current layout: "#wrong" in a 6-wide cell), then ours.
  size_t aw = 4;
  for (const auto& r : rows) aw = std::max(aw, algo_cell(r).size());
  line("#");
  line(fmt::format("# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}           out-of-place                       in-place", "", "",
                   "", "", ""));
  line(fmt::format("# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}  {:>7}  {:>6}  {:>6}  {:>6}  {:>7}  {:>6}  {:>6}  {:>6}"
                   "  {:>{}}  {:>6}  {:>3}",
                   "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw",
                   "busbw", "#wrong", "algo", aw, "proto", "nch"));
  line(fmt::format("# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}  {:>7}  {:>6}  {:>6}  {:>6}  {:>7}  {:>6}  {:>6}  {:>6}",
                   "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", ""));

  for (const auto& r : rows) {
    std::string s = fmt::format("{:>12}  {:>12}  {:>8}  {:>6}  {:>6}", r.size.count(), r.count, o.call.type.name, redop,
                                root);
    const std::string t = nccl_number(r.time.to_us(), 7), a = nccl_number(r.algbw_gBps, 6),
                      b = nccl_number(r.busbw_gBps, 6);
    for (bool checked : {true, in_place_checked}) {
      s += fmt::format("  {}  {}  {}", t, a, b);
      // nccl-tests prints an unchecked half's #wrong as "    N/A", one column short of "  %6g".
      s += checked ? fmt::format("  {:>6}", 0) : std::string("    N/A");
    }
    s += fmt::format("  {:>{}}  {:>6}  {:>3}", algo_cell(r), aw, proto_cell(r), channels_cell(r));
    line(s);
  }

  line("# Out of bounds values : 0 OK");
  line(fmt::format("# Avg bus bandwidth    : {:g}", average_busbw(rows)));
  line("#");
  return out;
}

nlohmann::ordered_json nccl_table_json(const SweepOptions& o, const PerfContext& ctx, const std::vector<SweepRow>& rows) {
  nlohmann::ordered_json config = {
      {"program", program_name(o)},
      {"collective", to_string(o.call.kind)},
      {"cluster", ctx.cluster},
      {"gpu", ctx.gpu},
      {"nranks", ctx.nranks},
      {"nnodes", ctx.nnodes},
      {"gpus_per_node", ctx.ppn},
      {"minimum_bytes", o.min_bytes.count()},
      {"maximum_bytes", o.max_bytes.count()},
      {"datatype", o.call.type.name},
      {"redop", nccl_redop(o)},
      {"root", nccl_root(o)},
      {"algorithm", o.algo},
      {"protocol", o.proto},
      {"model", o.model},
      {"routing", std::string(to_string(o.routing))},
      {"seed", o.seed},
  };
  if (o.step_bytes > 0) config["step_bytes"] = o.step_bytes;
  else config["step_factor"] = o.factor;

  const bool in_place_checked = nccl_checks_in_place(o.call.kind);
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const auto& r : rows) {
    auto half = [&](bool checked) {
      return nlohmann::ordered_json{{"time", r.time.to_us()},
                            {"alg_bw", r.algbw_gBps},
                            {"bus_bw", r.busbw_gBps},
                            {"nwrong", checked ? nlohmann::ordered_json(0) : nlohmann::ordered_json(nullptr)}};
    };
    nlohmann::ordered_json e = {{"size", r.size.count()},
                        {"count", r.count},
                        {"type", o.call.type.name},
                        {"redop", nccl_redop(o)},
                        {"root", nccl_root(o)},
                        {"out_of_place", half(true)},
                        {"in_place", half(in_place_checked)}};
    if (r.choice.algorithm.empty()) {
      e["algorithm"] = nullptr, e["protocol"] = nullptr, e["channels"] = nullptr;
    } else {
      e["algorithm"] = r.choice.algorithm;
      e["protocol"] = to_string(r.choice.proto);
      e["channels"] = r.choice.channels;
    }
    if (!r.choice.note.empty()) e["note"] = r.choice.note;
    results.push_back(std::move(e));
  }
  return {{"simulated", true},
          {"generator", "gpufabric perf"},
          {"config", config},
          {"nccl", ctx.nccl},
          {"notes", ctx.notes},
          {"results", results},
          {"out_of_bounds", {{"count", 0}, {"okay", true}}},
          {"average_bus_bandwidth", {{"bandwidth", average_busbw(rows)}, {"okay", "unchecked"}}}};
}

std::string nccl_table_csv(const SweepOptions& o, const std::vector<SweepRow>& rows) {
  std::string out =
      "size,count,type,redop,root,time_us,algbw_GBps,busbw_GBps,nwrong,"
      "in_place_time_us,in_place_algbw_GBps,in_place_busbw_GBps,in_place_nwrong,algorithm,protocol,channels,note\n";
  const std::string redop = nccl_redop(o);
  const bool in_place_checked = nccl_checks_in_place(o.call.kind);
  for (const auto& r : rows) {
    // Shortest text that reads back to the same double.
    std::string half = fmt::format("{},{},{}", r.time.to_us(), r.algbw_gBps, r.busbw_gBps);
    bool tuned = !r.choice.algorithm.empty();
    out += fmt::format("{},{},{},{},{},{},0,{},{},{},{},{},{}\n", r.size.count(), r.count, o.call.type.name, redop,
                       nccl_root(o), half, half, in_place_checked ? "0" : "", tuned ? r.choice.algorithm : "",
                       tuned ? to_string(r.choice.proto) : "", tuned ? std::to_string(r.choice.channels) : "",
                       csv_cell(r.choice.note));
  }
  return out;
}

}  // namespace gf
