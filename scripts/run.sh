#!/usr/bin/env bash
# The README's first command: set up, build a Release binary, run the main job on the default
# cluster: the nccl-tests all-reduce sweep, 8 B to 8 GB, simulated. Extra arguments replace the
# main job's (e.g. scripts/run.sh topo dgx-h100 --nodes 2048).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGPUFABRIC_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
if [ $# -gt 0 ]; then
  exec build/cli/gpufabric "$@"
fi
exec build/cli/gpufabric perf all_reduce --cluster dgx-h100-2node -b 8 -e 8G -f 2
