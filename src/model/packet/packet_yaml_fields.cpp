#include "model/packet/packet_yaml_fields.hpp"

#include "core/parse_units.hpp"

namespace gf {

void size_field(const YamlFields& f, const std::string& key, Bytes& out) {
  if (!f.has(key)) return;
  const YAML::Node v = f.get(key);
  if (!v.IsScalar()) f.fail(key, "expected a size such as 4096, 64KiB or 32MiB", "write `" + key + ": 64KiB` on one line");
  try {
    out = parse_size(v.Scalar());
  } catch (const UnitError& e) {
    f.fail(key, e.what(), "sizes look like 4096, 64KiB, 32MiB (K, M, G are powers of 1024)");
  }
}

void time_field(const YamlFields& f, const std::string& key, Time& out) {
  if (auto t = f.time(key)) out = *t;
}

void rate_field(const YamlFields& f, const std::string& key, Bandwidth& out) {
  if (auto b = f.bandwidth(key)) out = *b;
}

}  // namespace gf
