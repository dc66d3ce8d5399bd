// From a topology matrix to the PCIe tree and NUMA nodes of a ServerTemplate, such that
// topo_matrix() of the built server prints the matrix's PCIe cells back (pcie_matrix.hpp defines
// them). The inference, pair by pair:
//   PIX  same PCIe switch            -> the two devices sit under one switch
//   PXB  same switch tree            -> their switches sit under one top switch
//   PHB  same host bridge            -> one CPU root complex node
//   NODE same NUMA node              -> root complexes of one NUMA node (joined by `host-bridge`)
//   SYS  different NUMA nodes        -> joined by the socket link
// Each relation is an equivalence (union-find); a cell that contradicts the groups the others
// make (SYS inside a NUMA node they join) is an InputError naming its line. Pairs the file does
// not give (NV# hides the PCIe path of two GPUs; a PARTIAL paste leaves pairs of missing rows
// out) constrain nothing. A device no cell places anywhere goes to an extra NUMA node with the
// other such devices, each on its own host bridge, and `not_recovered` says so.
#pragma once

#include <string>
#include <vector>

#include "topology/import/import_profile.hpp"
#include "topology/import/smi_table.hpp"
#include "topology/servers/template_builder.hpp"

namespace gf {

// Adds the table's GPUs (gpu0.. in column order), then its NICs (nic0.., rail = index), then CPU
// root complexes and PCIe switches, with PCIe links of `pcie` and socket links of `socket_link`.
// Returns the template index of every table device. Appends what it could not recover.
std::vector<int> add_pcie_layout(const SmiTable& table, const ImportProfile& profile, const std::string& file,
                                 TemplateBuilder& b, std::vector<std::string>& not_recovered);

}  // namespace gf
