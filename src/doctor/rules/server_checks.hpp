// The server rules' checks, one per file in this folder; server_rules.cpp lists them with their
// names, descriptions and sources. Each looks at one server of the cluster (all are copies of one
// template) and returns findings; none runs a model (run_doctor predicts the Comparisons).
#pragma once

#include <vector>

#include "doctor/doctor.hpp"

namespace gf {

std::vector<Finding> check_nic_affinity(const DoctorContext& ctx);
std::vector<Finding> check_pcie_contention(const DoctorContext& ctx);
std::vector<Finding> check_gpu_p2p(const DoctorContext& ctx);
std::vector<Finding> check_nvlink_imbalance(const DoctorContext& ctx);
std::vector<Finding> check_nic_shortage(const DoctorContext& ctx);
std::vector<Finding> check_nic_mix(const DoctorContext& ctx);

}  // namespace gf
