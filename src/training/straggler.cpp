#include "training/straggler.hpp"

#include <charconv>
#include <cmath>
#include <vector>

#include "core/error.hpp"

namespace gf {

GpuSlowdown parse_gpu_slowdown(const Cluster& c, const std::string& flag, const std::string& text) {
  const std::string hint = "write NAME=FRACTION, e.g. " + flag + " server1/gpu3=0.8 (the GPU at 80% of its speed)";
  const size_t eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0) throw InputError({}, flag, "'" + text + "' has no =FRACTION", hint);
  GpuSlowdown s;
  s.name = text.substr(0, eq);
  const std::string v = text.substr(eq + 1);
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), s.compute);
  if (ec != std::errc() || p != v.data() + v.size() || !std::isfinite(s.compute))
    throw InputError({}, flag, "'" + v + "' is not a fraction", hint);
  if (!(s.compute > 0) || s.compute > 1)
    throw InputError({}, flag, "the fraction must be above 0 and at most 1, got " + v,
                     "0.8 is a GPU at 80% of its speed; a stopped GPU stops the job (gpufabric goodput)");
  const NodeId n = c.find_node(s.name);
  if (n == kNoNode || c.gpu_index(n) < 0) {
    std::vector<std::string> names;
    // As written on the command line: serverS/<the server's GPU name> (gpuN, the global name, also works).
    for (int64_t srv = 0; srv < c.servers() && names.size() < 4096; ++srv)
      for (const auto& node : c.server_template().nodes)
        if (node.kind == NodeKind::Gpu) names.push_back("server" + std::to_string(srv) + "/" + node.name);
    const std::string did = closest_match(s.name, names);
    throw InputError({}, flag, "no GPU named '" + s.name + "'",
                     (did.empty() ? "" : "did you mean '" + did + "'? ") + "GPUs are named as `gpufabric topo` names them, e.g. server0/gpu0");
  }
  s.gpu = c.gpu_index(n);
  return s;
}

}  // namespace gf
