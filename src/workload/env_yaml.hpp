// An `env:` map of a YAML file (a scenario job's, a validation data set's): NCCL_* variables as a
// real run's environment has them.
#pragma once

#include <string>

#include "config/yaml_fields.hpp"
#include "nccl/nccl_env.hpp"

namespace gf {

// The `env` key of `owner` applied over NCCL's defaults in the order written. A value that is not
// one plain scalar, a malformed value or a name that is not NCCL's is an InputError at its line;
// an NCCL variable gpufabric does not model is noted as ignored (NcclSettings::ignored).
NcclSettings parse_env(const YamlFields& owner, const std::string& file);

}  // namespace gf
