#include "report/html/perf_html.hpp"

#include <cstdio>
#include <map>

#include "core/protocol.hpp"
#include "report/html/html_escape.hpp"
#include "report/html/link_heatmaps.hpp"
#include "report/html/svg_bars.hpp"
#include "report/html/svg_chart.hpp"
#include "report/number_text.hpp"

namespace gf::html {

namespace {

std::string option_name(const std::string& algo, Protocol p) { return algo + "/" + to_string(p); }

// A dash per protocol, so that colour says the algorithm and the stroke the protocol.
std::string protocol_dash(Protocol p) {
  switch (p) {
    case Protocol::LL:
      return "2 3";
    case Protocol::LL128:
      return "7 3";
    default:
      return "";
  }
}

struct Curves {
  std::map<std::string, int> algo_colour;  // first seen, first coloured
  std::vector<std::string> order;          // option names in the order first seen
  std::map<std::string, ChartSeries> busbw, time;
};

int colour_of(Curves& c, const std::string& algo) {
  auto [it, inserted] = c.algo_colour.emplace(algo, static_cast<int>(c.algo_colour.size()));
  return it->second;
}

std::string row_tip(const SweepRow& r, const std::string& option, double busbw, Time t) {
  return option + " at " + to_string(r.size) + ": " + fixed_text(t.to_us(), 2) + " us, busbw " + fixed_text(busbw, 2) + " GB/s";
}

}  // namespace

std::string perf_html(const SweepOptions& o, const PerfContext& ctx, const std::vector<SweepRow>& rows,
                      const ReportMeta& meta, const PerfHeat* heat, const std::vector<PerfSplit>& splits) {
  const double factor = busbw_factor(o.call.kind, ctx.nranks);
  Curves c;
  ChartSeries chosen_bw{"NCCL's choice (" + o.algo + "/" + o.proto + ")", {}, 0, "", true};
  ChartSeries chosen_t = chosen_bw;
  auto add = [&](const SweepRow& r, const std::string& algo, Protocol p, Time t) {
    const std::string name = option_name(algo, p);
    const int colour = colour_of(c, algo);
    if (!c.busbw.count(name)) {
      c.order.push_back(name);
      c.busbw[name] = ChartSeries{name, {}, colour, protocol_dash(p), false};
      c.time[name] = c.busbw[name];
    }
    const double bw = t.to_s() > 0 ? static_cast<double>(r.size.count()) / t.to_s() / 1e9 * factor : 0;
    const std::string tip = row_tip(r, name, bw, t);
    c.busbw[name].points.push_back({static_cast<double>(r.size.count()), bw, tip});
    c.time[name].points.push_back({static_cast<double>(r.size.count()), t.to_us(), tip});
  };
  for (const SweepRow& r : rows) {
    if (r.size.count() == 0) continue;
    add(r, r.choice.algorithm, r.choice.proto, r.time);
    for (const OptionTime& other : r.others) add(r, other.algorithm, other.proto, other.time);
    const std::string name = option_name(r.choice.algorithm, r.choice.proto);
    const std::string tip = "chosen: " + name + ", " + std::to_string(r.choice.channels) + " channels; " +
                            fixed_text(r.time.to_us(), 2) + " us, busbw " + fixed_text(r.busbw_gBps, 2) + " GB/s";
    const int colour = colour_of(c, r.choice.algorithm);
    chosen_bw.points.push_back({static_cast<double>(r.size.count()), r.busbw_gBps, tip, colour});
    chosen_t.points.push_back({static_cast<double>(r.size.count()), r.time.to_us(), tip, colour});
  }

  Chart bw{"busbw",
           "Bus bandwidth against size",
           "size per rank (bytes, nccl-tests' size column)",
           "busbw (GB/s)",
           AxisKind::Bytes,
           AxisKind::Plain,
           {},
           {}};
  Chart tm{"time",
           "Time of one call against size",
           "size per rank (bytes)",
           "time",
           AxisKind::Bytes,
           AxisKind::Microseconds,
           {},
           {}};
  // With only the chosen option (a forced choice, or a collective with one), the choice alone.
  const bool alternatives = c.order.size() > 1;
  if (alternatives)
    for (const std::string& name : c.order) {
      bw.series.push_back(c.busbw[name]);
      tm.series.push_back(c.time[name]);
    }
  bw.series.push_back(chosen_bw);
  tm.series.push_back(chosen_t);

  std::string charts;
  charts +=
      "<p class=\"note\">The thick dark line is NCCL's choice at each size (as the table below); its marks are "
      "coloured as the algorithm chosen. ";
  charts += alternatives ? std::string(
                               "Thin lines are every other option the choice had, each simulated on the same "
                               "model (colour: algorithm; dashes: LL, long dashes: LL128, solid: Simple).")
                         : std::string("The choice had no alternative here (forced, or one option).");
  charts += " Hover a mark for its figures.</p>\n";
  charts += svg_chart(bw) + svg_chart(tm);

  std::vector<std::pair<std::string, std::string>> facts = {
      {"collective", std::string(to_string(o.call.kind))},
      {"cluster", ctx.cluster},
      {"GPU", ctx.gpu},
      {"ranks",
       std::to_string(ctx.nranks) + " (" + std::to_string(ctx.nnodes) + " servers x " + std::to_string(ctx.ppn) + ")"},
      {"datatype, op", o.call.type.name + ", " + nccl_redop(o)},
      {"algorithm, protocol", o.algo + ", " + o.proto},
      {"model", o.model},
      {"routing", std::string(to_string(o.routing))},
      {"seed", std::to_string(o.seed)},
      {"average busbw", fixed_text(average_busbw(rows), 2) + " GB/s (nccl-tests' # Avg bus bandwidth)"},
  };
  for (const std::string& n : ctx.nccl) facts.push_back({"nccl", n});
  for (const std::string& n : ctx.notes) facts.push_back({"note", n});

  std::string table =
      "<table class=\"rows\">\n<tr><th class=\"num\">size (B)</th><th class=\"num\">count</th><th class=\"num\">time "
      "(us)</th><th class=\"num\">algbw (GB/s)</th><th class=\"num\">busbw (GB/s)</th><th>algo</th><th>proto</th>"
      "<th class=\"num\">nch</th><th>note</th></tr>\n";
  for (const SweepRow& r : rows)
    table += "<tr><td class=\"num\">" + std::to_string(r.size.count()) + "</td><td class=\"num\">" +
             std::to_string(r.count) + "</td><td class=\"num\">" + fixed_text(r.time.to_us(), 2) +
             "</td><td class=\"num\">" + fixed_text(r.algbw_gBps, 2) + "</td><td class=\"num\">" + fixed_text(r.busbw_gBps, 2) +
             "</td><td>" + escape(r.choice.algorithm) + "</td><td>" +
             escape(r.size.count() ? to_string(r.choice.proto) : "") + "</td><td class=\"num\">" +
             std::to_string(r.choice.channels) + "</td><td>" + escape(r.choice.note) + "</td></tr>\n";
  table += "</table>\n";

  const std::string links =
      heat ? "<p class=\"note\">The " + escape(to_string(heat->size)) +
                 " call (NCCL's choice), one square per directed link, in link order (a server's links side by "
                 "side), coloured by its utilisation during the call: the payload its routes put on the link / "
                 "(catalog bandwidth x the call's time). Hover a square for the link and its figures. "
                 "<code>--heatmap-size</code> picks another size.</p>\n" +
                 link_heatmaps(heat->tiers)
           : "<p class=\"note\">Not included: no link loads were kept. For the busiest links over time, write a "
             "timeline with <code>--trace FILE</code> (its link counters) and open it in Perfetto.</p>\n";

  BarChart split{"bars-perf", "Each size's call: fixed latency and transfers (share of its time)", {}, true};
  for (const PerfSplit& p : splits)
    split.bars.push_back({to_string(p.size), {{"fixed per-call latency", p.fixed.to_s(), 0},
                                              {"transfers (first start to last completion)", p.transfers.to_s(), 1}}});
  const std::string breakdown =
      splits.empty()
          ? std::string("<p class=\"note\">Not included: no size ran.</p>\n")
          : "<p class=\"note\">Each size's simulated call (NCCL's choice, before any --noise iterations) is the "
            "schedule's fixed per-call latency, NCCL's base latency paid once, plus the time from the call's start to "
            "its last transfer's completion (per-step latencies, bandwidth and contention together: the model does "
            "not split those). Each bar is 100 % of its size's time; the figure after it is that time.</p>\n" +
                svg_bars(split);

  return page("gpufabric perf " + std::string(to_string(o.call.kind)) + " on " + ctx.cluster, meta,
              {{"run", "The run", facts_table(facts)},
               {"charts", "Charts", charts},
               {"breakdown", "Time breakdown", breakdown},
               {"table", "The table", table},
               {"links", "Link utilisation", links}});
}

}  // namespace gf::html
