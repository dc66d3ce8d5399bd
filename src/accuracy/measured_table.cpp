#include "accuracy/measured_table.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/error.hpp"
#include "core/text.hpp"

namespace gf {

namespace {

std::vector<std::string> split_ws(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string tok; in >> tok;) out.push_back(tok);
  return out;
}


std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

class RowReader {
 public:
  RowReader(const std::string& file, int line) : where_{file, line, 0} {}

  // Rows come from nccl-tests' own output, so the default hint says to paste it unchanged.
  [[noreturn]] void fail(const std::string& message,
                         const std::string& hint = "paste the nccl-tests output unchanged; a row is 13 columns from size "
                                                   "to out-of-place #wrong") const {
    throw InputError(where_, "row", message, hint);
  }
  int64_t integer(const std::string& tok, const char* column) const {
    int64_t v = 0;
    auto [p, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
    if (ec != std::errc() || p != tok.data() + tok.size())
      fail(std::string("column '") + column + "' is '" + tok + "', not an integer");
    return v;
  }
  double number(const std::string& tok, const char* column) const {
    char* end = nullptr;
    double v = std::strtod(tok.c_str(), &end);
    if (tok.empty() || end != tok.c_str() + tok.size() || !(v >= 0))
      fail(std::string("column '") + column + "' is '" + tok + "', not a non-negative number");
    return v;
  }
  void wrong_count(const std::string& tok) const {
    if (tok == "N/A") return;
    integer(tok, "#wrong");
  }

 private:
  SourceLocation where_;
};

// nccl-tests: size count type redop root | time algbw busbw #wrong | time algbw busbw #wrong.
// nccl-tests before 2.10 printed no root column and, instead of #wrong, the largest error as a
// number ("5e-07"): 12 columns (8 out-of-place only), e.g. the NCCL 2.8 log of
// validation/measured/aws-p4d-a100-2node-16gpu-efa400g-allreduce.txt.
MeasuredRow parse_nccl_row(const std::vector<std::string>& t, const std::string& file, int line) {
  RowReader r(file, line);
  const bool old_layout = t.size() == 12 || t.size() == 8;
  if (t.size() != 13 && t.size() != 9 && !old_layout)
    r.fail("expected 13 columns (size count type redop root, then time algbw busbw #wrong out-of-place and "
               "in-place) or 9 (out-of-place only); nccl-tests before 2.10: 12 or 8 (no root, an error "
               "figure for #wrong); got " + std::to_string(t.size()),
           "comment the line out with '#' if it is not a result row");
  MeasuredRow row;
  row.line = line;
  row.size = r.integer(t[0], "size");
  row.count = r.integer(t[1], "count");
  if (row.size < 0 || row.count < 0) r.fail("size and count must not be negative");
  row.type = t[2];
  row.redop = t[3];
  const size_t k = old_layout ? 4 : 5;  // first timing column
  if (!old_layout) r.integer(t[4], "root");
  auto check = [&](const std::string& tok) {
    if (old_layout && tok != "N/A") r.number(tok, "error");
    else r.wrong_count(tok);
  };
  row.out_of_place = {r.number(t[k], "time"), r.number(t[k + 1], "algbw"), r.number(t[k + 2], "busbw")};
  check(t[k + 3]);
  if (t.size() == k + 8) {
    row.in_place = MeasuredTiming{r.number(t[k + 4], "time"), r.number(t[k + 5], "algbw"), r.number(t[k + 6], "busbw")};
    check(t[k + 7]);
  }
  return row;
}

// A busbw figure as prose states it: "480", "~480" or "365-370" (midpoint).
double summary_figure(const std::string& tok, const RowReader& r) {
  std::string s = tok;
  if (!s.empty() && s[0] == '~') s = s.substr(1);
  size_t dash = s.find('-', 1);
  if (dash != std::string::npos) {
    double lo = r.number(s.substr(0, dash), "busbw"), hi = r.number(s.substr(dash + 1), "busbw");
    if (hi < lo) r.fail("range '" + tok + "' runs backwards");
    return (lo + hi) / 2;
  }
  return r.number(s, "busbw");
}

// Scaling summary: gpus algo busbw [algbw]
MeasuredRow parse_summary_row(const std::vector<std::string>& t, const std::string& file, int line) {
  RowReader r(file, line);
  if (t.size() < 3 || t.size() > 4)
    r.fail("expected 'GPUS ALGO BUSBW [ALGBW]', got " + std::to_string(t.size()) + " columns",
           "a summary row is the GPU count, the algorithm and the busbw, e.g. `16 ring 370`");
  MeasuredRow row;
  row.line = line;
  row.gpus = static_cast<int>(r.integer(t[0], "gpus"));
  if (row.gpus < 1) r.fail("gpus must be at least 1", "a summary row starts with the GPU count, e.g. `16 ring 370`");
  row.algo = ascii_lower(t[1]);
  row.out_of_place.busbw_gBps = summary_figure(t[2], r);
  return row;
}

bool is_column_header(const std::vector<std::string>& t) {
  return t.size() >= 4 && t[0] == "size" && t[1] == "count" &&
         std::find(t.begin(), t.end(), "busbw") != t.end();
}

bool is_summary_header(const std::vector<std::string>& t) {
  return t.size() >= 3 && ascii_lower(t[0]) == "gpus" && ascii_lower(t[1]) == "algo" && ascii_lower(t[2]).rfind("busbw", 0) == 0;
}

}  // namespace

std::string strip_launcher_prefix(const std::string& line) {
  // "[1,0]<stdout>:" from mpirun --tag-output; "host: " from pdsh; "0: " from srun -l.
  static const std::regex kMpi(R"(^\[\d+,\d+\]<(stdout|stderr)>:)");
  static const std::regex kLabel(R"(^\s*[A-Za-z0-9_.\-]+:\s)");
  std::string s = line;
  for (int i = 0; i < 4; ++i) {
    std::smatch m;
    if (std::regex_search(s, m, kMpi) || std::regex_search(s, m, kLabel)) s = s.substr(m.length(0));
    else break;
  }
  return s;
}

MeasuredFile parse_measured_text(const std::string& text, const std::string& file) {
  static const std::regex kTitle(R"(^#\s*-{2,}\s*(.*?)\s*-{2,}\s*$)");
  MeasuredFile out;
  out.path = file;
  std::string pending_title;
  MeasuredTable* current = nullptr;
  std::istringstream in(text);
  std::string raw;
  for (int line = 1; std::getline(in, raw); ++line) {
    if (raw.find("NCCL INFO") != std::string::npos || raw.find("NCCL WARN") != std::string::npos) continue;
    std::string s = trim(strip_launcher_prefix(raw));
    if (s.empty()) continue;
    if (s[0] == '#') {
      std::smatch m;
      if (std::regex_match(s, m, kTitle)) {
        pending_title = m[1].str();
        continue;
      }
      std::vector<std::string> t = split_ws(s.substr(1));
      bool nccl = is_column_header(t), summary = !nccl && is_summary_header(t);
      if (nccl || summary) {
        out.tables.push_back({pending_title, line, summary ? TableLayout::ScalingSummary : TableLayout::NcclTests, {}});
        current = &out.tables.back();
        pending_title.clear();
      }
      continue;
    }
    std::vector<std::string> t = split_ws(s);
    if (!current)
      throw InputError({file, line, 0}, "row", "a data row before any nccl-tests column header",
                       "a table starts at its '# size count type redop root time algbw busbw ...' line");
    current->rows.push_back(current->layout == TableLayout::NcclTests ? parse_nccl_row(t, file, line)
                                                                       : parse_summary_row(t, file, line));
  }
  return out;
}

MeasuredFile load_measured_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError({path, 0, 0}, "file", "cannot read the measured table", "check the path");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_measured_text(ss.str(), path);
}

const MeasuredTable& find_table(const MeasuredFile& f, const std::string& title) {
  std::vector<const MeasuredTable*> hits;
  std::string want = ascii_lower(title);
  for (const auto& t : f.tables)
    if (ascii_lower(t.title).find(want) != std::string::npos) hits.push_back(&t);
  if (hits.size() == 1) return *hits[0];
  std::string titles;
  for (const auto& t : f.tables) titles += (titles.empty() ? "'" : ", '") + t.title + "'";
  if (hits.empty())
    throw InputError({f.path, 0, 0}, "title", "no table titled '" + title + "'",
                     "the file's tables: " + (titles.empty() ? std::string("none") : titles));
  throw InputError({f.path, 0, 0}, "title", "'" + title + "' matches " + std::to_string(hits.size()) + " tables",
                   "use more of the title; the file's tables: " + titles);
}

}  // namespace gf
