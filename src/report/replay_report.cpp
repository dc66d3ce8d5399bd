#include "report/replay_report.hpp"

#include <fmt/format.h>

#include "report/table.hpp"

namespace gf {

namespace {

std::string seconds(double s) { return fmt::format("{:.6f}", s); }

}  // namespace

std::string replay_text(const ReplayResult& r, const std::string& cluster) {
  std::string o;
  o += fmt::format("# replay: {} trace {} ({} ranks, {} nodes) on {}, {} network model\n", r.format, r.source, r.ranks,
                   r.nodes, cluster, r.network_model);
  for (const std::string& n : r.notes) o += "# note: " + n + "\n";
  o += "\n";
  TextTable t({"", ">simulated s", ">recorded s"});
  t.add({"iteration", seconds(r.iteration_s), r.recorded_iteration_s ? seconds(*r.recorded_iteration_s) : "-"});
  t.add({"compute per rank", seconds(r.compute_s), seconds(r.recorded_compute_s)});
  o += t.render();
  o += fmt::format("slowest rank: {}\n", r.ranks > 0 ? r.slowest_rank : 0);
  if (!r.comm.empty()) {
    o += "\ncommunication per rank (mean over ranks; a collective's time counted on each rank that runs it):\n";
    TextTable c({"collective", ">calls", ">bytes per call", ">simulated s", ">recorded s"});
    const double nr = static_cast<double>(r.ranks);
    for (const ReplayCommStats& s : r.comm)
      c.add({s.collective, fmt::format("{:g}", static_cast<double>(s.calls) / nr),
             fmt::format("{:.0f}", s.calls ? s.bytes / static_cast<double>(s.calls) : 0.0), seconds(s.simulated_s / nr),
             seconds(s.recorded_s / nr)});
    o += c.render();
  }
  return o;
}

nlohmann::ordered_json replay_json(const ReplayResult& r, const std::string& cluster) {
  nlohmann::ordered_json j;
  const double nr = r.ranks > 0 ? static_cast<double>(r.ranks) : 1.0;
  j["format"] = r.format;
  j["source"] = r.source;
  j["cluster"] = cluster;
  j["network_model"] = r.network_model;
  j["ranks"] = r.ranks;
  j["nodes"] = r.nodes;
  j["gpu_ratio"] = r.gpu_ratio;
  j["iteration_s"] = r.iteration_s;
  j["recorded_iteration_s"] = r.recorded_iteration_s ? nlohmann::ordered_json(*r.recorded_iteration_s) : nullptr;
  j["slowest_rank"] = r.slowest_rank;
  j["compute_s"] = r.compute_s;
  j["recorded_compute_s"] = r.recorded_compute_s;
  nlohmann::ordered_json comm = nlohmann::ordered_json::array();
  for (const ReplayCommStats& s : r.comm) {
    nlohmann::ordered_json c;
    c["collective"] = s.collective;
    c["calls_per_rank"] = static_cast<double>(s.calls) / nr;
    c["bytes_per_call"] = s.calls ? s.bytes / static_cast<double>(s.calls) : 0.0;
    c["simulated_s"] = s.simulated_s / nr;
    c["recorded_s"] = s.recorded_s / nr;
    comm.push_back(c);
  }
  j["communication"] = comm;
  j["collectives_timed"] = r.timed;
  j["notes"] = r.notes;
  return j;
}

}  // namespace gf
