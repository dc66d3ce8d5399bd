// Builders of the servers added after the first catalog (issue 18's gaps): declared apart from
// servers.hpp so that adding one does not touch every other server's file.
#pragma once

#include "topology/server_template.hpp"

namespace gf {

ServerTemplate make_a40_8gpu();
ServerTemplate make_hgx_h20();
ServerTemplate make_h200_nvl();
ServerTemplate make_hgx_b300();
ServerTemplate make_gb300_nvl72();

}  // namespace gf
