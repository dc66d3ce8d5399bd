#include "report/html/train_html.hpp"

#include <algorithm>

#include "report/html/html_escape.hpp"
#include "report/number_text.hpp"
#include "report/train_report.hpp"

namespace gf::html {

namespace {

std::string td(const std::string& text, bool num = false) {
  return std::string(num ? "<td class=\"num\">" : "<td>") + escape(text) + "</td>";
}

std::string step_section(const TrainResult& r) {
  BarChart step{"bars-step", "The step on pipeline stage " + std::to_string(r.critical_stage) + " (the last to finish)",
                {train_step_bar(r)}, false};
  std::string out =
      "<p class=\"note\">The critical stage's step, phase by phase: compute, the communication left exposed on its "
      "timeline, the pipeline bubble and the optimizer; the parts add up to the step time (as train's text "
      "report). Hover a segment for its time and share.</p>\n" +
      svg_bars(step);
  out += "<table class=\"rows\">\n<tr><th>phase</th><th class=\"num\">seconds</th><th class=\"num\">share</th></tr>\n";
  for (const BarSegment& s : step.bars[0].segments)
    if (s.value > 0)
      out += "<tr>" + td(s.name) + td(fixed_text(s.value, 4), true) +
             td(fixed_text(100 * s.value / r.step_time_s, 1) + " %", true) + "</tr>\n";
  return out + "</table>\n";
}

std::string comm_section(const TrainResult& r) {
  if (r.comm.empty()) return "<p class=\"note\">No communication: one GPU, or every parallelism is 1.</p>\n";
  BarChart comm{"bars-comm", "Communication per step on one GPU, by parallelism", {}, false};
  for (const CommSummary& c : r.comm)
    comm.bars.push_back({c.parallelism + " " + c.collective,
                         {{"exposed on the critical stage", std::min(c.exposed_s, c.total_s), 2},
                          {"not exposed (overlapped with compute, or off the critical path)",
                           std::max(0.0, c.total_s - c.exposed_s), 0}}});
  return "<p class=\"note\">Per parallelism its calls per step x the time of one call (each call timed with all "
         "groups of its kind at once), split into the part exposed on the critical stage's timeline and the "
         "rest.</p>\n" +
         svg_bars(comm);
}

}  // namespace

Bar train_step_bar(const TrainResult& r) {
  const TrainBreakdown& b = r.breakdown;
  return {"step " + fixed_text(r.step_time_s, 4) + " s",
          {{"forward", b.forward_s, 0},
           {"backward", b.backward_s, 3},
           {"recompute", b.recompute_s, 4},
           {"TP communication (exposed)", b.tp_exposed_s, 1},
           {"CP K/V ring (exposed)", b.cp_exposed_s, 6},
           {"EP all-to-all (exposed)", b.ep_exposed_s, 7},
           {"pipeline bubble", b.pp_bubble_s, 9},
           {"PP sends (blocking)", b.pp_send_s, 8},
           {"DP communication (exposed)", b.dp_exposed_s, 2},
           {"compute slowed by the hidden DP reduction", b.sm_contention_s, 8},
           {"optimizer", b.optimizer_s, 5}}};
}

std::string train_html(const TrainResult& r, const std::string& cluster, const ReportMeta& meta) {
  std::vector<std::pair<std::string, std::string>> facts = {
      {"model", r.model},
      {"cluster", cluster + ": " + std::to_string(r.gpus) + " GPUs (" + r.gpu + ")"},
      {"layout", train_layout_text(r.layout)},
      {"micro-batches", std::to_string(r.microbatches) + " per pipeline per step"},
      {"step time", fixed_text(r.step_time_s, 4) + " s"},
      {"tokens/s", fixed_text(r.tokens_per_s, 0)},
      {"MFU, HFU", fixed_text(100 * r.mfu, 1) + " %, " + fixed_text(100 * r.hfu, 1) + " %"},
  };
  for (const std::string& n : r.notes) facts.push_back({"note", n});
  return page("gpufabric train " + r.model + " on " + cluster, meta,
              {{"run", "The run", facts_table(facts)},
               {"breakdown", "Time breakdown", step_section(r)},
               {"communication", "Communication", comm_section(r)}});
}

}  // namespace gf::html
