#include "workload/sweep_file.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "config/yaml_fields.hpp"

namespace gf {
namespace {

// A value as the text a --set value would be: a scalar as written, a list of scalars as [a, b].
std::string value_text(const YAML::Node& v, const std::string& file, const std::string& key) {
  if (v.IsScalar()) return v.Scalar();
  if (v.IsSequence()) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) {
      if (!v[i].IsScalar())
        throw InputError(location_of(v[i], file), key, "a value may be a scalar or a list of scalars", "e.g. [4, 4]");
      out += (i ? ", " : "") + v[i].Scalar();
    }
    return out + "]";
  }
  throw InputError(location_of(v, file), key, "a value may be a scalar or a list of scalars", "e.g. 8, ib-ndr or [4, 4]");
}

std::vector<SweepAxis> axes(const YAML::Node& map, const std::string& file, const std::string& block) {
  if (!map.IsMap())
    throw InputError(location_of(map, file), block, "expected a mapping of key: [values]",
                     "e.g. `" + block + ": {servers: [2, 4], fabric.oversubscription: [1, 2]}`");
  std::vector<SweepAxis> out;
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (!it->first.IsScalar())
      throw InputError(location_of(it->first, file), block, "a key must be a plain name", "e.g. fabric.link");
    SweepAxis a;
    a.key = it->first.Scalar();
    a.where = location_of(it->first, file);
    const YAML::Node v = it->second;
    // `servers: [2, 4]` is two points; `servers: 8` is one; `torus_dims: [[4, 4], [8, 8]]` two lists.
    if (v.IsSequence()) {
      for (size_t i = 0; i < v.size(); ++i) a.values.push_back(value_text(v[i], file, block + "." + a.key));
    } else {
      a.values.push_back(value_text(v, file, block + "." + a.key));
    }
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace

SweepFile parse_sweep_file(const std::string& text, const std::string& file) {
  YAML::Node root = load_yaml_document(text, file, "see docs/sweeps.md for a sweep file");
  YamlFields f(root, file, "", {"description", "cluster", "perf", "grid", "zip"});
  SweepFile s;
  s.cluster = f.string_or("cluster", "");
  if (!f.has("perf"))
    f.fail("perf", "missing", "give the perf command's words, e.g. `perf: all_reduce -b 1G -e 1G`");
  s.perf_where = f.where("perf");
  const YAML::Node perf = f.get("perf");
  if (perf.IsScalar()) {
    std::istringstream words(perf.Scalar());
    for (std::string w; words >> w;) s.perf.push_back(w);
  } else if (perf.IsSequence()) {
    for (size_t i = 0; i < perf.size(); ++i) {
      if (!perf[i].IsScalar()) f.fail("perf", "expected words", "e.g. `perf: [all_reduce, -b, 1G]`");
      s.perf.push_back(perf[i].Scalar());
    }
  } else {
    f.fail("perf", "expected the perf command's words", "e.g. `perf: all_reduce -b 1G -e 1G`");
  }
  if (s.perf.empty()) f.fail("perf", "names no collective", "e.g. `perf: all_reduce`");
  if (f.has("grid")) s.grid = axes(f.get("grid"), file, "grid");
  if (f.has("zip")) s.zip = axes(f.get("zip"), file, "zip");
  if (s.grid.empty() && s.zip.empty())
    f.fail("grid", "no key is swept", "add `grid: {servers: [2, 4]}` or a `zip:` map");
  for (auto& a : s.grid) a.where.column = 0;  // the line names the key; columns only clutter
  for (auto& a : s.zip) a.where.column = 0;
  return s;
}

SweepFile load_sweep_file(const std::string& path) {
  std::ifstream in(path);
  if (!in || std::filesystem::is_directory(path))
    throw InputError({path, 0, 0}, "", std::filesystem::is_directory(path) ? "is a folder, not a file" : "cannot read the file",
                     "check the path (docs/sweeps.md shows a sweep file)");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_sweep_file(ss.str(), path);
}

}  // namespace gf
