// A sweep file (`gpufabric sweep SPEC.yaml`, docs/sweeps.md): the perf command's arguments, the
// cluster, and the swept keys as a full grid (`grid:`) and/or lists that advance together (`zip:`).
//   cluster: dgx-h100                    optional; --cluster otherwise (or the default)
//   perf: all_reduce -b 1G -e 1G         the perf command's words (a string or a list)
//   grid: {servers: [2, 4, 8], fabric.oversubscription: [1, 2]}
//   zip:  {fabric.link: [ib-ndr, roce-400g], algo: [ring, tree]}
#pragma once

#include <string>
#include <vector>

#include "core/error.hpp"
#include "workload/param_grid.hpp"

namespace gf {

struct SweepFile {
  std::string cluster;            // empty: not given
  std::vector<std::string> perf;  // the words after `gpufabric perf`
  SourceLocation perf_where;      // where `perf:` is, for errors in its words
  std::vector<SweepAxis> grid, zip;
};

SweepFile parse_sweep_file(const std::string& text, const std::string& file);
SweepFile load_sweep_file(const std::string& path);

}  // namespace gf
