#include "report/topo_matrix.hpp"

namespace gf {

namespace {

// nvidia-smi's legend, in its order and wording (validation/formats/nvidia-smi-topo/legend.txt).
constexpr const char* kLegend =
    "Legend:\n"
    "\n"
    "  X    = Self\n"
    "  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)\n"
    "  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within a NUMA node\n"
    "  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)\n"
    "  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)\n"
    "  PIX  = Connection traversing at most a single PCIe bridge\n"
    "  NV#  = Connection traversing a bonded set of # NVLinks\n";

// The diagonal is " X " (padded to the width of the other cells), as nvidia-smi prints it.
std::string shown(const TopoCell& c) { return c.conn == TopoConn::Self ? " X " : cell_text(c); }

}  // namespace

std::string topo_matrix_text(const TopoMatrix& m, bool expand) {
  std::string out;
  for (const auto& d : m.devices) out += "\t" + d.name;
  if (m.gpus > 0) out += "\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID";
  out += "\n";
  for (size_t r = 0; r < m.devices.size(); ++r) {
    const TopoDevice& d = m.devices[r];
    out += d.name;
    for (const auto& cell : m.cells[r]) out += "\t" + shown(cell);
    // Only GPU rows carry the affinity columns; NUMA Affinity is followed by two tabs.
    if (d.kind == NodeKind::Gpu) out += "\t" + d.cpu_affinity + "\t" + d.numa_affinity + "\t\t" + d.gpu_numa_id;
    out += "\n";
  }
  out += "\n";
  out += kLegend;
  if (m.devices.size() > static_cast<size_t>(m.gpus)) {
    out += "\nNIC Legend:\n\n";
    for (size_t i = static_cast<size_t>(m.gpus); i < m.devices.size(); ++i)
      out += "  " + m.devices[i].name + ": " + m.devices[i].label + "\n";
  }
  return expand ? expand_tabs(out) : out;
}

nlohmann::json topo_matrix_json(const TopoMatrix& m) {
  nlohmann::json j;
  j["server"] = m.server;
  j["gpus"] = nlohmann::json::array();
  j["nics"] = nlohmann::json::array();
  j["columns"] = nlohmann::json::array();
  j["rows"] = nlohmann::json::array();
  for (const auto& d : m.devices) {
    j["columns"].push_back(d.name);
    if (d.kind == NodeKind::Gpu)
      j["gpus"].push_back(d.name);
    else
      j["nics"].push_back({{"name", d.name}, {"device", d.label}});
  }
  for (size_t r = 0; r < m.devices.size(); ++r) {
    const TopoDevice& d = m.devices[r];
    nlohmann::json row{{"name", d.name}, {"cells", nlohmann::json::array()}};
    for (const auto& cell : m.cells[r]) {
      row["cells"].push_back(cell_text(cell));
      if (cell.conn == TopoConn::NvLink && !j.contains("nv_links")) j["nv_links"] = to_string(cell.family);
    }
    if (d.kind == NodeKind::Gpu) {
      row["cpu_affinity"] = d.cpu_affinity;
      row["numa_affinity"] = d.numa_affinity;
      row["gpu_numa_id"] = d.gpu_numa_id;
    }
    j["rows"].push_back(std::move(row));
  }
  return j;
}

std::string expand_tabs(std::string_view text, int stop) {
  std::string out;
  size_t col = 0;
  for (char ch : text) {
    if (ch == '\t') {
      size_t pad = static_cast<size_t>(stop) - col % static_cast<size_t>(stop);
      out.append(pad, ' ');
      col += pad;
    } else {
      out += ch;
      col = ch == '\n' ? 0 : col + 1;
    }
  }
  return out;
}

}  // namespace gf
