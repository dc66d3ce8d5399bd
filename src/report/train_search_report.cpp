#include "report/train_search_report.hpp"

#include <fmt/format.h>

#include "report/table.hpp"
#include "report/train_report.hpp"

namespace gf {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::string summary(const SearchResult& r, const std::string& net) {
  return fmt::format(
      "{} layouts divide, {} fit memory; priced with a closed-form network ({} analytical calibration runs); the best "
      "{} run on the {} network model",
      r.layouts, r.fit, r.measurements, r.refined.size(), net);
}

nlohmann::ordered_json candidate_json(const SearchCandidate& c) {
  const TrainLayout& l = c.layout;
  return {{"tp", l.tp},
          {"cp", l.cp},
          {"pp", l.pp},
          {"dp", l.dp},
          {"ep", l.ep},
          {"vpp", l.vpp},
          {"micro_batch", l.micro_batch},
          {"recompute", to_string(l.recompute)},
          {"zero", l.zero},
          {"sequence_parallel", l.sequence_parallel},
          {"memory_per_gpu_bytes", c.memory_bytes},
          {"estimate_s", c.estimate_s},
          {"simulated_s", c.simulated_s > 0 ? nlohmann::ordered_json(c.simulated_s) : nlohmann::ordered_json(nullptr)}};
}

}  // namespace

std::string search_text(const SearchResult& r, const std::string& cluster, const std::string& net) {
  const TrainResult& w = r.winner;
  std::string o = fmt::format("# search: {} on {}, {} GPUs, global batch {}, sequence {}\n", w.model, cluster, w.gpus,
                              w.layout.global_batch, w.layout.seq);
  o += "# " + summary(r, net) + "\n";
  o += "\nbest layouts (closed-form estimate; simulated where refined, which ranks the refined ones):\n";
  TextTable t({">#", ">TP", ">CP", ">PP", ">DP", ">EP", ">VPP", ">micro-batch", "recompute", ">ZeRO", ">GiB/GPU", ">estimate s",
               ">simulated s"});
  int i = 0;
  for (const SearchCandidate& c : r.best) {
    const TrainLayout& l = c.layout;
    t.add({std::to_string(++i), std::to_string(l.tp), std::to_string(l.cp), std::to_string(l.pp), std::to_string(l.dp), std::to_string(l.ep), std::to_string(l.vpp),
           std::to_string(l.micro_batch), to_string(l.recompute), std::to_string(l.zero),
           fmt::format("{:.1f}", c.memory_bytes / kGiB), fmt::format("{:.4f}", c.estimate_s),
           c.simulated_s > 0 ? fmt::format("{:.4f}", c.simulated_s) : std::string("-")});
  }
  o += t.render();
  o += "\nfastest on the " + net + " network model:\n\n";
  o += train_text(w, cluster);
  return o;
}

nlohmann::ordered_json search_json(const SearchResult& r, const std::string& cluster, const std::string& net) {
  nlohmann::ordered_json j;
  nlohmann::ordered_json best = nlohmann::ordered_json::array(), refined = nlohmann::ordered_json::array();
  for (const SearchCandidate& c : r.best) best.push_back(candidate_json(c));
  for (const SearchCandidate& c : r.refined) refined.push_back(candidate_json(c));
  j["search"] = {{"gpus", r.winner.gpus},       {"layouts", r.layouts}, {"fit", r.fit},
                 {"calibration_runs", r.measurements}, {"network_model", net}, {"best", best},
                 {"refined", refined}};
  j["fastest"] = train_json(r.winner, cluster);
  return j;
}

}  // namespace gf
