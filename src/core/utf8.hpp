// Input text must be UTF-8: names read from files end up in JSON, which cannot carry other bytes
// (RFC 8259 section 8.1), and in text output, where a Latin-1 byte shows as garbage. Checked once
// per file at load, so the error names the file, line and column of the first bad byte.
#pragma once

#include <string>
#include <string_view>

namespace gf {

// The byte offset of the first byte that does not begin or continue a well-formed UTF-8 sequence
// (Unicode 15, table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF), or npos.
size_t first_invalid_utf8(std::string_view text);

// Throws InputError at file:line:column of the first invalid byte, with a hint to convert the file.
void require_utf8(std::string_view text, const std::string& file);

}  // namespace gf
