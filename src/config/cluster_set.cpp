#include "config/cluster_set.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "config/cluster_yaml.hpp"
#include "config/imported_cluster.hpp"
#include "config/yaml_fields.hpp"
#include "topology/server_registry.hpp"

namespace gf {
namespace {

// The YAML document `arg` stands for, and the name its errors give as the file.
struct BaseDocument {
  std::string text, file;
  const ServerPreset* server = nullptr;  // a bare server name: its description is kept
};

BaseDocument base_document(const std::string& arg) {
  if (const std::string_view* text = preset_text(arg)) return {std::string(*text), "preset " + arg};
  if (const ServerPreset* p = find_server(arg)) {
    // What resolve_cluster() makes of a server name: one server on its usual fabric.
    return {"name: " + arg + "\nserver: " + arg + "\n", "--cluster " + arg, p};
  }
  if (std::filesystem::exists(arg)) {
    TopologyFormat format = TopologyFormat::Yaml;
    if (auto imported = import_topology_file(arg, {}, &format))
      return {cluster_to_yaml(imported_cluster(*imported, arg, format)), arg};
    std::ifstream in(arg);
    std::stringstream ss;
    ss << in.rdbuf();
    if (!in || std::filesystem::is_directory(arg)) return {"", ""};  // resolve_cluster() says why
    return {ss.str(), arg};
  }
  return {"", ""};
}

std::vector<std::string> split_key(const KeySetting& s) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : s.key + ".") {
    if (c != '.') {
      cur += c;
      continue;
    }
    if (cur.empty())
      throw InputError(s.where, s.key, "is not a key path", "write dotted YAML keys, e.g. fabric.oversubscription=2");
    parts.push_back(cur);
    cur.clear();
  }
  return parts;
}

void apply(YAML::Node root, const KeySetting& s) {
  const std::vector<std::string> parts = split_key(s);
  YAML::Node cur = root;
  std::string path;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    path += (path.empty() ? "" : ".") + parts[i];
    YAML::Node child = cur[parts[i]];
    if (child.IsScalar() && parts[i] == "server") {
      // `server: dgx-h100` is shorthand for `server: {base: dgx-h100}`, the form that takes keys.
      YAML::Node block(YAML::NodeType::Map);
      block["base"] = child.Scalar();
      cur[parts[i]] = block;
    } else if (!child.IsDefined() || child.IsNull()) {
      cur[parts[i]] = YAML::Node(YAML::NodeType::Map);
    } else if (!child.IsMap()) {
      throw InputError(s.where, s.key, "'" + path + "' is a value, not a block of keys",
                       "set '" + path + "' itself, e.g. " + path + "=...");
    }
    YAML::Node next = cur[parts[i]];
    cur.reset(next);
  }
  YAML::Node value;
  try {
    value = YAML::Load(s.value);
  } catch (const YAML::Exception& e) {
    throw InputError(s.where, s.key, "'" + s.value + "' is not a YAML value: " + e.msg,
                     "give a number, a name or a [list]");
  }
  cur[parts.back()] = value;
}

// An error the reader found at a key a setting changed (or under it, or above it) is that
// setting's: it is reported where the setting was written.
bool concerns(const std::string& error_key, const std::string& set_key) {
  auto under = [](const std::string& a, const std::string& b) {
    return a.size() > b.size() && a.compare(0, b.size(), b) == 0 && (a[b.size()] == '.' || a[b.size()] == '[');
  };
  return error_key == set_key || under(error_key, set_key) || under(set_key, error_key);
}

}  // namespace

const std::vector<std::string>& cluster_top_keys() {
  static const std::vector<std::string> k = {"name", "description", "source", "server", "servers", "fabric",
                                             "link_technologies"};  // immutable: parse_cluster_node's keys
  return k;
}

ClusterSpec resolve_cluster_set(const std::string& arg, const ClusterOverrides& over, const std::vector<KeySetting>& sets) {
  if (sets.empty()) return resolve_cluster(arg, over);
  BaseDocument base = base_document(arg);
  if (base.file.empty()) return resolve_cluster(arg, over);  // throws: neither a preset nor a readable file
  YAML::Node root = load_yaml_document(base.text, base.file, "start from `gpufabric topo dgx-h100 --format yaml`");
  for (const KeySetting& s : sets) {
    const std::string top = s.key.substr(0, s.key.find('.'));
    bool known = false;
    for (const auto& k : cluster_top_keys()) known |= k == top;
    if (!known) throw InputError(s.where, s.key, "not a cluster key", suggest(top, cluster_top_keys()));
    apply(root, s);
  }
  ClusterSpec spec;
  try {
    spec = parse_cluster_node(root, base.file);
  } catch (const InputError& e) {
    for (const KeySetting& s : sets)
      if (concerns(e.key(), s.key)) throw InputError(s.where, e.key(), e.message() + " (" + s.key + "=" + s.value + ")", e.hint());
    throw;
  }
  if (base.server) {
    spec.description = spec.server.description;
    spec.source = spec.server.source;
  }
  // The builders' checks (count_cluster) name the setting that shaped what they check.
  for (const KeySetting& s : sets) {
    if (s.key.rfind("fabric", 0) == 0) spec.fabric.where = s.where;
    if (s.key == "servers") spec.where = s.where;
  }
  apply_cluster_overrides(spec, over);
  return spec;
}

}  // namespace gf
