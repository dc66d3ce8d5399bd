// Factory functions of the built-in server builders, one per file in this folder.
#pragma once

#include "topology/server_template.hpp"

namespace gf {

// NVSwitch 8-GPU servers (NVIDIA DGX/HGX and the clouds built on them)
ServerTemplate make_dgx_a100();
ServerTemplate make_hgx_a100();
ServerTemplate make_oci_a100();
ServerTemplate make_dgx_h100();
ServerTemplate make_hgx_h100();
ServerTemplate make_hgx_h200();
ServerTemplate make_aws_p5();
ServerTemplate make_gcp_a3_mega();
ServerTemplate make_dgx_b200();
ServerTemplate make_oci_b300();
// Rack-scale NVLink domain
ServerTemplate make_gb200_nvl72();
// PCIe-only servers
ServerTemplate make_pcie_8gpu();
ServerTemplate make_pcie_8gpu_rootport();
// AMD and Intel accelerators
ServerTemplate make_mi300x();
ServerTemplate make_mi325x();
ServerTemplate make_mi355x();
ServerTemplate make_gaudi2();
ServerTemplate make_gaudi3();

}  // namespace gf
