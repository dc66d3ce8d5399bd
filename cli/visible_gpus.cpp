#include "visible_gpus.hpp"

#include <algorithm>
#include <cstdlib>

#include <gpufabric/gpufabric.hpp>

namespace gfcli {

namespace {

std::vector<int> parse_list(const std::string& text, const std::string& from) {
  const std::string hint = from == "CUDA_VISIBLE_DEVICES"
                               ? "give the GPUs' indices, e.g. CUDA_VISIBLE_DEVICES=0,1,6,7 (UUIDs are not read)"
                               : "give the GPUs' indices within a server, e.g. --gpus 0,1,6,7";
  std::vector<int> out;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const bool digits = !item.empty() && item.size() <= 6 &&
                        std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits) throw gf::InputError({}, from, "'" + item + "' in '" + text + "' is not a GPU index", hint);
    const int g = std::atoi(item.c_str());
    if (std::find(out.begin(), out.end(), g) != out.end())
      throw gf::InputError({}, from, "GPU " + item + " is listed twice in '" + text + "'", hint);
    out.push_back(g);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

std::optional<VisibleGpus> visible_gpus(const std::string& flag_value, bool flag_given) {
  if (flag_given) return VisibleGpus{parse_list(flag_value, "--gpus"), "--gpus"};
  const char* env = std::getenv("CUDA_VISIBLE_DEVICES");
  if (!env || !*env) return std::nullopt;
  return VisibleGpus{parse_list(env, "CUDA_VISIBLE_DEVICES"), "CUDA_VISIBLE_DEVICES"};
}

void check_visible_gpus(const VisibleGpus& v, int gpus_per_server) {
  for (int g : v.positions)
    if (g >= gpus_per_server)
      throw gf::InputError({}, v.from,
                           "GPU " + std::to_string(g) + " does not exist: a server has " +
                               std::to_string(gpus_per_server) + " GPUs",
                           "use indices 0.." + std::to_string(gpus_per_server - 1));
}

std::string visible_gpus_line(const VisibleGpus& v) {
  std::string list;
  for (int g : v.positions) list += (list.empty() ? "" : ",") + std::to_string(g);
  return "GPUs " + list + " of each server (" + v.from + ")";
}

}  // namespace gfcli
