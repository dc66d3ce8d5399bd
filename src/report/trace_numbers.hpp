// Numbers in a trace file's text, written without a format string: the writer puts a few hundred
// thousand of them in the main sweep's file (docs/performance.md, "Writing a timeline"), and fmt's
// parse and dispatch per number was a visible part of its cost. The text is exactly what
// fmt::format("{}", v) writes for the same value, so the files do not change.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstddef>
#include <string>

#include <fmt/format.h>

namespace gf {

// Each writer puts its text at `p` and returns the end; a number takes at most kMaxNumber chars.
constexpr size_t kMaxNumber = 32;

// An integer in decimal.
inline char* put_int(char* p, int64_t v) { return std::to_chars(p, p + kMaxNumber, v).ptr; }

// `ps` picoseconds as microseconds, the text fmt writes for the double ps / 1e6 (the shortest text
// that reads back as that double). For |ps| < 10^15 that text is the exact decimal ps / 10^6: the
// division is correctly rounded, so the double is the one nearest that decimal, and a decimal of
// at most 15 significant digits (DBL_DIG, C11 5.2.4.2.2) is the only one of that length or
// shorter that reads back as its nearest double, so it is the shortest. fmt writes it in fixed
// notation when its first digit's exponent is -4 or more (values >= 1e-4 us, ps >= 100; fmt's
// general format switches to an exponent below 1e-4), so that range is written here digit by
// digit and anything else is left to fmt.
inline char* put_us(char* p, int64_t ps) {
  constexpr int64_t kLimit = 1'000'000'000'000'000;  // 10^15 ps
  if (ps == 0) {
    *p = '0';
    return p + 1;
  }
  if (ps <= -kLimit || ps >= kLimit || (ps > -100 && ps < 100))
    return fmt::format_to_n(p, kMaxNumber, "{}", static_cast<double>(ps) / 1e6).out;
  if (ps < 0) *p++ = '-';
  const int64_t a = ps < 0 ? -ps : ps;
  p = put_int(p, a / 1'000'000);
  int64_t frac = a % 1'000'000;
  if (frac == 0) return p;
  char digits[6];
  for (int i = 5; i >= 0; --i, frac /= 10) digits[i] = static_cast<char>('0' + frac % 10);
  int n = 6;
  while (digits[n - 1] == '0') --n;  // frac != 0, so a nonzero digit stops this
  *p++ = '.';
  for (int i = 0; i < n; ++i) *p++ = digits[i];
  return p;
}

// The same, appended to a string.
inline void append_int(std::string& out, int64_t v) {
  char buf[kMaxNumber];
  out.append(buf, put_int(buf, v));
}
inline void append_us(std::string& out, int64_t ps) {
  char buf[kMaxNumber];
  out.append(buf, put_us(buf, ps));
}

}  // namespace gf
