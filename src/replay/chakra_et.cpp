#include "replay/chakra_et.hpp"

#include <cmath>
#include <cstring>
#include <optional>

#include "core/error.hpp"
#include "replay/protobuf_wire.hpp"

namespace gf {

namespace {

// An attribute's value, as the few we read need it.
struct Attr {
  std::string name;
  std::optional<int64_t> integer;  // every integer and bool form
  std::optional<std::string> text;
};

Attr decode_attr(WireReader r) {
  Attr a;
  while (!r.done()) {
    const auto [field, type] = r.tag();
    if (field == 1 && type == WireType::Bytes) {
      a.name = std::string(r.bytes());
    } else if (type == WireType::Varint && (field == 7 || field == 9 || field == 11 || field == 13 || field == 27)) {
      a.integer = static_cast<int64_t>(r.varint());
      if (field == 7) a.integer = static_cast<int32_t>(*a.integer);  // int32 is sign-extended to 64 bits
    } else if (type == WireType::Varint && (field == 15 || field == 17)) {
      a.integer = zigzag_decode(r.varint());
    } else if (type == WireType::Fixed32 && (field == 19 || field == 23)) {
      const uint32_t v = r.fixed32();
      a.integer = field == 23 ? static_cast<int64_t>(static_cast<int32_t>(v)) : static_cast<int64_t>(v);
    } else if (type == WireType::Fixed64 && (field == 21 || field == 25)) {
      a.integer = static_cast<int64_t>(r.fixed64());
    } else if (type == WireType::Bytes && field == 29) {
      a.text = std::string(r.bytes());
    } else {
      r.skip(type);  // doubles, lists, doc_string: not read by replay
    }
  }
  return a;
}

std::optional<CollectiveKind> collective_of(int64_t comm_type) {
  switch (comm_type) {
    case chakra::kAllReduce: return CollectiveKind::AllReduce;
    case chakra::kReduce: return CollectiveKind::Reduce;
    case chakra::kAllGather: return CollectiveKind::AllGather;
    case chakra::kBroadcast: return CollectiveKind::Broadcast;
    case chakra::kAllToAll: return CollectiveKind::AllToAll;
    case chakra::kReduceScatter:
    case chakra::kReduceScatterBlock: return CollectiveKind::ReduceScatter;
    // A barrier is what PyTorch runs over NCCL: an all-reduce of one element
    // (torch.distributed.barrier, ProcessGroupNCCL::barrier).
    case chakra::kBarrier: return CollectiveKind::AllReduce;
    default: return std::nullopt;
  }
}

int comm_type_of(CollectiveKind k) {
  switch (k) {
    case CollectiveKind::AllReduce: return chakra::kAllReduce;
    case CollectiveKind::Reduce: return chakra::kReduce;
    case CollectiveKind::AllGather: return chakra::kAllGather;
    case CollectiveKind::Broadcast: return chakra::kBroadcast;
    case CollectiveKind::AllToAll: return chakra::kAllToAll;
    case CollectiveKind::ReduceScatter: return chakra::kReduceScatter;
    case CollectiveKind::SendRecv: break;
  }
  return chakra::kAllReduce;
}

TraceNode decode_node(WireReader r, const std::string& file) {
  TraceNode n;
  int type = 0;
  uint64_t duration_us = 0, start_us = 0;
  bool has_start = false;
  std::vector<Attr> attrs;
  auto deps = [&](WireType t) {
    if (t == WireType::Bytes) {  // packed, proto3's default
      WireReader p = r.sub(r.bytes());
      while (!p.done()) n.deps.push_back(p.varint());
    } else {
      n.deps.push_back(r.varint());
    }
  };
  while (!r.done()) {
    const auto [field, t] = r.tag();
    if (field == 1 && t == WireType::Varint) n.id = r.varint();
    else if (field == 2 && t == WireType::Bytes) n.name = std::string(r.bytes());
    else if (field == 3 && t == WireType::Varint) type = static_cast<int>(r.varint());
    else if ((field == 4 || field == 5) && (t == WireType::Varint || t == WireType::Bytes)) deps(t);
    else if (field == 6 && t == WireType::Varint) { start_us = r.varint(); has_start = true; }
    else if (field == 7 && t == WireType::Varint) duration_us = r.varint();
    else if (field == 10 && t == WireType::Bytes) attrs.push_back(decode_attr(r.sub(r.bytes())));
    else r.skip(t);
  }
  n.duration_s = static_cast<double>(duration_us) * 1e-6;
  if (has_start) n.start_s = static_cast<double>(start_us) * 1e-6;
  auto find = [&](const char* name) -> const Attr* {
    for (const Attr& a : attrs)
      if (a.name == name) return &a;
    return nullptr;
  };
  const std::string key = "node " + std::to_string(n.id);
  auto integer = [&](const char* name, bool required) -> int64_t {
    const Attr* a = find(name);
    if (a && a->integer) return *a->integer;
    if (required)
      throw InputError({file, 0, 0}, key, std::string("a communication node without the integer attribute '") + name + "'",
                       "Chakra's et_def.proto: comm_type and comm_size on COMM_COLL_NODE, comm_src/comm_dst on "
                       "COMM_RECV_NODE/COMM_SEND_NODE");
    return 0;
  };
  switch (type) {
    case chakra::kCompNode: {
      const Attr* cpu = find("is_cpu_op");
      // A host-side op (is_cpu_op true) does not occupy the GPU: it only orders the nodes after it.
      n.kind = (cpu && cpu->integer && *cpu->integer != 0) ? TraceNodeKind::Marker : TraceNodeKind::Compute;
      break;
    }
    case chakra::kCommCollNode: {
      n.kind = TraceNodeKind::Collective;
      const int64_t ct = integer("comm_type", true);
      const auto k = collective_of(ct);
      if (!k)
        throw InputError({file, 0, 0}, key,
                         "unknown collective: comm_type " + std::to_string(ct) +
                             (ct == chakra::kGather || ct == chakra::kScatter ? " (GATHER/SCATTER are not simulated)" : ""),
                         "supported comm_type values (et_def.proto CollectiveCommType): ALL_REDUCE 0, REDUCE 1, "
                         "ALL_GATHER 2, BROADCAST 5, ALL_TO_ALL 6, REDUCE_SCATTER 7, REDUCE_SCATTER_BLOCK 8, BARRIER 9");
      n.collective = *k;
      n.bytes = ct == chakra::kBarrier ? 4 : integer("comm_size", true);
      if (n.bytes < 0)
        throw InputError({file, 0, 0}, key, "negative comm_size " + std::to_string(n.bytes), "comm_size is in bytes");
      if (const Attr* pg = find("pg_name"); pg && pg->text) n.pg = *pg->text;
      break;
    }
    case chakra::kCommSendNode:
    case chakra::kCommRecvNode: {
      const bool send = type == chakra::kCommSendNode;
      n.kind = send ? TraceNodeKind::Send : TraceNodeKind::Recv;
      n.collective = CollectiveKind::SendRecv;
      n.peer = integer(send ? "comm_dst" : "comm_src", true);
      n.tag = integer("comm_tag", false);
      n.bytes = integer("comm_size", true);
      if (n.bytes < 0)
        throw InputError({file, 0, 0}, key, "negative comm_size " + std::to_string(n.bytes), "comm_size is in bytes");
      if (const Attr* pg = find("pg_name"); pg && pg->text) n.pg = *pg->text;
      break;
    }
    default:
      n.kind = TraceNodeKind::Marker;  // metadata, memory and other node types: ordering only
  }
  return n;
}

void put_attr_int(WireWriter& w, const char* name, int64_t v, bool as_int32 = false) {
  WireWriter a;
  a.bytes(1, name);
  a.varint(as_int32 ? 7 : 9, static_cast<uint64_t>(v));
  w.bytes(10, a.str());
}

void put_attr_str(WireWriter& w, uint32_t field, const char* name, const std::string& v) {
  WireWriter a;
  a.bytes(1, name);
  a.bytes(29, v);
  w.bytes(field, a.str());
}

}  // namespace

RankTrace decode_chakra(std::string_view bytes, const std::string& file, int64_t rank, std::string* gpu) {
  RankTrace out;
  out.rank = rank;
  out.file = file;
  WireReader stream(bytes);
  uint64_t last_id = 0;
  bool any = false;
  try {
    bool first = true;
    while (!stream.done()) {
      const std::string_view msg = stream.bytes();  // a varint length, then the message
      WireReader r = stream.sub(msg);
      if (first) {  // GlobalMetadata: version 1, attr 2
        first = false;
        while (!r.done()) {
          const auto [field, t] = r.tag();
          if (field == 2 && t == WireType::Bytes) {
            const Attr a = decode_attr(r.sub(r.bytes()));
            if (gpu && a.name == "gpu" && a.text) *gpu = *a.text;
          } else {
            r.skip(t);
          }
        }
        continue;
      }
      out.nodes.push_back(decode_node(r, file));
      last_id = out.nodes.back().id;
      any = true;
    }
  } catch (const WireError& e) {
    throw InputError({file, 0, 0}, any ? "after node " + std::to_string(last_id) : "GlobalMetadata",
                     "malformed protobuf at byte " + std::to_string(e.offset) + ": " + e.what,
                     "the file is cut short or is not a Chakra .et file (a varint-length-prefixed GlobalMetadata, "
                     "then Node messages)");
  }
  return out;
}

std::string encode_chakra(const RankTrace& rank, const std::string& gpu) {
  std::string out;
  auto frame = [&](const std::string& msg) {
    WireWriter::raw_varint(out, msg.size());
    out.append(msg);
  };
  WireWriter meta;
  meta.bytes(1, "0.0.4");
  if (!gpu.empty()) put_attr_str(meta, 2, "gpu", gpu);
  frame(meta.str());
  for (const TraceNode& n : rank.nodes) {
    WireWriter w;
    w.varint(1, n.id);
    w.bytes(2, n.name);
    int type = chakra::kCompNode;
    if (n.kind == TraceNodeKind::Collective) type = chakra::kCommCollNode;
    if (n.kind == TraceNodeKind::Send) type = chakra::kCommSendNode;
    if (n.kind == TraceNodeKind::Recv) type = chakra::kCommRecvNode;
    w.varint(3, static_cast<uint64_t>(type));
    w.packed(5, n.deps.data(), n.deps.size());
    if (n.start_s >= 0) w.varint(6, static_cast<uint64_t>(std::llround(n.start_s * 1e6)));
    w.varint(7, static_cast<uint64_t>(std::llround(n.duration_s * 1e6)));
    {
      WireWriter a;  // is_cpu_op: false for GPU work (bool field 27)
      a.bytes(1, "is_cpu_op");
      a.varint(27, n.kind == TraceNodeKind::Marker ? 1 : 0);
      w.bytes(10, a.str());
    }
    if (n.kind == TraceNodeKind::Collective) {
      put_attr_int(w, "comm_type", comm_type_of(n.collective));
      put_attr_int(w, "comm_size", n.bytes);
    } else if (n.kind == TraceNodeKind::Send || n.kind == TraceNodeKind::Recv) {
      put_attr_int(w, n.kind == TraceNodeKind::Send ? "comm_dst" : "comm_src", n.peer, true);
      put_attr_int(w, "comm_tag", n.tag, true);
      put_attr_int(w, "comm_size", n.bytes);
    }
    if (!n.pg.empty()) put_attr_str(w, 10, "pg_name", n.pg);
    frame(w.str());
  }
  return out;
}

}  // namespace gf
