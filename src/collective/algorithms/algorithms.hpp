// Factories of the built-in algorithms, one per file in this folder.
#pragma once

#include <memory>

#include "collective/algorithm.hpp"

namespace gf {

std::unique_ptr<Algorithm> make_ring();

}  // namespace gf
