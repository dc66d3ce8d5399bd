#include "workload/env_yaml.hpp"

#include <vector>

#include "core/error.hpp"

namespace gf {

NcclSettings parse_env(const YamlFields& owner, const std::string& file) {
  const YAML::Node env = owner.get("env");
  if (!env.IsMap())
    owner.fail("env", "expected a mapping of NCCL variables", "write e.g. `env: {NCCL_ALGO: Ring, NCCL_PROTO: Simple}`");
  // Any NCCL name may be a key: YamlFields is here for its checks of plain and unique keys.
  std::vector<std::string> names;
  for (auto it = env.begin(); it != env.end(); ++it)
    if (it->first.IsScalar()) names.push_back(it->first.Scalar());
  YamlFields f(env, file, owner.key_path("env"), names);
  NcclSettings s;
  for (auto it = env.begin(); it != env.end(); ++it) {
    const std::string key = it->first.Scalar();
    const SourceLocation at = location_of(it->first, file);
    if (key.rfind("NCCL_", 0) != 0)
      throw InputError(at, f.key_path(key), "not an NCCL variable: only NCCL_* variables change what NCCL runs",
                       "remove it, or name an NCCL variable such as NCCL_ALGO");
    if (!it->second.IsScalar())
      throw InputError(location_of(it->second, file), f.key_path(key), "expected one value, as in an environment",
                       "write e.g. `" + key + ": 1`");
    try {
      apply_nccl_env(s, {{key, it->second.Scalar()}}, file);
    } catch (const InputError& e) {
      throw InputError(location_of(it->second, file), f.key_path(key), e.message(), e.hint());
    }
  }
  return s;
}

}  // namespace gf
