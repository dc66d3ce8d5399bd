// The registry of rules that look across servers (doctor.hpp). Order = the order findings print.
#include "doctor/doctor.hpp"
#include "doctor/rules/fabric_rules.hpp"

namespace gf {

const std::vector<DoctorRule>& fabric_rules() {
  static const std::vector<DoctorRule> rules = {oversubscription_rule(), tcp_fallback_rule(), ecmp_collision_rule(), fabric_shape_rule(),
                                                sharp_trees_rule()};
  return rules;
}

}  // namespace gf
