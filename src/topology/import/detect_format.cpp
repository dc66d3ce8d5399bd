// Which topology format a file holds, by its content: users name files topo.txt, system.xml or
// anything else, so the extension decides nothing.
#include <cctype>

#include "topology/import/imported_server.hpp"
#include "topology/import/smi_table.hpp"

namespace gf {

namespace {

std::string_view skip_space(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  return s;
}

// Whether some line's first word is GPU0: the header (or first row) of `nvidia-smi topo -m`.
// A YAML key would read "GPU0:", so cluster files do not match.
bool has_gpu0_line(std::string_view text) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = skip_space(text.substr(start, end - start));
    if (line.substr(0, 4) == "GPU0" && (line.size() == 4 || std::isspace(static_cast<unsigned char>(line[4]))))
      return true;
    start = end + 1;
  }
  return false;
}

}  // namespace

TopologyFormat detect_topology_format(std::string_view text) {
  std::string_view s = skip_space(text);
  if (s.substr(0, 3) == "\xEF\xBB\xBF") s = skip_space(s.substr(3));  // UTF-8 byte-order mark
  // NCCL XML: an optional <?xml ...?> declaration, then <system ...>. Anything else that opens with
  // '<' is no YAML either; the XML importer says what is wrong with it.
  if (!s.empty() && s.front() == '<') return TopologyFormat::NcclXml;
  if (has_gpu0_line(s) || looks_like_rocm_smi(s)) return TopologyFormat::NvidiaSmi;
  return TopologyFormat::Yaml;
}

}  // namespace gf
