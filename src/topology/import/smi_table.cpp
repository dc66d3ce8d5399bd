#include "topology/import/smi_table.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "core/error.hpp"

namespace gf {

namespace {

struct Token {
  std::string text;
  int column;  // 1-based character column
};

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

// Whitespace-separated words (nvidia-smi pads with spaces or tabs, pastes mix both).
std::vector<Token> tokens(const std::string& line) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i >= line.size()) break;
    size_t j = i;
    while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
    out.push_back({line.substr(i, j - i), static_cast<int>(i) + 1});
    i = j;
  }
  return out;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}
// A small non-negative integer, or nullopt (also when too long to be a device count or NUMA id).
std::optional<int> small_int(std::string_view s) {
  if (!all_digits(s) || s.size() > 6) return std::nullopt;
  return std::stoi(std::string(s));
}
bool numbered(std::string_view s, std::string_view prefix) {
  return s.size() > prefix.size() && s.substr(0, prefix.size()) == prefix && all_digits(s.substr(prefix.size()));
}
// A core or NUMA list as nvidia-smi prints it: "0-47,96-143", "3", "0,3-9,11-17".
bool id_list(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) || c == ',' || c == '-'; }) &&
         std::isdigit(static_cast<unsigned char>(s.front())) && std::isdigit(static_cast<unsigned char>(s.back()));
}

// The words of `nvidia-smi topo -p2p` (P2P status), which a user may paste by mistake.
bool p2p_word(const std::string& w) {
  static const std::vector<std::string> k = {"OK", "CNS", "GNS", "TNS", "NS", "DR", "U"};
  return std::find(k.begin(), k.end(), w) != k.end();
}

std::optional<TopoCell> nvidia_cell(const std::string& w) {
  TopoCell c;
  if (w == "X") c.conn = TopoConn::Self;
  else if (w == "PIX") c.conn = TopoConn::Pix;
  else if (w == "PXB") c.conn = TopoConn::Pxb;
  else if (w == "PHB") c.conn = TopoConn::Phb;
  else if (w == "NODE") c.conn = TopoConn::Node;
  else if (w == "SYS") c.conn = TopoConn::Sys;
  else if (auto k = numbered(w, "NV") ? small_int(w.substr(2)) : std::nullopt; k && *k > 0 && *k <= 1000)
    c.conn = TopoConn::NvLink, c.links = *k;
  else return std::nullopt;
  return c;
}

bool same_cell(const TopoCell& a, const TopoCell& b) {
  return a.conn == b.conn && (a.conn != TopoConn::NvLink || (a.links == b.links && a.family == b.family));
}

class TableBuilder {
 public:
  TableBuilder(SmiTable& t, const std::string& file) : t_(t), file_(file) {}

  void add_device(const Token& tok, int line) {
    for (const auto& d : t_.devices)
      if (d.column == tok.text)
        throw InputError({file_, line, tok.column}, tok.text, "the header names device '" + tok.text + "' twice",
                         "paste the header row exactly as the tool printed it");
    SmiDevice d;
    d.column = tok.text;
    d.kind = numbered(tok.text, "GPU") ? NodeKind::Gpu : NodeKind::Nic;
    // Older nvidia-smi heads NIC columns with the device name itself ("mlx5_0").
    if (d.kind == NodeKind::Nic && !numbered(tok.text, "NIC")) d.label = tok.text;
    t_.devices.push_back(std::move(d));
  }
  void finish_header() {
    size_t n = t_.devices.size();
    t_.cells.assign(n, std::vector<std::optional<TopoCell>>(n));
    t_.cell_line.assign(n, std::vector<int>(n, 0));
    for (size_t i = 0; i < n; ++i) t_.cells[i][i] = TopoCell{TopoConn::Self, 0, LinkFamily::NvLink};
  }
  int index_of(const std::string& column) const {
    for (size_t i = 0; i < t_.devices.size(); ++i)
      if (t_.devices[i].column == column) return static_cast<int>(i);
    return -1;
  }
  std::string column_list() const {
    std::string s;
    for (const auto& d : t_.devices) s += (s.empty() ? "" : " ") + d.column;
    return s;
  }
  // Row `r` says cell (r, c) is `cell`; the matrix is symmetric, so (c, r) is the same, and a row
  // of c that says otherwise is an error naming both lines.
  void set(int r, int c, const TopoCell& cell, int line, int column) {
    const std::string key = t_.devices[r].column + "/" + t_.devices[c].column;
    if (r == c) {
      if (cell.conn != TopoConn::Self)
        throw InputError({file_, line, column}, key, "the diagonal cell is '" + cell_text(cell) + "', expected X",
                         "the row is shifted or garbled; paste it exactly as printed");
      return;
    }
    if (cell.conn == TopoConn::Self)
      throw InputError({file_, line, column}, key, "X off the diagonal", "the row is shifted or garbled; paste it exactly as printed");
    if (cell.conn == TopoConn::NvLink && (t_.devices[r].kind != NodeKind::Gpu || t_.devices[c].kind != NodeKind::Gpu))
      throw InputError({file_, line, column}, key, cell_text(cell) + " between a GPU and a NIC",
                       "NVLink joins GPUs only; the row is shifted or garbled");
    auto& mine = t_.cells[r][c];
    auto& other = t_.cells[c][r];
    if (other && t_.cell_line[c][r] != line && !same_cell(*other, cell))
      throw InputError({file_, line, column}, key,
                       "is " + cell_text(cell) + " here but " + t_.devices[c].column + "/" + t_.devices[r].column +
                           " is " + cell_text(*other) + " on line " + std::to_string(t_.cell_line[c][r]),
                       "the matrix is symmetric; one of the two rows is garbled");
    mine = other = cell;
    // Errors about the pair name the row that first gave it.
    if (t_.cell_line[r][c] == 0) t_.cell_line[r][c] = t_.cell_line[c][r] = line;
  }

 private:
  SmiTable& t_;
  const std::string& file_;
};

const char* kNvidiaHint = "expected the text `nvidia-smi topo -m` prints: a header row `GPU0 GPU1 ... CPU Affinity ...`, "
                          "then one row per device";

// The column headings after the devices: "CPU Affinity", "NUMA Affinity", "GPU NUMA ID".
enum class InfoColumn { Cpu, Numa, GpuNumaId };

std::vector<InfoColumn> info_columns(const std::vector<Token>& toks, size_t first, const std::string& file, int line) {
  std::vector<InfoColumn> out;
  struct Heading { std::vector<std::string> words; InfoColumn col; };
  const std::vector<Heading> known = {{{"CPU", "Affinity"}, InfoColumn::Cpu},
                                      {{"NUMA", "Affinity"}, InfoColumn::Numa},
                                      {{"GPU", "NUMA", "ID"}, InfoColumn::GpuNumaId}};
  size_t i = first;
  while (i < toks.size()) {
    bool matched = false;
    for (const auto& h : known) {
      if (i + h.words.size() > toks.size()) continue;
      bool ok = true;
      for (size_t k = 0; k < h.words.size(); ++k) ok = ok && toks[i + k].text == h.words[k];
      if (!ok) continue;
      out.push_back(h.col);
      i += h.words.size();
      matched = true;
      break;
    }
    if (!matched)
      throw InputError({file, line, toks[i].column}, toks[i].text, "unknown column heading after the device columns",
                       "nvidia-smi prints `CPU Affinity`, `NUMA Affinity` and `GPU NUMA ID` there; paste the header unchanged");
  }
  return out;
}

void read_info(SmiDevice& d, SmiTable& t, InfoColumn col, const Token& tok, const std::string& file, int line) {
  const bool na = tok.text == "N/A";
  switch (col) {
    case InfoColumn::Cpu:
      if (!na && !id_list(tok.text))
        throw InputError({file, line, tok.column}, d.column + " CPU Affinity", "'" + tok.text + "' is not a core list",
                         "core lists look like 0-47,96-143 or N/A; the row is shifted or garbled");
      if (!na) d.cpu_affinity = tok.text;
      break;
    case InfoColumn::Numa:
      if (!na) d.numa = id_list(tok.text) ? small_int(tok.text.substr(0, tok.text.find_first_of(",-"))) : std::nullopt;
      if (!na && !d.numa)
        throw InputError({file, line, tok.column}, d.column + " NUMA Affinity", "'" + tok.text + "' is not a NUMA node list",
                         "NUMA affinity looks like 0, 0-1 or N/A; the row is shifted or garbled");
      break;
    case InfoColumn::GpuNumaId:
      if (!na && !all_digits(tok.text))
        throw InputError({file, line, tok.column}, d.column + " GPU NUMA ID", "'" + tok.text + "' is not a NUMA id",
                         "it is a number or N/A; the row is shifted or garbled");
      if (!na) t.has_gpu_numa_id = true;
      break;
  }
}

// "  NIC0: mlx5_0" lines after "NIC Legend:".
void read_nic_legend(const std::vector<std::string>& lines, size_t from, TableBuilder& b, SmiTable& t,
                     const std::string& file) {
  size_t i = from;
  while (i < lines.size() && tokens(lines[i]).empty()) ++i;
  for (; i < lines.size(); ++i) {
    auto toks = tokens(lines[i]);
    if (toks.empty()) break;
    const int line = static_cast<int>(i) + 1;
    std::string name = toks[0].text;
    if (toks.size() != 2 || name.size() < 2 || name.back() != ':')
      throw InputError({file, line, toks[0].column}, "NIC Legend", "expected `NICn: device`, got '" + lines[i] + "'",
                       "paste the NIC Legend unchanged");
    name.pop_back();
    int d = b.index_of(name);
    if (d < 0)
      throw InputError({file, line, toks[0].column}, "NIC Legend", "'" + name + "' is not a column of the matrix",
                       "the legend and the matrix come from different runs, or the header is cut short");
    t.devices[d].label = toks[1].text;
  }
}

}  // namespace

SmiTable parse_nvidia_smi_table(const std::string& text, const std::string& file) {
  SmiTable t;
  t.format = "nvidia-smi topo -m";
  TableBuilder b(t, file);
  auto lines = split_lines(text);

  // The header is the first line that starts with GPU0; anything above it (a shell prompt, a
  // blank line) is not part of the table.
  size_t h = 0;
  for (; h < lines.size(); ++h) {
    auto toks = tokens(lines[h]);
    if (toks.empty() || toks[0].text != "GPU0") continue;
    if (toks.size() > 1 && toks[1].text == "X")
      throw InputError({file, static_cast<int>(h) + 1, toks[0].column}, "header",
                       "the GPU0 row comes before any header row: the file is cut at the top", kNvidiaHint);
    break;
  }
  if (h == lines.size())
    throw InputError({file, 0, 0}, "header", "no header row starting with GPU0: this is not `nvidia-smi topo -m` output",
                     kNvidiaHint);
  t.header_line = static_cast<int>(h) + 1;
  auto head = tokens(lines[h]);
  size_t k = 0;
  for (; k < head.size(); ++k) {
    const std::string& w = head[k].text;
    if (w == "CPU" || w == "NUMA" || (w == "GPU" && k + 1 < head.size() && head[k + 1].text == "NUMA")) break;
    if (nvidia_cell(w) || p2p_word(w))
      throw InputError({file, t.header_line, head[k].column}, w, "a cell value inside the header row", kNvidiaHint);
    b.add_device(head[k], t.header_line);
  }
  std::vector<InfoColumn> info = info_columns(head, k, file, t.header_line);
  t.has_numa_column = std::find(info.begin(), info.end(), InfoColumn::Numa) != info.end();
  b.finish_header();
  const size_t n = t.devices.size();

  // Rows until a blank line or the legend.
  size_t i = h + 1;
  int rows = 0;
  for (; i < lines.size(); ++i) {
    auto toks = tokens(lines[i]);
    if (toks.empty() || toks[0].text.back() == ':') break;
    const int line = static_cast<int>(i) + 1;
    int r = b.index_of(toks[0].text);
    if (r < 0)
      throw InputError({file, line, toks[0].column}, toks[0].text, "a row for a device the header does not name",
                       "header columns: " + b.column_list() + "; paste the table unchanged");
    SmiDevice& dev = t.devices[r];
    if (dev.row_line > 0)
      throw InputError({file, line, toks[0].column}, toks[0].text,
                       "a second row for this device (the first is line " + std::to_string(dev.row_line) + ")",
                       "paste one run of nvidia-smi topo -m");
    dev.row_line = line;
    if (toks.size() < n + 1)
      throw InputError({file, line, toks.back().column}, toks[0].text,
                       "the row has " + std::to_string(toks.size() - 1) + " cells, the header has " +
                           std::to_string(n) + " device columns: the row is cut short",
                       "paste the whole row");
    if (toks.size() > n + 1 + info.size())
      throw InputError({file, line, toks[n + 1 + info.size()].column}, toks[0].text,
                       "the row has more values than the header has columns",
                       "the header or the row is garbled; paste the table unchanged");
    for (size_t c = 0; c < n; ++c) {
      const Token& tok = toks[c + 1];
      auto cell = nvidia_cell(tok.text);
      if (!cell) {
        std::string key = toks[0].text + "/" + t.devices[c].column;
        if (p2p_word(tok.text))
          throw InputError({file, line, tok.column}, key,
                           "'" + tok.text + "' is a P2P status: this is `nvidia-smi topo -p2p` output, which says whether "
                                            "P2P works, not how devices are connected",
                           "run `nvidia-smi topo -m` and import its output");
        throw InputError({file, line, tok.column}, key, "'" + tok.text + "' is not a topology cell",
                         "cells are X, NV#, PIX, PXB, PHB, NODE or SYS; the row is shifted or garbled");
      }
      if (cell->conn == TopoConn::NvLink && cell->links > kMaxNvLinksPerGpu)
        throw InputError({file, line, tok.column}, toks[0].text + "/" + t.devices[c].column,
                         "'" + tok.text + "': no GPU has more than " + std::to_string(kMaxNvLinksPerGpu) +
                             " NVLinks (H100, H200 and B200 have 18)",
                         "the cell is garbled; paste the table unchanged");
      b.set(r, static_cast<int>(c), *cell, line, tok.column);
    }
    // nvidia-smi prints every affinity column on a GPU's row (N/A where none), none on a NIC's.
    const size_t given = toks.size() - n - 1;
    if (given < info.size() && (dev.kind == NodeKind::Gpu || given > 0))
      throw InputError({file, line, toks.back().column}, toks[0].text,
                       "the row has " + std::to_string(given) + " of the " + std::to_string(info.size()) +
                           " affinity columns: the row is cut short",
                       "paste the whole row");
    for (size_t c = n + 1; c < toks.size(); ++c) read_info(dev, t, info[c - n - 1], toks[c], file, line);
    ++rows;
  }
  if (rows == 0)
    throw InputError({file, t.header_line + 1, 0}, "rows", "the header is not followed by any device row: the file is cut short",
                     "paste the rows under the header too");
  for (; i < lines.size(); ++i) {
    auto toks = tokens(lines[i]);
    if (toks.size() == 2 && toks[0].text == "NIC" && toks[1].text == "Legend:") read_nic_legend(lines, i + 1, b, t, file);
    // nvidia-smi prints the legend ("Legend:", "  X    = Self", "NIC Legend:", "  NIC0: mlx5_0")
    // and blank lines after the table; anything else is not its output.
    const bool legend = toks.empty() || toks.back().text == "Legend:" || lines[i].find('=') != std::string::npos ||
                        (toks[0].text.back() == ':' && numbered(std::string_view(toks[0].text).substr(0, toks[0].text.size() - 1), "NIC"));
    if (!legend && t.ignored_lines++ == 0) t.first_ignored_line = static_cast<int>(i) + 1;
  }
  // A few stray lines (a shell prompt) are noted; a mass of them means the file is not one output.
  constexpr int kMaxIgnored = 100;
  if (t.ignored_lines > kMaxIgnored)
    throw InputError({file, t.first_ignored_line, 0}, "text",
                     std::to_string(t.ignored_lines) + " lines after the table are not nvidia-smi's legend",
                     "save only the output of `nvidia-smi topo -m`");
  return t;
}

bool looks_like_rocm_smi(std::string_view text) {
  return text.find("ROCm System Management Interface") != std::string_view::npos ||
         text.find("between two GPUs") != std::string_view::npos;
}

SmiTable parse_rocm_smi_table(const std::string& text, const std::string& file) {
  SmiTable t;
  t.format = "rocm-smi --showtopo";
  TableBuilder b(t, file);
  auto lines = split_lines(text);
  // Blocks: "=== Weight between two GPUs ===", "=== Hops ...", "=== Link Type ...", each a header
  // row of GPU columns and one row per GPU. Kept as text per pair, read into cells below.
  std::map<std::string, std::map<std::pair<int, int>, std::pair<std::string, Token>>> blocks;
  std::map<std::string, std::map<std::pair<int, int>, int>> block_lines;
  for (size_t i = 0; i < lines.size(); ++i) {
    size_t at = lines[i].find(" between two GPUs");
    if (at == std::string::npos) continue;
    std::string title = lines[i].substr(0, at);
    title.erase(0, title.find_first_not_of("= "));
    if (i + 1 >= lines.size())
      throw InputError({file, static_cast<int>(i) + 1, 0}, title, "the block has no header row: the file is cut short", "paste the whole output of the command");
    auto head = tokens(lines[i + 1]);
    const int head_line = static_cast<int>(i) + 2;
    if (t.devices.empty()) {
      if (head.empty() || head[0].text != "GPU0")
        throw InputError({file, head_line, 0}, title, "expected a header row GPU0 GPU1 ...", "paste rocm-smi --showtopo unchanged");
      for (const auto& tok : head) {
        if (!numbered(tok.text, "GPU"))
          throw InputError({file, head_line, tok.column}, tok.text, "not a GPU column", "paste rocm-smi --showtopo unchanged");
        b.add_device(tok, head_line);
      }
      t.header_line = head_line;
      b.finish_header();
    } else if (head.size() != t.devices.size()) {
      throw InputError({file, head_line, 0}, title, "this block has " + std::to_string(head.size()) + " GPU columns, the first had " +
                                                        std::to_string(t.devices.size()),
                       "paste rocm-smi --showtopo unchanged");
    }
    const size_t n = t.devices.size();
    for (size_t r = 0; r < n; ++r) {
      size_t li = i + 2 + r;
      const int line = static_cast<int>(li) + 1;
      auto toks = li < lines.size() ? tokens(lines[li]) : std::vector<Token>{};
      if (toks.empty() || toks[0].text != t.devices[r].column || toks.size() != n + 1)
        throw InputError({file, line, 0}, title, "expected the row of " + t.devices[r].column + " with " + std::to_string(n) + " values",
                         "the block is cut short or garbled; paste rocm-smi --showtopo unchanged");
      t.devices[r].row_line = line;
      for (size_t c = 0; c < n; ++c) {
        blocks[title][{static_cast<int>(r), static_cast<int>(c)}] = {toks[c + 1].text, toks[c + 1]};
        block_lines[title][{static_cast<int>(r), static_cast<int>(c)}] = line;
      }
    }
  }
  if (!blocks.count("Link Type"))
    throw InputError({file, 0, 0}, "Link Type", "no `Link Type between two GPUs` block", "run `rocm-smi --showtopo` and paste all of it");
  const size_t n = t.devices.size();
  for (size_t r = 0; r < n; ++r) {
    for (size_t c = 0; c < n; ++c) {
      auto key = std::pair{static_cast<int>(r), static_cast<int>(c)};
      const auto& [type, tok] = blocks["Link Type"][key];
      const int line = block_lines["Link Type"][key];
      TopoCell cell;
      if (r == c) {
        cell.conn = TopoConn::Self;
      } else if (type == "XGMI") {
        cell = {TopoConn::NvLink, 1, LinkFamily::Xgmi};
      } else if (type == "PCIE") {
        // Hops (ROCm/rocm-systems issue #5763): 2 = through one CPU socket, 3 = across two. The
        // nearest nvidia-smi words are PHB and SYS; without the Hops block, SYS (the cautious one).
        cell.conn = TopoConn::Sys;
        if (blocks.count("Hops")) {
          const std::string& hops = blocks["Hops"][key].first;
          auto count = small_int(hops);
          if (!count)
            throw InputError({file, block_lines["Hops"][key], blocks["Hops"][key].second.column}, "Hops",
                             "'" + hops + "' is not a hop count", "paste rocm-smi --showtopo unchanged");
          if (*count <= 2) cell.conn = TopoConn::Phb;
        }
      } else {
        throw InputError({file, line, tok.column}, t.devices[r].column + "/" + t.devices[c].column,
                         "'" + type + "' is not a link type", "rocm-smi prints XGMI or PCIE; paste it unchanged");
      }
      b.set(static_cast<int>(r), static_cast<int>(c), cell, line, tok.column);
    }
  }
  // NUMA block lines: "GPU[0]          : (Topology) Numa Node: 0".
  for (const auto& l : lines) {
    size_t at = l.find("Numa Node:");
    if (l.rfind("GPU[", 0) != 0 || at == std::string::npos) continue;
    std::string gpu = "GPU" + l.substr(4, l.find(']') - 4);
    std::string value = l.substr(at + 10);
    value.erase(0, value.find_first_not_of(' '));
    int d = b.index_of(gpu);
    if (auto id = small_int(value); d >= 0 && id) t.devices[d].numa = *id, t.has_numa_column = true;
  }
  return t;
}

}  // namespace gf
