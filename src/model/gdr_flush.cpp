#include "model/gdr_flush.hpp"

namespace gf {

bool arch_flushes_gdr(const std::string& arch) { return arch == "volta" || arch == "ampere" || arch == "ada"; }

int transport_terms_per_step(Protocol p, bool arch_flushes, bool gdr_receive) {
  return (p == Protocol::Simple && arch_flushes && gdr_receive) ? 2 : 1;
}

}  // namespace gf
