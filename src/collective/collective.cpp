#include "collective/collective.hpp"

#include <algorithm>

#include "core/text.hpp"

namespace gf {

namespace {
struct KindName {
  CollectiveKind kind;
  const char* name;
};
constexpr KindName kKinds[] = {
    {CollectiveKind::AllReduce, "all_reduce"},         {CollectiveKind::AllGather, "all_gather"},
    {CollectiveKind::ReduceScatter, "reduce_scatter"}, {CollectiveKind::Broadcast, "broadcast"},
    {CollectiveKind::Reduce, "reduce"},                {CollectiveKind::AllToAll, "alltoall"},
    {CollectiveKind::SendRecv, "sendrecv"}};

std::string squash(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '_'), s.end());
  return ascii_lower(std::move(s));
}
}  // namespace

const char* to_string(CollectiveKind k) {
  for (const auto& e : kKinds)
    if (e.kind == k) return e.name;
  return "?";
}

std::optional<CollectiveKind> parse_collective(const std::string& name) {
  std::string n = name;
  if (n.size() > 5 && n.compare(n.size() - 5, 5, "_perf") == 0) n = n.substr(0, n.size() - 5);
  n = squash(n);
  for (const auto& e : kKinds)
    if (squash(e.name) == n) return e.kind;
  return std::nullopt;
}

std::vector<std::string> collective_names() {
  std::vector<std::string> out;
  for (const auto& e : kKinds) out.emplace_back(e.name);
  return out;
}

double busbw_factor(CollectiveKind k, int n) {
  switch (k) {
    case CollectiveKind::AllReduce: return 2.0 * (n - 1) / n;
    case CollectiveKind::AllGather:
    case CollectiveKind::ReduceScatter:
    case CollectiveKind::AllToAll: return static_cast<double>(n - 1) / n;
    case CollectiveKind::Broadcast:
    case CollectiveKind::Reduce:
    case CollectiveKind::SendRecv: return 1.0;
  }
  return 1.0;
}

bool is_reduction(CollectiveKind k) {
  return k == CollectiveKind::AllReduce || k == CollectiveKind::ReduceScatter || k == CollectiveKind::Reduce;
}

bool is_rooted(CollectiveKind k) { return k == CollectiveKind::Broadcast || k == CollectiveKind::Reduce; }

namespace {
const std::vector<DataType>& types() {
  static const std::vector<DataType> k = {
      {"int8", 1},   {"uint8", 1},   {"int32", 4},  {"uint32", 4},   {"int64", 8},       {"uint64", 8},
      {"half", 2},   {"float", 4},   {"double", 8}, {"bfloat16", 2}, {"f8e4m3", 1},      {"f8e5m2", 1}};
  return k;
}
}  // namespace

std::optional<DataType> parse_datatype(const std::string& name) {
  // nccl-tests also accepts these aliases.
  std::string n = name == "fp16" || name == "float16" ? "half"
                  : name == "fp32" || name == "float32" ? "float"
                  : name == "fp64" || name == "float64" ? "double"
                  : name == "bf16" ? "bfloat16" : name;
  for (const auto& t : types())
    if (t.name == n) return t;
  return std::nullopt;
}

std::vector<std::string> datatype_names() {
  std::vector<std::string> out;
  for (const auto& t : types()) out.push_back(t.name);
  return out;
}

std::optional<std::string> parse_redop(const std::string& name) {
  for (const char* op : {"sum", "prod", "min", "max", "avg"})
    if (name == op) return std::string(op);
  return std::nullopt;
}

}  // namespace gf
