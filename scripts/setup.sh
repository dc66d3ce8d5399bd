#!/usr/bin/env bash
# Installs the Debian packages gpufabric builds with, when any is missing. Nothing else is
# downloaded: every dependency is found by CMake from these packages.
set -euo pipefail
# graphviz lays out `topo --format svg` (and the tests run it on `--format dot`). Open MPI splits
# a sweep over `mpirun` ranks (docs/sweeps.md; optional in CMake, installed so it is built).
# chromium runs the HTML reports headless in tests/browser/ (the test skips where it is missing).
packages=(g++ cmake make libyaml-cpp-dev libcli11-dev libfmt-dev nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev graphviz
          libopenmpi-dev openmpi-bin chromium)
# The Python module (python/, docs/python.md) and its example's plots.
packages+=(python3-dev pybind11-dev python3-matplotlib)
# protoc decodes the Chakra traces in tests/replay/ beside gpufabric's own decoder (a test tool:
# gpufabric reads .et files without libprotobuf).
packages+=(protobuf-compiler)
# jq reads `infer --format json` in scripts/validate_serving.sh (and its test, tests/infer/).
packages+=(jq)
# Fuzzing (scripts/fuzz.sh) needs clang and its libFuzzer runtime; only installed when asked.
[ -n "${GPUFABRIC_FUZZ:-}" ] && packages+=(clang libclang-rt-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
