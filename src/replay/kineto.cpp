#include "replay/kineto.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/text.hpp"

namespace gf {

namespace {

using nlohmann::json;

// Bytes per element of the dtype names PyTorch's record_param_comms writes (c10 ScalarType names).
int64_t dtype_bytes(const std::string& d) {
  static const std::map<std::string, int64_t> k = {
      {"float", 4},   {"float32", 4},  {"half", 2},     {"float16", 2},  {"bfloat16", 2}, {"double", 8},
      {"float64", 8}, {"int", 4},      {"int32", 4},    {"long", 8},     {"int64", 8},    {"short", 2},
      {"int16", 2},   {"char", 1},     {"int8", 1},     {"byte", 1},     {"uint8", 1},    {"bool", 1},
      {"float8_e4m3fn", 1}, {"float8_e5m2", 1}};
  const auto it = k.find(ascii_lower(d));
  return it == k.end() ? 0 : it->second;
}

std::string squash(const std::string& s) {  // "_allgather_base" -> "allgatherbase"
  std::string o;
  for (char c : ascii_lower(s))
    if (c != '_' && c != ' ') o.push_back(c);
  return o;
}

std::optional<TraceNodeKind> p2p_of(const std::string& name) {
  const std::string s = squash(name);
  if (s == "send") return TraceNodeKind::Send;
  if (s == "recv") return TraceNodeKind::Recv;
  return std::nullopt;
}

std::optional<CollectiveKind> collective_of(const std::string& name) {
  static const std::map<std::string, CollectiveKind> k = {
      {"allreduce", CollectiveKind::AllReduce},         {"allreducecoalesced", CollectiveKind::AllReduce},
      {"barrier", CollectiveKind::AllReduce},           {"allgather", CollectiveKind::AllGather},
      {"allgatherbase", CollectiveKind::AllGather},     {"allgatherintotensor", CollectiveKind::AllGather},
      {"allgathercoalesced", CollectiveKind::AllGather}, {"reducescatter", CollectiveKind::ReduceScatter},
      {"reducescatterbase", CollectiveKind::ReduceScatter}, {"reducescattertensor", CollectiveKind::ReduceScatter},
      {"broadcast", CollectiveKind::Broadcast},         {"reduce", CollectiveKind::Reduce},
      {"alltoall", CollectiveKind::AllToAll},           {"alltoallv", CollectiveKind::AllToAll},
      {"alltoallbase", CollectiveKind::AllToAll},       {"alltoallsingle", CollectiveKind::AllToAll}};
  const auto it = k.find(squash(name));
  if (it == k.end()) return std::nullopt;
  return it->second;
}

bool is_nccl(const std::string& name) { return name.rfind("ncclDevKernel_", 0) == 0 || name.rfind("ncclKernel_", 0) == 0; }

// "ncclDevKernel_AllReduce_Sum_f32_RING_LL(...)" -> "AllReduce".
std::string kernel_collective(const std::string& name) {
  const size_t a = name.find('_') + 1;
  const size_t b = name.find_first_of("_(", a);
  return name.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

// "[0, 1, 2, 3]" -> ranks; empty when cut short ("...") or unreadable.
std::vector<int64_t> parse_ranks(const std::string& s) {
  std::vector<int64_t> out;
  if (s.find("...") != std::string::npos) return {};
  std::string num;
  for (char c : s + ",") {
    if (c >= '0' && c <= '9') {
      num.push_back(c);
    } else if (!num.empty()) {
      out.push_back(std::stoll(num.substr(0, 12)));
      num.clear();
    }
  }
  return out;
}

std::string text_arg(const json& args, const char* key) {
  const auto it = args.find(key);
  if (it == args.end()) return {};
  if (it->is_string()) return it->get<std::string>();
  return it->dump();
}

int64_t int_arg(const json& args, const char* key) {
  const auto it = args.find(key);
  if (it == args.end()) return -1;
  if (it->is_number_integer()) return it->get<int64_t>();
  if (it->is_string()) {
    try {
      return std::stoll(it->get<std::string>());
    } catch (...) {
      return -1;
    }
  }
  return -1;
}

}  // namespace

RankTrace parse_kineto(const std::string& text, const std::string& file, int64_t rank, Trace& into) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw InputError({file, 0, 0}, "", std::string("not JSON: ") + e.what(),
                     "a PyTorch profiler trace is a Chrome Trace Event JSON object with \"traceEvents\"");
  }
  const json* events = &j;
  if (j.is_object()) {
    const auto it = j.find("traceEvents");
    if (it == j.end() || !it->is_array())
      throw InputError({file, 0, 0}, "traceEvents", "no \"traceEvents\" array",
                       "a PyTorch profiler trace is a Chrome Trace Event JSON object with \"traceEvents\"");
    events = &*it;
    if (auto dp = j.find("deviceProperties"); dp != j.end() && dp->is_array() && !dp->empty() &&
                                             (*dp)[0].is_object() && (*dp)[0].contains("name") &&
                                             (*dp)[0]["name"].is_string())
      into.gpu = (*dp)[0]["name"].get<std::string>();
  } else if (!j.is_array()) {
    throw InputError({file, 0, 0}, "", "expected a JSON object or an array of events", "");
  }
  RankTrace rt;
  rt.rank = rank;
  rt.file = file;
  struct Kernel {
    double ts, dur;
    int64_t stream;
    size_t node;
  };
  std::vector<Kernel> kernels;
  for (size_t i = 0; i < events->size(); ++i) {
    const json& e = (*events)[i];
    if (!e.is_object() || e.value("ph", "") != "X" || e.value("cat", "") != "kernel") continue;
    const std::string key = "node " + std::to_string(i);
    if (!e.contains("ts") || !e["ts"].is_number() || !e.contains("dur") || !e["dur"].is_number() || e["dur"].get<double>() < 0)
      throw InputError({file, 0, 0}, key, "a kernel event without a numeric ts and a non-negative dur",
                       "Chrome trace 'X' events carry ts and dur in microseconds");
    TraceNode n;
    n.id = i;
    n.name = e.value("name", "");
    n.start_s = e["ts"].get<double>() * 1e-6;
    n.duration_s = e["dur"].get<double>() * 1e-6;
    const json args = e.contains("args") && e["args"].is_object() ? e["args"] : json::object();
    int64_t stream = int_arg(args, "stream");
    if (stream < 0 && e.contains("tid") && e["tid"].is_number_integer()) stream = e["tid"].get<int64_t>();
    if (is_nccl(n.name)) {
      std::string coll = text_arg(args, "Collective name");
      if (coll.empty()) coll = kernel_collective(n.name);
      const auto p2p = p2p_of(coll);
      const auto kind = collective_of(coll);
      if (!kind && !p2p)
        throw InputError({file, 0, 0}, key, "unknown collective '" + coll + "' (kernel " + n.name + ")",
                         "replay knows allreduce, allgather, reduce_scatter, broadcast, reduce, all_to_all, send, recv "
                         "(args \"Collective name\")");
      const int64_t in = int_arg(args, "In msg nelems"), out = int_arg(args, "Out msg nelems");
      const std::string dtype = text_arg(args, "dtype");
      const int64_t size = dtype_bytes(dtype);
      if (std::max(in, out) < 0 || size == 0)
        throw InputError({file, 0, 0}, key,
                         "NCCL kernel without its size: args \"In msg nelems\"/\"Out msg nelems\" and a known \"dtype\" "
                         "(got dtype '" + dtype + "')",
                         "record with PyTorch's profiler and record_shapes, which adds the NCCL metadata to kernels");
      n.bytes = std::max(in, out) * size;
      n.pg = text_arg(args, "Process Group Name");
      if (p2p) {
        n.kind = *p2p;
        n.collective = CollectiveKind::SendRecv;
        n.peer = int_arg(args, *p2p == TraceNodeKind::Send ? "Dst Rank" : "Src Rank");
      } else {
        n.kind = TraceNodeKind::Collective;
        n.collective = squash(coll) == "barrier" ? CollectiveKind::AllReduce : *kind;
        if (squash(coll) == "barrier") n.bytes = 4;
        const std::vector<int64_t> ranks = parse_ranks(text_arg(args, "Process Group Ranks"));
        if (!ranks.empty() && !into.groups.count(n.pg)) into.groups[n.pg] = ranks;
      }
    } else {
      n.kind = TraceNodeKind::Compute;
    }
    kernels.push_back({n.start_s, n.duration_s, stream, rt.nodes.size()});
    rt.nodes.push_back(std::move(n));
  }
  // The recorded order as dependencies (kineto.hpp).
  std::vector<size_t> order(kernels.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return kernels[a].ts < kernels[b].ts; });
  std::map<int64_t, size_t> last_of_stream;  // stream -> its latest kernel so far
  std::vector<TraceNode> sorted;
  sorted.reserve(rt.nodes.size());
  for (size_t k : order) {
    TraceNode n = std::move(rt.nodes[kernels[k].node]);
    const double start = kernels[k].ts;
    for (const auto& [stream, idx] : last_of_stream) {
      const TraceNode& prev = sorted[idx];
      if (stream == kernels[k].stream || prev.start_s + prev.duration_s <= start) n.deps.push_back(prev.id);
    }
    last_of_stream[kernels[k].stream] = sorted.size();
    sorted.push_back(std::move(n));
  }
  rt.nodes = std::move(sorted);
  return rt;
}

Trace load_kineto(const std::vector<std::filesystem::path>& files, const std::string& source) {
  Trace t;
  t.format = "kineto";
  t.source = source;
  std::map<int64_t, RankTrace> by_rank;
  for (size_t i = 0; i < files.size(); ++i) {
    std::ifstream in(files[i], std::ios::binary);
    if (!in) throw InputError({files[i].string(), 0, 0}, "", "cannot read the file", "check the path");
    std::ostringstream s;
    s << in.rdbuf();
    const std::string text = s.str();
    int64_t rank = static_cast<int64_t>(i);
    try {  // distributedInfo.rank, when the profiler recorded it
      const json head = json::parse(text);
      if (head.is_object() && head.contains("distributedInfo") && head["distributedInfo"].is_object() &&
          head["distributedInfo"].contains("rank") && head["distributedInfo"]["rank"].is_number_integer())
        rank = head["distributedInfo"]["rank"].get<int64_t>();
    } catch (const json::parse_error&) {
      // parse_kineto reports it with the file's name
    }
    if (by_rank.count(rank))
      throw InputError({files[i].string(), 0, 0}, "distributedInfo.rank",
                       "rank " + std::to_string(rank) + " is also " + by_rank[rank].file, "one file per rank");
    by_rank[rank] = parse_kineto(text, files[i].string(), rank, t);
  }
  const int64_t nranks = by_rank.rbegin()->first + 1;
  for (int64_t r = 0; r < nranks; ++r)
    if (!by_rank.count(r))
      throw InputError({source, 0, 0}, "distributedInfo.rank",
                       "missing rank " + std::to_string(r) + " of " + std::to_string(nranks),
                       "a Kineto trace directory holds one profiler JSON file per rank, ranks 0.." +
                           std::to_string(nranks - 1));
  for (auto& [r, rt] : by_rank) t.ranks.push_back(std::move(rt));
  return t;
}

}  // namespace gf
