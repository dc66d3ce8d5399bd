// `nvidia-smi topo -m` (and -mp, and `rocm-smi --showtopo`) to a ServerTemplate: the table is read
// (smi_table), the GPU links say which hardware generation this is (import_profile), the PCIe cells
// give the PCIe tree and NUMA nodes (smi_layout), and the NV# cells the NVLink links, direct or
// through NVSwitch chips.
#include <filesystem>

#include "core/utf8.hpp"
#include "topology/import/import_profile.hpp"
#include "topology/import/imported_server.hpp"
#include "topology/import/smi_layout.hpp"
#include "topology/import/smi_table.hpp"
#include "topology/import/storage_nics.hpp"
#include "topology/link_tech.hpp"

namespace gf {

namespace {

std::vector<int> gpu_indices(const SmiTable& t) {
  std::vector<int> out;
  for (size_t i = 0; i < t.devices.size(); ++i)
    if (t.devices[i].kind == NodeKind::Gpu) out.push_back(static_cast<int>(i));
  return out;
}

LinkEvidence evidence(const SmiTable& t) {
  LinkEvidence e;
  std::vector<int> gpus = gpu_indices(t);
  e.gpus = static_cast<int>(gpus.size());
  bool uniform = true;
  for (size_t a = 0; a < gpus.size(); ++a) {
    for (size_t b = a + 1; b < gpus.size(); ++b) {
      const auto& cell = t.cells[gpus[a]][gpus[b]];
      if (!cell) continue;
      if (cell->conn != TopoConn::NvLink) {
        uniform = false;
        continue;
      }
      if (cell->family == LinkFamily::Xgmi) e.xgmi = true;
      e.max_nv = std::max(e.max_nv, cell->links);
      if (e.uniform_nv == 0) e.uniform_nv = cell->links;
      else if (e.uniform_nv != cell->links) uniform = false;
    }
  }
  if (!uniform || e.xgmi) e.uniform_nv = 0;
  e.switched = nvswitch_form(e.gpus, e.uniform_nv);
  return e;
}

// NV# cells as links: through NVSwitch chips in the uniform switched form, else GPU to GPU with
// the cell's lane count.
void add_gpu_links(const SmiTable& t, const LinkEvidence& e, const ImportProfile& p, const std::vector<int>& index,
                   TemplateBuilder& b, std::vector<std::string>& not_recovered) {
  std::vector<int> gpus = gpu_indices(t);
  int unknown = 0;
  for (size_t a = 0; a < gpus.size(); ++a)
    for (size_t c = a + 1; c < gpus.size(); ++c) unknown += !t.cells[gpus[a]][gpus[c]];
  if (e.switched) {
    std::vector<int> chips;
    for (size_t k = 0; k < p.lanes_to_switch.size(); ++k) chips.push_back(b.nvswitch("nvswitch" + std::to_string(k)));
    for (int g : gpus)
      for (size_t k = 0; k < chips.size(); ++k) b.link(index[g], chips[k], p.nvlink, p.lanes_to_switch[k]);
    if (unknown > 0)
      not_recovered.push_back(std::to_string(unknown) + " GPU pair(s) have no row in the file: taken as NV" +
                              std::to_string(e.uniform_nv) + " like every pair shown (the NVSwitch form joins all GPUs)");
    return;
  }
  for (size_t a = 0; a < gpus.size(); ++a) {
    for (size_t c = a + 1; c < gpus.size(); ++c) {
      const auto& cell = t.cells[gpus[a]][gpus[c]];
      if (cell && cell->conn == TopoConn::NvLink) b.link(index[gpus[a]], index[gpus[c]], p.nvlink, cell->links);
    }
  }
  if (unknown > 0 && e.max_nv > 0)
    not_recovered.push_back(std::to_string(unknown) + " GPU pair(s) have no row in the file: modelled without NVLink between them");
}

std::string missing_rows(const SmiTable& t) {
  std::string s;
  int count = 0;
  for (const auto& d : t.devices)
    if (d.row_line == 0) s += (count++ ? ", " : "") + d.column;
  return count == 0 ? "" : s;
}

// NICs beside a GPU (PIX, PXB or PHB from one: the GPU's own PCIe switch or host bridge) are
// compute rails; NICs NODE or SYS from every GPU are storage ports (topology/import/storage_nics.hpp).
// A NIC whose cells to some GPU are missing (a partial paste) and far from the others is unknown.
void mark_storage(const SmiTable& table, const std::vector<int>& index, ServerTemplate& t, ImportedServer& out) {
  const std::vector<int> gpus = gpu_indices(table);
  std::vector<std::pair<int, NicPlace>> nics;
  std::string unknown;
  for (size_t i = 0; i < table.devices.size(); ++i) {
    if (table.devices[i].kind != NodeKind::Nic) continue;
    NicPlace place = NicPlace::AwayFromGpus;
    bool missing = false;
    for (int g : gpus) {
      const auto& cell = table.cells[i][static_cast<size_t>(g)];
      if (!cell) {
        missing = true;
        continue;
      }
      if (cell->conn == TopoConn::Pix || cell->conn == TopoConn::Pxb || cell->conn == TopoConn::Phb)
        place = NicPlace::BesideGpu;
    }
    if (place == NicPlace::AwayFromGpus && missing) {
      place = NicPlace::Unknown;
      unknown += (unknown.empty() ? "" : ", ") + table.devices[i].column;
    }
    nics.emplace_back(index[i], place);
  }
  if (std::string note = mark_storage_nics(t, nics); !note.empty()) out.not_recovered.push_back(note);
  if (!unknown.empty())
    out.not_recovered.push_back(unknown +
                                ": far from every GPU with a row, but the rows of the other GPUs are missing; "
                                "kept as compute rails (mark storage ports with `role: storage` in the printed YAML)");
}

}  // namespace

ImportedServer import_nvidia_smi(const std::string& text, const std::string& file, const ImportOptions& opt) {
  require_utf8(text, file);  // names end up in JSON reports (core/utf8.hpp)
  const bool rocm = looks_like_rocm_smi(text);
  SmiTable table = rocm ? parse_rocm_smi_table(text, file) : parse_nvidia_smi_table(text, file);
  ImportedServer out;
  LinkEvidence e = evidence(table);
  e.amd = rocm;
  out.format = rocm ? table.format : e.max_nv > 0 ? "nvidia-smi topo -m" : "nvidia-smi topo -m or -mp, no NVLink shown";
  ImportProfile p = choose_profile(e, opt, rocm ? "rocm-smi --showtopo" : "nvidia-smi topo -m", out.assumed);

  if (table.ignored_lines > 0)
    out.not_recovered.push_back("skipped " + std::to_string(table.ignored_lines) + " line(s) after the table from line " +
                                std::to_string(table.first_ignored_line) + " that are not nvidia-smi's legend");
  if (std::string rows = missing_rows(table); !rows.empty())
    out.not_recovered.push_back("rows missing (a PARTIAL paste): " + rows +
                                "; their cells come from the columns of the rows present, pairs of two missing rows are unknown");
  if (!rocm && e.max_nv == 0 && e.gpus > 1)
    out.not_recovered.push_back("NVLink: no NV# cell. `nvidia-smi topo -mp` leaves NVLink out; if this server has NVLink, "
                                "import `nvidia-smi topo -m` instead");
  if (rocm && !table.has_numa_column)
    out.not_recovered.push_back("NUMA nodes: the file has no NUMA block; GPUs across sockets (Hops 3) get one NUMA node each");
  if (table.has_gpu_numa_id)
    out.not_recovered.push_back("GPU NUMA ID (GPU memory as its own NUMA node, Grace NVLink-C2C systems): not modelled, "
                                "the GPUs hang off PCIe");

  ServerTemplate& t = out.server;
  std::string stem = std::filesystem::path(file).stem().string();
  t.name = stem.empty() ? "imported" : stem;
  t.gpu = p.gpu;
  t.default_fabric = p.fabric;
  TemplateBuilder b(t);
  std::vector<int> index = add_pcie_layout(table, p, file, b, out.not_recovered);
  add_gpu_links(table, e, p, index, b, out.not_recovered);
  mark_storage(table, index, t, out);

  t.description = "imported from " + out.format + ": " + std::to_string(t.count(NodeKind::Gpu)) + " GPUs (" + p.evidence +
                  "), " + std::to_string(t.count(NodeKind::Nic)) + " NICs, " + std::to_string(t.count(NodeKind::PcieSwitch)) +
                  " PCIe switches";
  t.source = file + " (" + out.format + "); figures the format leaves out are defaults: " + p.gpu.source;
  t.validate(LinkCatalog::builtin(), {file, 0, 0});
  return out;
}

}  // namespace gf
