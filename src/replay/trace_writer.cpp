#include "replay/trace_writer.hpp"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "replay/chakra_et.hpp"
#include "replay/trace_loader.hpp"

namespace gf {

namespace fs = std::filesystem;

void write_chakra_dir(const Trace& trace, const std::string& dir, const std::string& prefix) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw InputError({dir, 0, 0}, "--emit-chakra", "cannot create the directory: " + ec.message(),
                     "give a writable directory");
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".et")
      throw InputError({dir, 0, 0}, "--emit-chakra", "the directory already holds a trace (" +
                                                         e.path().filename().string() + ")",
                       "choose a new or empty directory");
  for (const RankTrace& rt : trace.ranks) {
    RankTrace out = rt;
    for (TraceNode& n : out.nodes)
      if (n.kind == TraceNodeKind::Collective && n.collective == CollectiveKind::AllGather)
        n.bytes /= static_cast<int64_t>(trace.groups.at(n.pg).size());
    const fs::path p = fs::path(dir) / (prefix + "." + std::to_string(rt.rank) + ".et");
    std::ofstream f(p, std::ios::binary);
    f << encode_chakra(out, trace.gpu.value_or(""));
    if (!f) throw InputError({p.string(), 0, 0}, "--emit-chakra", "cannot write the file", "check the disk");
  }
  nlohmann::ordered_json g = nlohmann::ordered_json::object();
  for (const auto& [name, ranks] : trace.groups)
    if (!name.empty()) g[name] = ranks;
  std::ofstream f(fs::path(dir) / kCommGroupFile);
  f << g.dump(1) << "\n";
}

}  // namespace gf
