// The fabric rules of `gpufabric doctor`, one per file in this folder; fabric_rules.cpp lists them.
// Each returns its registry entry (name, description, source, check), so the registry is a list of
// calls and a rule's words live beside its code.
#pragma once

#include "doctor/doctor.hpp"

namespace gf {

DoctorRule oversubscription_rule();  // rules/oversubscription.cpp
DoctorRule tcp_fallback_rule();      // rules/tcp_fallback.cpp
DoctorRule ecmp_collision_rule();    // rules/ecmp_collision.cpp
DoctorRule fabric_shape_rule();      // rules/fabric_shape.cpp
DoctorRule sharp_trees_rule();       // rules/sharp_trees.cpp

}  // namespace gf
