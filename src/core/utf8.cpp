#include "core/utf8.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace gf {

size_t first_invalid_utf8(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    // Lead byte: how many continuation bytes follow and the range of the first one (table 3-7).
    size_t more = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) more = 1;
    else if (c == 0xE0) more = 2, lo = 0xA0;
    else if (c >= 0xE1 && c <= 0xEC) more = 2;
    else if (c == 0xED) more = 2, hi = 0x9F;  // no UTF-16 surrogates
    else if (c >= 0xEE && c <= 0xEF) more = 2;
    else if (c == 0xF0) more = 3, lo = 0x90;
    else if (c >= 0xF1 && c <= 0xF3) more = 3;
    else if (c == 0xF4) more = 3, hi = 0x8F;  // nothing past U+10FFFF
    else return i;
    for (size_t k = 1; k <= more; ++k) {
      if (i + k >= n) return i;
      const unsigned char b = s[i + k];
      if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return i;
    }
    i += more + 1;
  }
  return std::string_view::npos;
}

void require_utf8(std::string_view text, const std::string& file) {
  const size_t bad = first_invalid_utf8(text);
  if (bad == std::string_view::npos) return;
  int line = 1, column = 1;
  for (size_t i = 0; i < bad; ++i) {
    if (text[i] == '\n') ++line, column = 1;
    else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++column;  // count characters, not bytes
  }
  throw InputError({file, line, column}, "",
                   fmt::format("the file is not UTF-8 text (byte 0x{:02X} here)", static_cast<unsigned char>(text[bad])),
                   "save it as UTF-8; a file from a Latin-1 editor converts with `iconv -f latin1 -t utf-8 FILE`");
}

}  // namespace gf
