// Unit strings parse at the edge into typed values; bad ones say what was expected.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/parse_units.hpp"

using namespace gf;

TEST(Units, BandwidthBitsAndBytes) {
  // 400 Gb/s = 400e9 / 8 = 50e9 bytes/s.
  EXPECT_DOUBLE_EQ(parse_bandwidth("400Gbps").bytes_per_second(), 50e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth("400 Gb/s").bytes_per_second(), 50e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth("50GB/s").bytes_per_second(), 50e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth("1.6Tbps").bytes_per_second(), 200e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth("100Mbps").bytes_per_second(), 12.5e6);
}

TEST(Units, BidirectionalIsHalved) {
  // NVLink 4: 900 GB/s bidirectional is 450 GB/s each way.
  EXPECT_DOUBLE_EQ(parse_bandwidth("900GB/s bidirectional").to_gBps(), 450.0);
  EXPECT_DOUBLE_EQ(parse_bandwidth("900 GB/s bidir").to_gBps(), 450.0);
}

TEST(Units, BadBandwidthSaysWhatWasExpected) {
  try {
    parse_bandwidth("400G");
    FAIL() << "400G is ambiguous";
  } catch (const UnitError& e) {
    EXPECT_NE(std::string(e.what()).find("ambiguous"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("expected a bandwidth like 400Gbps"), std::string::npos);
  }
  EXPECT_THROW(parse_bandwidth("fast"), UnitError);
  EXPECT_THROW(parse_bandwidth("0Gbps"), UnitError);
  EXPECT_THROW(parse_bandwidth("-5GB/s"), UnitError);
}

TEST(Units, TimeInPicoseconds) {
  EXPECT_EQ(parse_time("1.5us").picoseconds(), 1'500'000);
  EXPECT_EQ(parse_time("100ns").picoseconds(), 100'000);
  EXPECT_EQ(parse_time("2ms").picoseconds(), 2'000'000'000);
  EXPECT_EQ(parse_time("500ps").picoseconds(), 500);
  EXPECT_EQ(parse_time("1s").picoseconds(), 1'000'000'000'000);
  EXPECT_THROW(parse_time("1.5"), UnitError);
  EXPECT_THROW(parse_time("3 fortnights"), UnitError);
  EXPECT_THROW(parse_time("-1us"), UnitError);
}

TEST(Units, SizesAreBinaryAsInNcclTests) {
  EXPECT_EQ(parse_size("8").count(), 8);
  EXPECT_EQ(parse_size("1K").count(), 1024);
  EXPECT_EQ(parse_size("128M").count(), 128LL << 20);
  EXPECT_EQ(parse_size("8G").count(), 8LL << 30);
  EXPECT_EQ(parse_size("64KiB").count(), 64 * 1024);
  // nccl-tests reads -b/-e/-i letters in either case (parsesize, src/common.cu): 1g = 1G.
  EXPECT_EQ(parse_size("1g").count(), 1LL << 30);
  EXPECT_EQ(parse_size("16m").count(), 16LL << 20);
  EXPECT_THROW(parse_size("1.5"), UnitError);  // not a whole number of bytes
  EXPECT_THROW(parse_size("12Q"), UnitError);
}

TEST(Units, TransferTimeRoundsUp) {
  // 1 MiB at 50 GB/s = 1048576 / 50e9 s = 20.97152 us = 20,971,520 ps exactly.
  EXPECT_EQ(transfer_time(Bytes::mib(1), Bandwidth::gBps(50)).picoseconds(), 20'971'520);
  // 1 byte at 3 B/s = 333,333,333,333.33 ps, rounded up.
  EXPECT_EQ(transfer_time(Bytes(1), Bandwidth::bytes_per_s(3)).picoseconds(), 333'333'333'334);
}

TEST(Errors, DidYouMean) {
  EXPECT_EQ(closest_match("oversubscriptoin", {"kind", "oversubscription", "tiers"}), "oversubscription");
  EXPECT_EQ(closest_match("zzzzzz", {"kind", "tiers"}), "");
  InputError e({"c.yaml", 4, 3}, "fabric.kind", "unknown fabric kind 'x'", "valid: a, b");
  EXPECT_STREQ(e.what(), "c.yaml:4:3: 'fabric.kind': unknown fabric kind 'x'\n  hint: valid: a, b");
}
