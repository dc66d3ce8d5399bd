// `gpufabric perf ... --html FILE`: the sweep as a page: the run's facts, busbw and time against
// size (one curve per algorithm/protocol the choice had, NCCL's automatic choice drawn on top and
// coloured by what it picked), and the nccl-tests table.
#pragma once

#include <string>
#include <vector>

#include "report/html/html_page.hpp"
#include "report/nccl_table.hpp"
#include "report/run_links.hpp"
#include "workload/sweep.hpp"

namespace gf::html {

// One size's call, link by link (report/run_links.hpp's tiers): utilisation = payload its routes put
// on the link / (bandwidth x the call's time).
struct PerfHeat {
  Bytes size;
  std::vector<std::vector<LinkHeat>> tiers;
};

// One size's call as the engine composed its time (engine/executor.hpp): the schedule's fixed
// per-call latency (Schedule::base_latency, NCCL's base latency, paid once) and the rest, from the
// call's start to its last transfer's completion (ScheduleRun::duration less the fixed part).
struct PerfSplit {
  Bytes size;
  Time fixed, transfers;
};

// `heat`: the link heatmaps' loads; none: the page says there are none. `splits`: the time
// breakdown's bars, one per size that ran (none: the section says so).
std::string perf_html(const SweepOptions& o, const PerfContext& ctx, const std::vector<SweepRow>& rows,
                      const ReportMeta& meta, const PerfHeat* heat = nullptr,
                      const std::vector<PerfSplit>& splits = {});

}  // namespace gf::html
