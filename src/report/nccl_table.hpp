// A simulated sweep rendered the way nccl-tests prints a measured one, so the two can be put side
// by side (or diffed) and read by the same scripts. The layout follows current nccl-tests
// (NVIDIA/nccl-tests src/util.cu, described in ../shared/validation/formats/
// nccl-tests-output-format.md): three header lines, one row per size with out-of-place and
// in-place halves, and the `# Avg bus bandwidth` footer. What gpufabric adds (the algorithm,
// protocol and channels chosen per size) comes after nccl-tests' own columns or in `#` lines,
// so tools that take the first 13 fields of a row still find them where they expect.
//
// Current nccl-tests differs from older logs (such as most in ../shared/validation/measured/) in
// two cosmetic ways this follows: #wrong is a 6-wide cell ("  %6g", so the header reads
// "busbw  #wrong"), and numbers take two decimals whenever they fit (older builds printed times
// of 100 us and up with one). Whitespace-splitting readers see no difference. Trailing blanks that
// nccl-tests pads some lines with are left out.
//
// The simulation is deterministic and does not move data: in-place time equals out-of-place
// time and #wrong is 0, except where nccl-tests prints N/A (the in-place half of alltoall and
// sendrecv, which it does not check).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "workload/sweep.hpp"

namespace gf {

// Who ran the sweep and where: the preamble and the JSON config say it.
struct PerfContext {
  std::string cluster;               // cluster name as resolved ("dgx-h100-2node")
  std::string gpu;                   // GPU model ("H100-SXM5-80GB"); may be empty
  int nranks = 0, nnodes = 0, ppn = 0;
  std::vector<std::string> nccl;     // `# nccl:` lines: NCCL settings applied, in-network reductions on/off
  std::vector<std::string> notes;    // extra `#` lines (e.g. algorithms unavailable under auto)
};

// nccl-tests' number cell: `value` right-aligned in `width` characters with two decimals, or one,
// or none, or in exponent form, whichever is the first to fit (1234.5 in 6 is "1234.5", 12345.6 is
// " 12346", 1234567 is " 1e+06"). Where nccl-tests counts digits before rounding and so overflows
// its width by one (999.999 in 6 -> "1000.00"), this picks the next form that fits ("1000.0").
std::string nccl_number(double value, int width);

// Mean busbw over all rows and both halves, as nccl-tests' `# Avg bus bandwidth` (0 if no rows).
double average_busbw(const std::vector<SweepRow>& rows);

// The printed redop ("none" for data-movement collectives) and root (-1 when not rooted).
std::string nccl_redop(const SweepOptions& o);
int nccl_root(const SweepOptions& o);
// Whether nccl-tests checks (and so counts #wrong for) the in-place half of this collective.
bool nccl_checks_in_place(CollectiveKind k);

// The whole text report: preamble, header, rows (+ algo proto nch), footer.
std::string nccl_table_text(const SweepOptions& o, const PerfContext& ctx, const std::vector<SweepRow>& rows);
// nccl-tests -J shape: config, results[{size, count, type, redop, root, out_of_place{time, alg_bw,
// bus_bw, nwrong}, in_place{...}, algorithm, protocol, channels, note}], out_of_bounds,
// average_bus_bandwidth; plus "simulated": true. Keys keep this order. nccl-tests writes root as
// the padded text of its cell; here it is a number.
nlohmann::ordered_json nccl_table_json(const SweepOptions& o, const PerfContext& ctx, const std::vector<SweepRow>& rows);
// One header line, one line per size; full-precision numbers, empty cell for N/A.
std::string nccl_table_csv(const SweepOptions& o, const std::vector<SweepRow>& rows);

}  // namespace gf
