#include "config/imported_cluster.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace gf {

std::string import_format_word(TopologyFormat f) {
  switch (f) {
    case TopologyFormat::NvidiaSmi: return "nvidia-smi";
    case TopologyFormat::NcclXml: return "nccl-xml";
    case TopologyFormat::Yaml: return "yaml";
  }
  return "?";
}

std::optional<ImportedServer> import_topology_file(const std::string& path, const ImportOptions& opt,
                                                   TopologyFormat* format) {
  std::ifstream in(path, std::ios::binary);
  if (std::filesystem::is_directory(path))
    throw InputError({path, 0, 0}, "file", "is a folder, not a file", "give the path of a cluster file or a saved tool output");
  if (!in) throw InputError({path, 0, 0}, "file", "cannot be read", "check the path and its permissions");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  TopologyFormat f = detect_topology_format(text);
  if (format) *format = f;
  switch (f) {
    case TopologyFormat::NvidiaSmi: return import_nvidia_smi(text, path, opt);
    case TopologyFormat::NcclXml: return import_nccl_xml(text, path, opt);
    case TopologyFormat::Yaml: break;
  }
  return std::nullopt;
}

ClusterSpec imported_cluster(const ImportedServer& imp, const std::string& path, TopologyFormat format) {
  ClusterSpec spec;
  spec.server = imp.server;
  spec.name = imp.server.name;
  spec.description = imp.server.description;
  spec.source = imp.server.source;
  spec.servers = 1;
  spec.fabric.kind = imp.server.default_fabric;
  spec.where = {path, 0, 0};
  spec.fabric.where = spec.where;
  // The path and the command that changes an assumption are said once; each assumption then
  // names only its own option, so the notes stay one short line each.
  std::string head = "server imported from " + path + " (" + imp.format + ")";
  if (!imp.assumed.empty())
    head += "; what the file does not say is assumed below: change it with `gpufabric import " +
            import_format_word(format) + " " + path + " [OPTION] -o my.yaml`";
  spec.notes.push_back(head);
  for (const auto& a : imp.assumed)
    spec.notes.push_back("assumed " + a.what + " = " + a.value + " [" + a.override_with + "]: " + a.why);
  for (const auto& n : imp.not_recovered) spec.notes.push_back("not recovered: " + n);
  return spec;
}

}  // namespace gf
