#!/usr/bin/env bash
# The README's second command: set up, build everything (tests included) and run the suite.
# GPUFABRIC_SANITIZE=1 builds with AddressSanitizer + UndefinedBehaviorSanitizer instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
dir=build-test
flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
if [ "${GPUFABRIC_SANITIZE:-0}" = 1 ]; then
  dir=build-asan
  flags=(-DCMAKE_BUILD_TYPE=Debug -DGPUFABRIC_SANITIZE=ON)
fi
cmake -S . -B "$dir" "${flags[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
ctest --test-dir "$dir" --output-on-failure -j"$(nproc)"
