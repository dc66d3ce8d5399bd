// Chakra execution traces (MLCommons Chakra, the format ASTRA-sim consumes): one `.et` file per
// rank, a stream of varint-length-prefixed protobuf messages, a GlobalMetadata then one Node per
// node. Field numbers are those of the public schema, mlcommons/chakra
// schema/protobuf/et_def.proto (package ChakraProtoMsg): Node id 1, name 2, type 3, ctrl_deps 4,
// data_deps 5, start_time_micros 6, duration_micros 7, attr 10; AttributeProto name 1 and the
// value oneof (int32 7, int64 9, uint32 11, uint64 13, sint32 15, sint64 17, fixed32 19,
// fixed64 21, sfixed32 23, sfixed64 25, bool 27, string 29, double 3, float 5); GlobalMetadata
// version 1, attr 2. Decoded here with replay/protobuf_wire (no libprotobuf).
#pragma once

#include <string>
#include <string_view>

#include "replay/trace.hpp"

namespace gf {

// Chakra's NodeType and CollectiveCommType values (et_def.proto).
namespace chakra {
constexpr int kCompNode = 4, kCommSendNode = 5, kCommRecvNode = 6, kCommCollNode = 7;
constexpr int kAllReduce = 0, kReduce = 1, kAllGather = 2, kGather = 3, kScatter = 4, kBroadcast = 5, kAllToAll = 6,
              kReduceScatter = 7, kReduceScatterBlock = 8, kBarrier = 9;
}  // namespace chakra

// One rank's file from its bytes. `file` names it in errors (InputError: file, the node id as the
// key, the byte offset). Collective sizes are Chakra's comm_size (the input tensors' bytes) as
// recorded; `Trace` loading turns them into nccl-tests sizes once the group sizes are known.
// `gpu`: the GlobalMetadata attribute "gpu" when present (gpufabric writes it).
RankTrace decode_chakra(std::string_view bytes, const std::string& file, int64_t rank, std::string* gpu = nullptr);

// The bytes of a rank's file: GlobalMetadata (version, and "gpu" when given) then its nodes.
// Durations are written in whole microseconds, as the schema holds them (duration_micros).
std::string encode_chakra(const RankTrace& rank, const std::string& gpu = {});

}  // namespace gf
