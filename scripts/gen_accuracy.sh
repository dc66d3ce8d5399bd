#!/usr/bin/env bash
# Regenerates docs/accuracy.md: builds the Release binary (as scripts/run.sh does) and runs
#   build/cli/gpufabric validate --format markdown > docs/accuracy.md
# over every data set in validation/datasets.yaml, against ../shared/validation/measured
# (GPUFABRIC_SHARED_DIR overrides), then appends the training steps' measured rows
# (scripts/training_accuracy.sh). GPUFABRIC=path/to/gpufabric uses an existing binary instead
# of building one. The file is replaced only when the command succeeds.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${GPUFABRIC:-}"
if [ -z "$bin" ]; then
  scripts/setup.sh
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGPUFABRIC_TESTS=OFF >/dev/null
  cmake --build build -j"$(nproc)" --target gpufabric >/dev/null
  bin=build/cli/gpufabric
fi
tmp="$(mktemp docs/accuracy.md.XXXXXX)"
trap 'rm -f "$tmp"' EXIT
{
  "$bin" validate --format markdown
  scripts/training_accuracy.sh "$bin"
} >"$tmp"
mv "$tmp" docs/accuracy.md
trap - EXIT
echo "wrote docs/accuracy.md"
