// The protobuf wire format and the Chakra .et codec (replay/protobuf_wire, replay/chakra_et),
// checked against encodings worked out by hand from the public specification
// (https://protobuf.dev/programming-guides/encoding/) and Chakra's et_def.proto field numbers.
#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"
#include "replay/chakra_et.hpp"
#include "replay/protobuf_wire.hpp"

namespace gf {
namespace {

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int x : b) s.push_back(static_cast<char>(x));
  return s;
}

TEST(ReplayWire, VarintOf300IsAC02) {
  // The specification's example: 300 = 0b10_0101100 -> groups 0101100, 0000010 -> 0xAC 0x02.
  std::string out;
  WireWriter::raw_varint(out, 300);
  EXPECT_EQ(out, bytes({0xAC, 0x02}));
  WireReader r(out);
  EXPECT_EQ(r.varint(), 300u);
  EXPECT_TRUE(r.done());
}

TEST(ReplayWire, TagIsFieldShiftedByThreeOrType) {
  // Field 1, varint, value 150: tag (1 << 3) | 0 = 0x08, then 150 = 0x96 0x01 (the spec's example).
  WireWriter w;
  w.varint(1, 150);
  EXPECT_EQ(w.str(), bytes({0x08, 0x96, 0x01}));
  // Field 2, bytes "testing": tag (2 << 3) | 2 = 0x12, length 7.
  WireWriter s;
  s.bytes(2, "testing");
  EXPECT_EQ(s.str(), bytes({0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g'}));
}

TEST(ReplayWire, ZigzagMapsSignsOntoOddAndEven) {
  // sint encoding: 0 -> 0, -1 -> 1, 1 -> 2, -2 -> 3, 2147483647 -> 4294967294.
  EXPECT_EQ(zigzag_decode(0), 0);
  EXPECT_EQ(zigzag_decode(1), -1);
  EXPECT_EQ(zigzag_decode(2), 1);
  EXPECT_EQ(zigzag_decode(3), -2);
  EXPECT_EQ(zigzag_decode(4294967294u), 2147483647);
}

TEST(ReplayWire, TruncatedFieldsAreErrorsWithTheirOffset) {
  const std::string cut = bytes({0x12, 0x07, 't', 'e'});  // says 7 bytes, has 2
  WireReader r(cut);
  r.tag();
  try {
    r.bytes();
    FAIL() << "no error";
  } catch (const WireError& e) {
    EXPECT_EQ(e.offset, 1u);  // the length varint, after the one-byte tag
  }
  WireReader v(bytes({0x80, 0x80}));  // continuation bits with nothing after
  EXPECT_THROW(v.varint(), WireError);
  WireReader g(bytes({0x0B}));  // field 1, wire type 3 (start group): not in proto3
  EXPECT_THROW(g.tag(), WireError);
}

TEST(ReplayChakra, HandEncodedCollectiveNodeDecodes) {
  // A GlobalMetadata {version "0.0.4"} then a Node {id 3, type COMM_COLL_NODE (7), data_deps [1, 2]
  // packed, duration_micros 250, attr comm_type int64 ALL_GATHER (2), attr comm_size int64 4096,
  // attr pg_name "tp"}, each framed by its varint length (et_def.proto numbers).
  auto attr_int = [](const std::string& name, int v) {
    std::string a = bytes({0x0A, static_cast<int>(name.size())}) + name + bytes({0x48});  // name 1; int64 9
    WireWriter::raw_varint(a, static_cast<uint64_t>(v));
    return bytes({0x52, static_cast<int>(a.size())}) + a;  // Node.attr = field 10, bytes: 0x52
  };
  const std::string pg = bytes({0x0A, 7}) + "pg_name" + bytes({0xEA, 0x01, 2}) + "tp";  // string_val 29: 0xEA 0x01
  std::string node = bytes({0x08, 3, 0x18, 7, 0x2A, 2, 1, 2, 0x38, 0xFA, 0x01});  // 250 = 0xFA 0x01
  node += attr_int("comm_type", 2) + attr_int("comm_size", 4096) + bytes({0x52, static_cast<int>(pg.size())}) + pg;
  const std::string meta = bytes({0x0A, 5}) + "0.0.4";
  std::string file = bytes({static_cast<int>(meta.size())}) + meta;
  file += bytes({static_cast<int>(node.size())}) + node;
  const RankTrace t = decode_chakra(file, "x.0.et", 0);
  ASSERT_EQ(t.nodes.size(), 1u);
  const TraceNode& n = t.nodes[0];
  EXPECT_EQ(n.id, 3u);
  EXPECT_EQ(n.kind, TraceNodeKind::Collective);
  EXPECT_EQ(n.collective, CollectiveKind::AllGather);
  EXPECT_EQ(n.bytes, 4096);  // comm_size as recorded; finish_trace scales all-gathers by the group
  EXPECT_EQ(n.pg, "tp");
  EXPECT_EQ(n.deps, (std::vector<uint64_t>{1, 2}));
  EXPECT_DOUBLE_EQ(n.duration_s, 250e-6);
}

TEST(ReplayChakra, EncodeThenDecodeKeepsEveryField) {
  RankTrace r;
  r.rank = 1;
  TraceNode c;
  c.id = 10;
  c.name = "gemm";
  c.duration_s = 12e-6;
  TraceNode s;
  s.id = 11;
  s.kind = TraceNodeKind::Send;
  s.collective = CollectiveKind::SendRecv;
  s.peer = 0;
  s.tag = 5;
  s.bytes = 1 << 20;
  s.deps = {10};
  TraceNode a;
  a.id = 12;
  a.kind = TraceNodeKind::Collective;
  a.collective = CollectiveKind::ReduceScatter;
  a.bytes = 3000000000;  // above 2^31: int64 comm_size
  a.pg = "dp";
  a.deps = {10, 11};
  r.nodes = {c, s, a};
  std::string gpu;
  const RankTrace back = decode_chakra(encode_chakra(r, "H100-SXM5-80GB"), "f", 1, &gpu);
  EXPECT_EQ(gpu, "H100-SXM5-80GB");
  ASSERT_EQ(back.nodes.size(), 3u);
  EXPECT_EQ(back.nodes[0].name, "gemm");
  EXPECT_EQ(back.nodes[0].kind, TraceNodeKind::Compute);
  EXPECT_DOUBLE_EQ(back.nodes[0].duration_s, 12e-6);
  EXPECT_EQ(back.nodes[1].kind, TraceNodeKind::Send);
  EXPECT_EQ(back.nodes[1].peer, 0);
  EXPECT_EQ(back.nodes[1].tag, 5);
  EXPECT_EQ(back.nodes[1].bytes, 1 << 20);
  EXPECT_EQ(back.nodes[2].collective, CollectiveKind::ReduceScatter);
  EXPECT_EQ(back.nodes[2].bytes, 3000000000);
  EXPECT_EQ(back.nodes[2].pg, "dp");
  EXPECT_EQ(back.nodes[2].deps, (std::vector<uint64_t>{10, 11}));
}

TEST(ReplayChakra, TruncatedFileNamesTheFileAndTheLastNode) {
  RankTrace r;
  TraceNode a, b;
  a.id = 7;
  b.id = 8;
  b.deps = {7};
  r.nodes = {a, b};
  const std::string whole = encode_chakra(r);
  try {
    decode_chakra(whole.substr(0, whole.size() - 3), "t.0.et", 0);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().file, "t.0.et");
    EXPECT_EQ(e.key(), "after node 7");  // node 8 is the one cut short
    EXPECT_NE(e.message().find("malformed protobuf"), std::string::npos);
  }
}

TEST(ReplayChakra, UnknownCollectiveNamesTheNode) {
  RankTrace r;
  TraceNode a;
  a.id = 4;
  a.kind = TraceNodeKind::Collective;
  r.nodes = {a};
  std::string f = encode_chakra(r);
  // Patch comm_type 0 (ALL_REDUCE) to 3 (GATHER): the int64 value byte after the "comm_type" name.
  const size_t at = f.find("comm_type") + 9;
  ASSERT_EQ(f[at], 0x48);
  f[at + 1] = 3;
  try {
    decode_chakra(f, "g.0.et", 0);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "node 4");
    EXPECT_NE(e.message().find("unknown collective: comm_type 3"), std::string::npos);
  }
}

}  // namespace
}  // namespace gf
