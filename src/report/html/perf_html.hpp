// `gpufabric perf ... --html FILE`: the sweep as a page: the run's facts, busbw and time against
// size (one curve per algorithm/protocol the choice had, NCCL's automatic choice drawn on top and
// coloured by what it picked), and the nccl-tests table.
#pragma once

#include <string>
#include <vector>

#include "report/html/html_page.hpp"
#include "report/nccl_table.hpp"
#include "workload/sweep.hpp"

namespace gf::html {

std::string perf_html(const SweepOptions& o, const PerfContext& ctx, const std::vector<SweepRow>& rows,
                      const ReportMeta& meta);

}  // namespace gf::html
