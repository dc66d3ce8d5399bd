// Measured nccl-tests / rccl-tests output read back in: the text tables all_reduce_perf and its
// siblings print (layout: ../shared/validation/formats/nccl-tests-output-format.md), so that a
// simulated sweep can be put beside a real one.
//
// What the reader accepts:
//  - launcher prefixes before a line: "[1,0]<stdout>:" (mpirun --tag-output), "host: " (pdsh),
//    "0: " (srun -l), repeated;
//  - comment lines ('#'), blank lines and NCCL INFO/WARN log lines anywhere;
//  - several tables in one file: each starts at nccl-tests' column header ("# size count type
//    ... time algbw busbw ...") and takes its title from the last "# ---- title ----" comment
//    before it (the separators the measured files use), "" when there is none;
//  - data rows of 13 columns (size count type redop root, then time algbw busbw #wrong for
//    out-of-place and in-place) or 9 (out-of-place only); #wrong may be "N/A".
// Anything else where a data row is expected is an InputError naming file:line.
//
// One more layout, for the prose summary h100-8gpu-nvls-vs-ring-scaling-summary.txt: after a
// comment header "# gpus algo busbw..." each row is "GPUS ALGO BUSBW [ALGBW]" where BUSBW is a
// number, "~N" or a range "A-B" (read as its midpoint). Its rows have no size or time; the caller
// supplies the size.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gf {

// One timing column group of a row (out-of-place or in-place).
struct MeasuredTiming {
  double time_us = 0;   // one call, microseconds
  double algbw_gBps = 0;
  double busbw_gBps = 0;
};

struct MeasuredRow {
  int line = 0;            // 1-based line in the file
  int64_t size = 0;        // bytes, as nccl-tests prints it (0 in a scaling summary)
  int64_t count = 0;       // elements
  std::string type;        // "float", ...
  std::string redop;       // "sum", "none", ...
  MeasuredTiming out_of_place;
  std::optional<MeasuredTiming> in_place;
  // Scaling-summary rows only: the GPU count and algorithm the row was measured with.
  int gpus = 0;
  std::string algo;
};

enum class TableLayout { NcclTests, ScalingSummary };

struct MeasuredTable {
  std::string title;   // the "---- title ----" comment before it, without the dashes; "" if none
  int line = 0;        // the line of its column header
  TableLayout layout = TableLayout::NcclTests;
  std::vector<MeasuredRow> rows;
};

struct MeasuredFile {
  std::string path;
  std::vector<MeasuredTable> tables;
};

// `file` names the source in errors. Throws InputError (file:line) on a row that does not parse.
MeasuredFile parse_measured_text(const std::string& text, const std::string& file);
MeasuredFile load_measured_file(const std::string& path);

// The table whose title contains `title` (case-insensitive; "" matches a file's only table).
// Throws InputError listing the titles when none or several match.
const MeasuredTable& find_table(const MeasuredFile& f, const std::string& title);

// A line with its launcher prefixes removed (exposed for tests).
std::string strip_launcher_prefix(const std::string& line);

}  // namespace gf
