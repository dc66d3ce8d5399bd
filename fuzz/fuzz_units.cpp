// libFuzzer harness: the unit parsers (sizes, times, bandwidths) and the UTF-8 check.
#include "core/parse_units.hpp"
#include "core/utf8.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = gffuzz::text_of(data, size);
  gffuzz::expect_clean([&] {
    gf::Bytes b = gf::parse_size(text);
    if (b.count() < 0) __builtin_trap();  // sizes are never negative
  });
  gffuzz::expect_clean([&] {
    gf::Time t = gf::parse_time(text);
    if (t < gf::Time::zero() || t.is_infinite()) __builtin_trap();
  });
  gffuzz::expect_clean([&] {
    gf::Bandwidth bw = gf::parse_bandwidth(text);
    if (!(bw.bytes_per_second() > 0)) __builtin_trap();
  });
  gffuzz::expect_clean([&] { gf::require_utf8(text, "fuzz.txt"); });
  return 0;
}
