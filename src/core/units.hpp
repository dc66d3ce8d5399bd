// Units as types. Time is integer picoseconds (as htsim keeps it) so that event ordering is exact
// and reproducible; Bytes is an integer count; Bandwidth is bytes per second, always per direction.
// Strings such as "400Gbps" are parsed only at the edge (parse_units.hpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace gf {

// Arithmetic saturates: a sum or product past the int64 range (about 106 days in picoseconds) is
// Time::infinity() rather than a wrapped negative number, so an overflow can only ever read as
// "never", which the engine and the reports refuse (docs/limits.md), never as a wrong finite time.
class Time {
 public:
  constexpr Time() = default;
  static constexpr Time ps(int64_t v) { return Time(v); }
  // Rounded to the nearest picosecond; NaN and values at or past the int64 range saturate
  // (NaN and +big to infinity, -big to the most negative time).
  static constexpr Time ps_rounded(double v) {
    if (!(v < 9.2e18)) return infinity();
    if (v <= -9.2e18) return Time(std::numeric_limits<int64_t>::min());
    return Time(static_cast<int64_t>(std::llround(v)));
  }
  static constexpr Time ns(double v) { return ps_rounded(v * 1e3); }
  static constexpr Time us(double v) { return ps_rounded(v * 1e6); }
  static constexpr Time ms(double v) { return ps_rounded(v * 1e9); }
  static constexpr Time s(double v) { return ps_rounded(v * 1e12); }
  static constexpr Time zero() { return Time(0); }
  static constexpr Time infinity() { return Time(std::numeric_limits<int64_t>::max()); }

  constexpr int64_t picoseconds() const { return ps_; }
  constexpr double to_ns() const { return static_cast<double>(ps_) / 1e3; }
  constexpr double to_us() const { return static_cast<double>(ps_) / 1e6; }
  constexpr double to_s() const { return static_cast<double>(ps_) / 1e12; }
  constexpr bool is_infinite() const { return ps_ == std::numeric_limits<int64_t>::max(); }

  constexpr Time operator+(Time o) const {
    int64_t r = 0;
    return __builtin_add_overflow(ps_, o.ps_, &r) ? saturated(o.ps_ > 0) : Time(r);
  }
  constexpr Time operator-(Time o) const {
    int64_t r = 0;
    return __builtin_sub_overflow(ps_, o.ps_, &r) ? saturated(o.ps_ < 0) : Time(r);
  }
  constexpr Time& operator+=(Time o) { return *this = *this + o; }
  constexpr Time operator*(int64_t k) const {
    int64_t r = 0;
    return __builtin_mul_overflow(ps_, k, &r) ? saturated((ps_ > 0) == (k > 0)) : Time(r);
  }
  constexpr auto operator<=>(const Time&) const = default;

 private:
  constexpr explicit Time(int64_t v) : ps_(v) {}
  static constexpr Time saturated(bool up) {
    return up ? infinity() : Time(std::numeric_limits<int64_t>::min());
  }
  int64_t ps_ = 0;
};

class Bytes {
 public:
  constexpr Bytes() = default;
  constexpr explicit Bytes(int64_t v) : b_(v) {}
  static constexpr Bytes kib(int64_t v) { return Bytes(v * 1024); }
  static constexpr Bytes mib(int64_t v) { return Bytes(v * 1024 * 1024); }
  static constexpr Bytes gib(int64_t v) { return Bytes(v * 1024 * 1024 * 1024); }
  constexpr int64_t count() const { return b_; }
  constexpr Bytes operator+(Bytes o) const { return Bytes(b_ + o.b_); }
  constexpr Bytes operator*(int64_t k) const { return Bytes(b_ * k); }
  constexpr auto operator<=>(const Bytes&) const = default;

 private:
  int64_t b_ = 0;
};

// Per-direction data rate. "Gbps" is 1e9 bits/s; "GB/s" is 1e9 bytes/s (decimal, as datasheets
// and nccl-tests use them).
class Bandwidth {
 public:
  constexpr Bandwidth() = default;
  static constexpr Bandwidth bytes_per_s(double v) { return Bandwidth(v); }
  static constexpr Bandwidth gbps(double gigabits) { return Bandwidth(gigabits * 1e9 / 8.0); }
  static constexpr Bandwidth gBps(double gigabytes) { return Bandwidth(gigabytes * 1e9); }
  constexpr double bytes_per_second() const { return bps_; }
  constexpr double to_gbps() const { return bps_ * 8.0 / 1e9; }
  constexpr double to_gBps() const { return bps_ / 1e9; }
  constexpr Bandwidth operator*(double k) const { return Bandwidth(bps_ * k); }
  constexpr Bandwidth operator/(double k) const { return Bandwidth(bps_ / k); }
  constexpr Bandwidth operator+(Bandwidth o) const { return Bandwidth(bps_ + o.bps_); }
  constexpr double operator/(Bandwidth o) const { return bps_ / o.bps_; }
  constexpr auto operator<=>(const Bandwidth&) const = default;

 private:
  constexpr explicit Bandwidth(double v) : bps_(v) {}
  double bps_ = 0.0;
};

// Serialization time of `b` at rate `bw`, rounded up to the next picosecond; infinity past the
// int64 range (Time's rule).
inline Time transfer_time(Bytes b, Bandwidth bw) {
  return Time::ps_rounded(std::ceil(static_cast<double>(b.count()) * 1e12 / bw.bytes_per_second()));
}

// Human-readable renderings used by reports ("400 Gb/s", "1.50 us", "128 MiB").
std::string to_string(Time t);
std::string to_string(Bytes b);
std::string to_string_gbps(Bandwidth bw);
std::string to_string_gBps(Bandwidth bw);

}  // namespace gf
