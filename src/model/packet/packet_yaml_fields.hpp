// Reading one value of a `packet:` block, or of a scheme's block under it, into a field that
// already holds its default: a key that is absent leaves the field alone. Sizes, times and rates
// parse at the edge (core/parse_units), and a bad one is an InputError at the key's file:line.
#pragma once

#include <string>

#include "config/yaml_fields.hpp"
#include "core/units.hpp"

namespace gf {

// 4096, 64KiB, 32MiB (K, M, G are powers of 1024).
void size_field(const YamlFields& f, const std::string& key, Bytes& out);
void time_field(const YamlFields& f, const std::string& key, Time& out);
void rate_field(const YamlFields& f, const std::string& key, Bandwidth& out);

}  // namespace gf
