// The matrix of `nvidia-smi topo -m` / `-mp` (and of `rocm-smi --showtopo`) as data, before any
// inference: the device columns, the cell of every pair that some row gives, the affinity columns
// and the NIC legend. The matrix is symmetric, so a pair is known when either device's row is in the
// file; a PARTIAL paste (rows cut off) still gives every cell between a present row and any column.
// nvidia_smi_import.cpp turns the table into a server; this file only reads and checks text.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topology/pcie_matrix.hpp"

namespace gf {

struct SmiDevice {
  std::string column;          // header text: "GPU3", "NIC0", or a device name ("mlx5_2", older nvidia-smi)
  NodeKind kind = NodeKind::Gpu;  // Gpu or Nic
  std::string label;           // NIC: its device name from the NIC Legend (or the column itself); GPU: empty
  int row_line = 0;            // 1-based line of its row; 0 when the file has no row for it
  std::string cpu_affinity;    // "CPU Affinity" of its row; empty when absent or N/A
  std::optional<int> numa;     // "NUMA Affinity" (first id of a list); nullopt when absent or N/A
};

struct SmiTable {
  std::string format;              // "nvidia-smi topo -m", "rocm-smi --showtopo", ...
  int header_line = 0;
  std::vector<SmiDevice> devices;  // in column order
  // cells[i][j]: the connection of devices i and j as printed; nullopt when no row gives it.
  std::vector<std::vector<std::optional<TopoCell>>> cells;
  std::vector<std::vector<int>> cell_line;  // line the cell was read from (0 when unknown)
  bool has_numa_column = false;             // a "NUMA Affinity" column (newer nvidia-smi)
  bool has_gpu_numa_id = false;             // some GPU reports its own NUMA id (Grace C2C systems)
  // Lines after the table that are neither blank nor nvidia-smi's legend (a shell prompt, another
  // command's output): skipped, and said in a note; the first of them, 0 when none.
  int ignored_lines = 0;
  int first_ignored_line = 0;
};

// Reads `nvidia-smi topo -m` (or -mp) text. Throws InputError naming `file` and the line (and
// column) of the first thing that is not what nvidia-smi prints.
SmiTable parse_nvidia_smi_table(const std::string& text, const std::string& file);
// Reads `rocm-smi --showtopo` text: its "Link Type" block (XGMI or PCIE), "Hops" (2: one socket,
// 3: across sockets) and, when present, the NUMA block.
SmiTable parse_rocm_smi_table(const std::string& text, const std::string& file);
// Whether `text` is rocm-smi output (its banner or its "... between two GPUs" blocks).
bool looks_like_rocm_smi(std::string_view text);

}  // namespace gf
