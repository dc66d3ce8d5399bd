// What every harness shares: the input as text, and the rule that an InputError (or UnitError) is
// the expected answer to a bad input. Anything else that escapes (another exception, an abort, a
// sanitizer report) is a crash libFuzzer keeps; add it under tests/ as a regression.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"

namespace gffuzz {

inline std::string text_of(const uint8_t* data, size_t size) { return std::string(reinterpret_cast<const char*>(data), size); }

template <class F>
void expect_clean(F&& body) {
  try {
    body();
  } catch (const gf::InputError&) {
  } catch (const gf::UnitError&) {
  }
}

}  // namespace gffuzz
