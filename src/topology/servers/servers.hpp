// Factory functions of the built-in server builders, one per file in this folder.
#pragma once

#include "topology/server_template.hpp"

namespace gf {

ServerTemplate make_dgx_h100();

}  // namespace gf
