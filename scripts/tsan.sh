#!/usr/bin/env bash
# The library under ThreadSanitizer: builds everything instrumented (-fsanitize=thread) into its
# own folder and runs tests/tsan/param_sweep_tsan.cpp, a sweep's points on four threads at once.
# A data race fails it (TSan halt_on_error). Run by .ci/run. -O1 -g1: TSan needs no more to
# name the racing lines, and the instrumented build is the slow part.
#   GPUFABRIC_TSAN_BUILD=dir  build folder (default build-tsan)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GPUFABRIC_TSAN_BUILD:-$root/build-tsan}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1" -DGPUFABRIC_TSAN=ON -DGPUFABRIC_BENCH=OFF \
  -DGPUFABRIC_MPI=OFF -DGPUFABRIC_TEST_GLOB=param_sweep "${launcher[@]}" >/dev/null
cmake --build "$build" -j"${GPUFABRIC_JOBS:-$(nproc)}" --target param_sweep_tsan
ctest --test-dir "$build" --output-on-failure -R '^tsan_'
