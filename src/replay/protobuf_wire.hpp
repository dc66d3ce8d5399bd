// The protocol-buffer wire format, the small part a Chakra execution trace needs: varints (plain and
// zigzag), fixed 32/64-bit words and length-delimited fields, and the varint-framed message stream
// of a `.et` file. Written from the encoding's public specification
// (https://protobuf.dev/programming-guides/encoding/), so the project reads and writes `.et` files
// without libprotobuf; every read is bounds-checked and a short buffer is an error naming its offset.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gf {

// Wire types (the low three bits of a field's tag).
enum class WireType : uint8_t { Varint = 0, Fixed64 = 1, Bytes = 2, StartGroup = 3, EndGroup = 4, Fixed32 = 5 };

// Thrown by WireReader on a malformed buffer: `offset` is where the bad field starts, counted from
// the start of the reader's whole buffer (the file), so errors can name the byte.
struct WireError {
  size_t offset;
  std::string what;
};

// Reads fields from a byte buffer it does not own. `base` is the buffer's offset in its file.
class WireReader {
 public:
  explicit WireReader(std::string_view bytes, size_t base = 0) : b_(bytes), base_(base) {}
  bool done() const { return pos_ >= b_.size(); }
  size_t offset() const { return base_ + pos_; }  // in the file

  uint64_t varint();
  uint32_t fixed32();
  uint64_t fixed64();
  std::string_view bytes();  // a length-delimited payload
  // The next field's number and wire type; throws on field number 0 or a group (proto2 groups are
  // not in Chakra's schema).
  std::pair<uint32_t, WireType> tag();
  void skip(WireType t);
  // A nested reader over `payload`, which must have come from this reader's bytes().
  WireReader sub(std::string_view payload) const {
    return WireReader(payload, base_ + static_cast<size_t>(payload.data() - b_.data()));
  }

 private:
  [[noreturn]] void fail(size_t at, const std::string& what) const;
  std::string_view b_;
  size_t base_ = 0, pos_ = 0;
};

inline int64_t zigzag_decode(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

// Appends fields to a string.
class WireWriter {
 public:
  void varint(uint32_t field, uint64_t v);
  void bytes(uint32_t field, std::string_view payload);
  void packed(uint32_t field, const uint64_t* values, size_t n);  // repeated varints, packed (proto3's default)
  const std::string& str() const { return out_; }
  static void raw_varint(std::string& out, uint64_t v);

 private:
  std::string out_;
};

}  // namespace gf
