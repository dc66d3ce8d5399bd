// Server files in a machine's own formats (`nvidia-smi topo -m`, NCCL topology XML) as clusters:
// what lets `--cluster topo.txt` and `gpufabric import` share one path from a file to a ClusterSpec,
// with the importer's assumptions carried along as notes every report prints.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "topology/cluster_spec.hpp"
#include "topology/import/imported_server.hpp"

namespace gf {

// The command-line word of a format ("nvidia-smi", "nccl-xml"), as `gpufabric import WORD FILE` takes it.
std::string import_format_word(TopologyFormat f);

// Reads `path` and imports it when its content is nvidia-smi / rocm-smi text or NCCL XML;
// nullopt when it is YAML (or anything else: the YAML loader reports that). `format` receives the
// detected format. Throws InputError when the file cannot be read or does not import.
std::optional<ImportedServer> import_topology_file(const std::string& path, const ImportOptions& opt,
                                                   TopologyFormat* format = nullptr);

// One server of `imp` on its usual fabric, named after the file, with `notes` saying what was
// imported, assumed (and how to change it) and not recovered.
ClusterSpec imported_cluster(const ImportedServer& imp, const std::string& path, TopologyFormat format);

}  // namespace gf
