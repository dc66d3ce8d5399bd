// What a collective is: its kind, element type and reduction, and nccl-tests' bus-bandwidth
// factors (NVIDIA/nccl-tests doc/PERFORMANCE.md; see ../shared/validation/formats/
// nccl-tests-output-format.md), so simulated tables can be put beside measured ones.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/units.hpp"

namespace gf {

enum class CollectiveKind { AllReduce, AllGather, ReduceScatter, Broadcast, Reduce, AllToAll, SendRecv };

// nccl-tests names: "all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce",
// "alltoall", "sendrecv".
const char* to_string(CollectiveKind k);
// Accepts those names, the binary names ("all_reduce_perf") and spellings without '_'.
std::optional<CollectiveKind> parse_collective(const std::string& name);
std::vector<std::string> collective_names();

// busbw = algbw x factor (nccl-tests): AllReduce 2(n-1)/n; ReduceScatter, AllGather, AllToAll
// (n-1)/n; Broadcast, Reduce, SendRecv 1.
double busbw_factor(CollectiveKind k, int nranks);
// Whether the collective reduces (has a redop) and whether it has a root.
bool is_reduction(CollectiveKind k);
bool is_rooted(CollectiveKind k);

struct DataType {
  std::string name;  // nccl-tests spelling: "float", "half", "bfloat16", "double", "int8", ...
  int size = 4;      // bytes per element
};
std::optional<DataType> parse_datatype(const std::string& name);
std::vector<std::string> datatype_names();

// nccl-tests redops: sum, prod, min, max, avg.
std::optional<std::string> parse_redop(const std::string& name);

// One collective call as nccl-tests describes it. `bytes` is nccl-tests' printed size: the
// per-rank buffer (count x type size for AllReduce, Broadcast, Reduce, SendRecv; count x type size
// x nranks for AllGather, ReduceScatter, AllToAll).
struct CollectiveCall {
  CollectiveKind kind = CollectiveKind::AllReduce;
  Bytes bytes;
  DataType type{"float", 4};
  std::string redop = "sum";
  int root = 0;  // rooted collectives only
};

}  // namespace gf
