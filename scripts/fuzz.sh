#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/) with clang, AddressSanitizer and UBSan into their own
# build folder and runs each for a fixed time over a seed corpus taken from the repository's
# files and the shared samples. A crash fails the script (status 1) and leaves the input in
# $build/crashes/; keep it in fuzz/regressions/<harness>/ (replayed first on every run) and add a
# test under tests/ for the fix.
#
#   scripts/fuzz.sh [SECONDS_EACH] [HARNESS...]     (default 30 s each, every harness)
#   GPUFABRIC_FUZZ_BUILD=dir  build folder (default build-fuzz)
#   GPUFABRIC_SHARED_DIR=dir  the shared samples (default ../shared beside the repository)
# Longer runs: docs/limits.md, "Fuzzing".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-30}
shift || true
build=${GPUFABRIC_FUZZ_BUILD:-$root/build-fuzz}
shared=${GPUFABRIC_SHARED_DIR:-$root/../shared}
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=(fuzz_units fuzz_cluster_yaml fuzz_scenario_yaml fuzz_nvidia_smi fuzz_nccl_xml fuzz_chakra_et)

if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ not found; install it with: GPUFABRIC_FUZZ=1 scripts/setup.sh" >&2
  exit 2
fi
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DGPUFABRIC_FUZZ=ON -DGPUFABRIC_TESTS=OFF -DGPUFABRIC_BENCH=OFF "${launcher[@]}" >/dev/null
cmake --build "$build" -j"${GPUFABRIC_JOBS:-2}" --target "${harnesses[@]}"

# Seeds: the files each parser reads in the repository and in the shared samples.
seed() {  # seed NAME FILE...: copies the readable files into NAME's corpus
  local dir=$build/corpus/$1
  shift
  mkdir -p "$dir"
  for f in "$@"; do [ -f "$f" ] && cp "$f" "$dir/" 2>/dev/null || true; done
}
seed fuzz_cluster_yaml "$root"/presets/*.yaml "$root"/validation/clusters/*.yaml "$root"/examples/*.yaml
seed fuzz_scenario_yaml "$root"/examples/*.yaml
seed fuzz_nvidia_smi "$shared"/validation/formats/nvidia-smi-topo/*.txt
seed fuzz_nccl_xml "$shared"/validation/formats/nccl-topo-xml/*.xml
seed fuzz_chakra_et "$root"/examples/traces/chakra-*/*.et
mkdir -p "$build/corpus/fuzz_units"
i=0
for s in 8 1K 128M 8G 64KiB 1.5us 100ns 2ms 500ps 400Gbps "900GB/s bidirectional" 1.6Tbps 100Mbps; do
  printf '%s' "$s" >"$build/corpus/fuzz_units/seed$i"
  i=$((i + 1))
done

mkdir -p "$build/crashes"
status=0
for h in "${harnesses[@]}"; do
  # Inputs that once crashed a harness (fuzz/regressions/<harness>/) run first, every time.
  regressions=("$root/fuzz/regressions/$h"/*)
  if [ -e "${regressions[0]}" ] && ! "$build/fuzz/$h" "${regressions[@]}" >"$build/$h.regressions.log" 2>&1; then
    echo "fuzz: $h fails a kept regression input (log: $build/$h.regressions.log)" >&2
    status=1
    continue
  fi
  echo "fuzz: $h for ${seconds}s"
  # -rss_limit_mb: a parser that needs gigabytes for a small input is a finding too.
  if ! "$build/fuzz/$h" "$build/corpus/$h" -dict="$root/fuzz/keys.dict" -max_total_time="$seconds" \
      -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$build/crashes/$h-" 2>"$build/$h.log"; then
    echo "fuzz: $h FAILED; input kept in $build/crashes/ (log: $build/$h.log)" >&2
    tail -n 40 "$build/$h.log" >&2
    status=1
  else
    grep -E "^stat::(number_of_executed_units|new_units_added)" "$build/$h.log" | sed "s/^/fuzz: $h /" || true
  fi
done
exit $status
