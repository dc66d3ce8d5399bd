// Factories of the built-in algorithms, one per file in this folder. chunks.hpp says what their
// transfers carry; patterns.hpp holds the pieces several share (trees, chains, ring steps).
#pragma once

#include <memory>

#include "collective/algorithm.hpp"
#include "collective/algorithms/chunks.hpp"

namespace gf {

std::unique_ptr<Algorithm> make_ring();            // ring.cpp
std::unique_ptr<Algorithm> make_tree();            // tree.cpp
std::unique_ptr<Algorithm> make_nvls();            // nvls.cpp
std::unique_ptr<Algorithm> make_nvlstree();        // nvlstree.cpp
std::unique_ptr<Algorithm> make_collnet_direct();  // collnet_direct.cpp
std::unique_ptr<Algorithm> make_collnet_chain();   // collnet_chain.cpp
std::unique_ptr<Algorithm> make_pat();             // pat.cpp
std::unique_ptr<Algorithm> make_hierarchical();    // hierarchical.cpp
std::unique_ptr<Algorithm> make_rhd();             // rhd.cpp
std::unique_ptr<Algorithm> make_direct();          // direct.cpp
std::unique_ptr<Algorithm> make_pairwise();        // pairwise.cpp
std::unique_ptr<Algorithm> make_sendrecv();        // sendrecv.cpp

}  // namespace gf
