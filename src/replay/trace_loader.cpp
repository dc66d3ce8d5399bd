#include "replay/trace_loader.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "replay/chakra_et.hpp"
#include "replay/kineto.hpp"

namespace gf {

namespace fs = std::filesystem;

namespace {

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw InputError({p.string(), 0, 0}, "", "cannot read the file", "check the path and its permissions");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::map<std::string, std::vector<int64_t>> read_groups(const fs::path& p, int64_t nranks) {
  const std::string text = read_bytes(p);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError({p.string(), 0, 0}, "", std::string("not JSON: ") + e.what(),
                     "a JSON object mapping each process group name to its ranks, e.g. {\"1\": [0, 1]}");
  }
  if (!j.is_object())
    throw InputError({p.string(), 0, 0}, "", "expected a JSON object of process group -> ranks",
                     "e.g. {\"1\": [0, 1, 2, 3]}");
  std::map<std::string, std::vector<int64_t>> out;
  for (const auto& [name, ranks] : j.items()) {
    if (!ranks.is_array() || ranks.empty())
      throw InputError({p.string(), 0, 0}, name, "expected a non-empty list of ranks", "e.g. [0, 1, 2, 3]");
    std::set<int64_t> seen;
    for (const auto& r : ranks) {
      if (!r.is_number_integer() || r.get<int64_t>() < 0 || r.get<int64_t>() >= nranks)
        throw InputError({p.string(), 0, 0}, name,
                         "rank " + r.dump() + " is not a rank of the trace (0.." + std::to_string(nranks - 1) + ")",
                         "list ranks that have a trace file");
      if (!seen.insert(r.get<int64_t>()).second)
        throw InputError({p.string(), 0, 0}, name, "rank " + r.dump() + " listed twice", "list each rank once");
      out[name].push_back(r.get<int64_t>());
    }
  }
  return out;
}

Trace load_chakra_dir(const fs::path& dir, const std::vector<fs::path>& files) {
  static const std::regex et(R"(^(.*)\.([0-9]+)\.et$)");
  std::map<int64_t, fs::path> by_rank;
  std::string prefix;
  for (const fs::path& f : files) {
    std::smatch m;
    const std::string name = f.filename().string();
    if (!std::regex_match(name, m, et)) continue;
    if (prefix.empty()) prefix = m[1].str();
    if (m[1].str() != prefix)
      throw InputError({f.string(), 0, 0}, "", "two traces in one directory ('" + prefix + ".N.et' and '" +
                                                   m[1].str() + ".N.et')",
                       "keep one trace's rank files per directory");
    const int64_t rank = std::stoll(m[2].str().substr(0, 9));
    by_rank[rank] = f;
  }
  Trace t;
  t.format = "chakra";
  t.source = dir.string();
  t.allgather_sizes_per_rank = true;
  const int64_t nranks = by_rank.empty() ? 0 : by_rank.rbegin()->first + 1;
  for (int64_t r = 0; r < nranks; ++r)
    if (!by_rank.count(r))
      throw InputError({(dir / (prefix + "." + std::to_string(r) + ".et")).string(), 0, 0}, "",
                       "missing rank " + std::to_string(r) + " of " + std::to_string(nranks) +
                           " (the highest rank file is " + by_rank.rbegin()->second.filename().string() + ")",
                       "a Chakra trace has one file per rank, " + prefix + ".0.et to " + prefix + "." +
                           std::to_string(nranks - 1) + ".et");
  for (const auto& [r, f] : by_rank) {
    std::string gpu;
    t.ranks.push_back(decode_chakra(read_bytes(f), f.string(), r, &gpu));
    if (!gpu.empty()) t.gpu = gpu;
  }
  const fs::path groups = dir / kCommGroupFile;
  if (fs::exists(groups)) {
    t.groups = read_groups(groups, nranks);
    t.groups_file = groups.string();
  }
  return t;
}

std::string node_key(const TraceNode& n) { return "node " + std::to_string(n.id); }

// Every dependency names a node of the rank; ids are unique; no cycle (Kahn's algorithm: what is
// left when no node without pending parents remains lies on, or behind, a cycle).
void check_dag(const RankTrace& rt) {
  std::unordered_map<uint64_t, size_t> index;
  index.reserve(rt.nodes.size());
  for (size_t i = 0; i < rt.nodes.size(); ++i)
    if (!index.emplace(rt.nodes[i].id, i).second)
      throw InputError({rt.file, 0, 0}, node_key(rt.nodes[i]), "two nodes have this id", "node ids must be unique per rank");
  std::vector<int64_t> pending(rt.nodes.size(), 0);
  std::vector<std::vector<size_t>> children(rt.nodes.size());
  for (size_t i = 0; i < rt.nodes.size(); ++i)
    for (uint64_t d : rt.nodes[i].deps) {
      const auto it = index.find(d);
      if (it == index.end())
        throw InputError({rt.file, 0, 0}, node_key(rt.nodes[i]),
                         "depends on node " + std::to_string(d) + ", which is not in the file",
                         "data_deps and ctrl_deps name nodes of the same rank's file");
      if (it->second == i)
        throw InputError({rt.file, 0, 0}, node_key(rt.nodes[i]), "dependency cycle: the node depends on itself",
                         "remove the dependency");
      ++pending[i];
      children[it->second].push_back(i);
    }
  std::vector<size_t> ready;
  for (size_t i = 0; i < pending.size(); ++i)
    if (pending[i] == 0) ready.push_back(i);
  size_t done = 0;
  while (!ready.empty()) {
    const size_t i = ready.back();
    ready.pop_back();
    ++done;
    for (size_t c : children[i])
      if (--pending[c] == 0) ready.push_back(c);
  }
  if (done == rt.nodes.size()) return;
  // Walk parents among the unfinished nodes until one repeats: that node is on a cycle.
  size_t at = 0;
  while (pending[at] == 0) ++at;
  std::vector<char> seen(rt.nodes.size(), 0);
  while (!seen[at]) {
    seen[at] = 1;
    for (uint64_t d : rt.nodes[at].deps)
      if (pending[index.at(d)] > 0) {
        at = index.at(d);
        break;
      }
  }
  throw InputError({rt.file, 0, 0}, node_key(rt.nodes[at]),
                   "dependency cycle: this node waits, through its dependencies, on itself",
                   "a trace's dependencies must form a DAG; check the data_deps and ctrl_deps of this node");
}

}  // namespace

void finish_trace(Trace& t) {
  const int64_t nranks = static_cast<int64_t>(t.ranks.size());
  for (RankTrace& rt : t.ranks) {
    check_dag(rt);
    for (const TraceNode& n : rt.nodes)
      if ((n.kind == TraceNodeKind::Send || n.kind == TraceNodeKind::Recv) &&
          (n.peer < 0 || n.peer >= nranks || n.peer == rt.rank))
        throw InputError({rt.file, 0, 0}, node_key(n),
                         std::string(n.kind == TraceNodeKind::Send ? "sends to" : "receives from") + " rank " +
                             std::to_string(n.peer) + ", which is not another rank of the trace (0.." +
                             std::to_string(nranks - 1) + ")",
                         "comm_src/comm_dst name a rank that has a trace file");
  }
  // Process groups: from the comm-group file when there is one (a group it lacks is unknown);
  // otherwise each group's members are the ranks whose nodes use it, and "" is every rank.
  const bool given = !t.groups_file.empty();
  std::map<std::string, std::set<int64_t>> users;
  for (const RankTrace& rt : t.ranks)
    for (const TraceNode& n : rt.nodes)
      if (n.kind == TraceNodeKind::Collective) users[n.pg].insert(rt.rank);
  for (const auto& [pg, ranks] : users) {
    if (pg.empty() && !t.groups.count(pg)) {
      std::vector<int64_t> all(static_cast<size_t>(nranks));
      for (int64_t r = 0; r < nranks; ++r) all[static_cast<size_t>(r)] = r;
      t.groups[pg] = all;
      continue;
    }
    if (!t.groups.count(pg)) {
      if (given) {
        for (const RankTrace& rt : t.ranks)
          for (const TraceNode& n : rt.nodes)
            if (n.kind == TraceNodeKind::Collective && n.pg == pg) {
              std::vector<std::string> names;
              for (const auto& [g, m] : t.groups) names.push_back(g);
              throw InputError({rt.file, 0, 0}, node_key(n),
                               "unknown process group '" + pg + "': " + t.groups_file + " does not list it",
                               suggest(pg, names));
            }
      }
      t.groups[pg] = std::vector<int64_t>(ranks.begin(), ranks.end());
    }
  }
  for (RankTrace& rt : t.ranks)
    for (TraceNode& n : rt.nodes) {
      if (n.kind != TraceNodeKind::Collective) continue;
      const std::vector<int64_t>& members = t.groups.at(n.pg);
      if (std::find(members.begin(), members.end(), rt.rank) == members.end())
        throw InputError({rt.file, 0, 0}, node_key(n),
                         "rank " + std::to_string(rt.rank) + " runs a collective on process group '" + n.pg +
                             "', which does not include it",
                         "the group's ranks (" + (t.groups_file.empty() ? "inferred" : t.groups_file) +
                             ") must include every rank that calls it");
      if (t.allgather_sizes_per_rank && n.collective == CollectiveKind::AllGather)
        n.bytes *= static_cast<int64_t>(members.size());
    }
  t.allgather_sizes_per_rank = false;
}

Trace load_trace(const std::string& path) {
  const fs::path p(path);
  std::error_code ec;
  if (!fs::exists(p, ec))
    throw InputError({path, 0, 0}, "", "no such file or directory",
                     "give a directory of Chakra .et files (one per rank) or Kineto JSON traces");
  Trace t;
  if (fs::is_directory(p)) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(p))
      if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    const bool any_et = std::any_of(files.begin(), files.end(), [](const fs::path& f) { return f.extension() == ".et"; });
    std::vector<fs::path> json;
    for (const fs::path& f : files)
      if (f.extension() == ".json" && f.filename() != kCommGroupFile) json.push_back(f);
    if (any_et)
      t = load_chakra_dir(p, files);
    else if (!json.empty())
      t = load_kineto(json, path);
    else
      throw InputError({path, 0, 0}, "", "no trace files: neither Chakra '*.N.et' nor Kineto '*.json'",
                       "a Chakra trace directory holds PREFIX.0.et .. PREFIX.(R-1).et");
    if (t.ranks.empty())
      throw InputError({path, 0, 0}, "", "no rank files named PREFIX.N.et", "name each rank's file PREFIX.N.et");
  } else if (p.extension() == ".json") {
    t = load_kineto({p}, path);
  } else {
    throw InputError({path, 0, 0}, "", "not a trace directory or a Kineto .json file",
                     "give a directory of Chakra .et files, or a Kineto JSON file");
  }
  finish_trace(t);
  return t;
}

}  // namespace gf
