#include "replay/protobuf_wire.hpp"

namespace gf {

void WireReader::fail(size_t at, const std::string& what) const { throw WireError{base_ + at, what}; }

uint64_t WireReader::varint() {
  const size_t start = pos_;
  uint64_t v = 0;
  // At most 10 bytes: 64 bits in 7-bit groups.
  for (int shift = 0; shift < 70; shift += 7) {
    if (pos_ >= b_.size()) fail(start, "truncated varint");
    const uint8_t byte = static_cast<uint8_t>(b_[pos_++]);
    v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return v;
  }
  fail(start, "varint longer than 10 bytes");
}

uint32_t WireReader::fixed32() {
  if (b_.size() - pos_ < 4) fail(pos_, "truncated 32-bit field");
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(b_[pos_ + static_cast<size_t>(i)]);
  pos_ += 4;
  return v;
}

uint64_t WireReader::fixed64() {
  if (b_.size() - pos_ < 8) fail(pos_, "truncated 64-bit field");
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(b_[pos_ + static_cast<size_t>(i)]);
  pos_ += 8;
  return v;
}

std::string_view WireReader::bytes() {
  const size_t start = pos_;
  const uint64_t n = varint();
  if (n > b_.size() - pos_)
    fail(start, "truncated: a field of " + std::to_string(n) + " bytes but " + std::to_string(b_.size() - pos_) +
                    " remain");
  std::string_view out = b_.substr(pos_, static_cast<size_t>(n));
  pos_ += static_cast<size_t>(n);
  return out;
}

std::pair<uint32_t, WireType> WireReader::tag() {
  const size_t start = pos_;
  const uint64_t t = varint();
  const uint64_t field = t >> 3;
  const auto type = static_cast<WireType>(t & 7);
  if (field == 0 || field > 0x1fffffff) fail(start, "invalid field number " + std::to_string(field));
  if (type == WireType::StartGroup || type == WireType::EndGroup || (t & 7) > 5)
    fail(start, "unsupported wire type " + std::to_string(t & 7) + " (field " + std::to_string(field) + ")");
  return {static_cast<uint32_t>(field), type};
}

void WireReader::skip(WireType t) {
  switch (t) {
    case WireType::Varint: varint(); return;
    case WireType::Fixed64: fixed64(); return;
    case WireType::Fixed32: fixed32(); return;
    case WireType::Bytes: bytes(); return;
    default: fail(pos_, "unsupported wire type");
  }
}

void WireWriter::raw_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void WireWriter::varint(uint32_t field, uint64_t v) {
  raw_varint(out_, (static_cast<uint64_t>(field) << 3) | 0);
  raw_varint(out_, v);
}

void WireWriter::bytes(uint32_t field, std::string_view payload) {
  raw_varint(out_, (static_cast<uint64_t>(field) << 3) | 2);
  raw_varint(out_, payload.size());
  out_.append(payload);
}

void WireWriter::packed(uint32_t field, const uint64_t* values, size_t n) {
  if (n == 0) return;
  std::string p;
  for (size_t i = 0; i < n; ++i) raw_varint(p, values[i]);
  bytes(field, p);
}

}  // namespace gf
