// `nics: N` over a built-in server (docs/cluster-yaml.md): the same board with N compute NICs, so a
// cloud instance built on a known board (p4de's 4 EFA ports on the HGX A100, GCP A3 High's 4 NICs
// on the HGX H100, OCI's 16 ports on it) needs no node-by-node server.
#pragma once

#include "core/error.hpp"
#include "topology/server_template.hpp"

namespace gf {

// More NICs (N a multiple of the server's compute NICs B): every NIC gets N/B - 1 twins on its own
// PCIe attachment, rails renumbered so a NIC's twins follow it. Fewer (N a divisor of B): every
// (B/N)-th NIC in rail order is kept, the others and their links removed, as a board with fewer
// NICs fitted leaves slots empty. Storage and management NICs are untouched. Anything else is an
// InputError at `where`/`key`.
void set_compute_nics(ServerTemplate& t, int n, const SourceLocation& where, const std::string& key);

}  // namespace gf
