#!/usr/bin/env bash
# The HTML reports in a real browser (issue 22): headless Chromium loads each generated page;
# the test reads the DOM Chromium ends with (--dump-dom) and the console (--enable-logging), and
# takes a screenshot for a person to look at (perf, run, doctor and validate pages). Checks: the
# page's self-check passed, no console message at all (errors, CSP violations), each chart has
# one mark per size for NCCL's choice, each run and perf heatmap one cell per link of its tier,
# a cluster named with markup shows it as text, and the screenshot has the window's dimensions
# and is not blank.
#
# Env: GPUFABRIC (the binary), OUT (where screenshots and pages are kept; printed at the end).
# Exit 77 (ctest's SKIP) only when no Chromium is installed: scripts/setup.sh installs it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${GPUFABRIC:?set GPUFABRIC to the gpufabric binary}"
out="${OUT:-$PWD/browser}"
browser=""
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then browser="$b"; break; fi
done
if [ -z "$browser" ]; then
  echo "SKIP: no chromium on PATH (scripts/setup.sh installs Debian's chromium)"
  exit 77
fi
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
W=1024 H=1600

# chromium as root needs --no-sandbox; a profile of its own per run; 60 s at most per page.
chrome() {
  timeout 60 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 "$@"
}

# A cluster whose name is markup: it must show as text and run nothing.
hostile='<script>alert(1)</script><img src=x onerror="alert(2)">'
{
  printf 'name: %s\n' "'$hostile'"
  printf 'description: %s\n' "'a hostile <b>description</b>'"
  sed -n '/^server:/,$p' "$here/../../presets/dgx-h100-2node.yaml"
} >"$tmp/hostile.yaml"

check() {  # NAME SIZES [EXPECT...]: load NAME.html, check DOM, console and screenshot
  # SIZES "-": a page without charts (run, doctor), checked by check_other_page.py against EXPECT.
  local name="$1" sizes="$2" page="$out/$1.html"
  shift 2
  chrome --dump-dom "file://$page" >"$tmp/$name.dom" 2>"$tmp/$name.log"
  if grep -q ':CONSOLE' "$tmp/$name.log"; then
    echo "FAIL: $name.html wrote to the console:"; grep ':CONSOLE' "$tmp/$name.log"; exit 1
  fi
  if [ "$sizes" = "-" ]; then
    python3 "$here/check_other_page.py" "$page" "$tmp/$name.dom" "$hostile" "$@"
  else
    python3 "$here/check_page.py" "$page" "$tmp/$name.dom" "$sizes" "$hostile"
  fi
  rm -f "$out/$name.png"
  chrome --screenshot="$out/$name.png" --window-size=$W,$H "file://$page" >/dev/null 2>"$tmp/$name.shot.log"
  [ -s "$out/$name.png" ] || { echo "FAIL: no screenshot of $name.html"; cat "$tmp/$name.shot.log"; exit 1; }
  python3 "$here/check_png.py" "$out/$name.png" $W $H
  echo "screenshot: $out/$name.png"
}

# 8 B to 128 MiB by x2 is 2^3 .. 2^27: 25 sizes, so 25 marks on NCCL's choice in each chart.
rm -f "$out/perf.html"
"$bin" perf all_reduce --cluster "$tmp/hostile.yaml" -b 8 -e 128M -f 2 --html "$out/perf.html" >/dev/null
check perf 25
# Its link heatmap (the 128 MiB call's): one cell per directed link of each tier, counted from the
# cluster's shape: dgx-h100-2node's NIC links are 2 servers x 8 compute NICs x 2 directions = 32.
# Its time breakdown: one bar per size (25), each split into the fixed latency and the transfers.
python3 "$here/check_other_page.py" "$out/perf.html" "$tmp/perf.dom" "$hostile" heatmap:heat-nic=32 bars:bars-perf=25

# A scenario on a hostile copy of examples/leafspine-4to1.yaml (8 DGX H100, leaves of 32 ports
# down and 8 up, 4 servers per leaf), two jobs named with markup, each on two servers under each
# leaf. Heatmap cells, one per directed link: NIC links 8 servers x 8 compute NICs x 2 = 128;
# leaf-spine: one spine takes both leaves' 8 uplinks, each cable its own link each way,
# 2 x 8 x 2 = 32. The jobs share no server, so a link both cross can only be one of those 32.
{
  printf 'name: %s\n' "'$hostile'"
  sed -n '/^server:/,$p' "$here/../../examples/leafspine-4to1.yaml"
} >"$tmp/hostile-leafspine.yaml"
cat >"$tmp/hostile-run.yaml" <<YAML
name: '$hostile'
description: 'a hostile <b>scenario</b>'
cluster: hostile-leafspine.yaml
model: flow
seed: 1
jobs:
  - name: '$hostile'
    servers: [0, 1, 4, 5]
    calls: [{collective: all_reduce, size: 64M, algo: ring}]
  - name: b
    servers: [2, 3, 6, 7]
    calls: [{collective: all_reduce, size: 64M, algo: ring}]
YAML
rm -f "$out/run.html"
"$bin" run "$tmp/hostile-run.yaml" --html "$out/run.html" >/dev/null
# Time breakdown: one bar per job (2) for its span, one per call (1 each) for alone + sharing.
check run - heatmap:heat-nic=128 heatmap:heat-leaf-spine=32 'shared:0<=32' 'shared:1<=32' \
  bars:bars-jobs=2 bars:bars-sharing=2

# A training step on the hostile cluster (2 x 8 H100): one bar for the step whose phases add up to
# the step time train's JSON gives, one bar per parallelism's communication its JSON lists.
rm -f "$out/train.html"
read -r step comms < <("$bin" train --cluster "$tmp/hostile.yaml" --model megatron-22b --tp 8 --pp 2 \
  --global-batch 8 --model-fidelity analytical --format json --html "$out/train.html" |
  python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["step_time_s"], len(j["communication"]))')
check train - bars:bars-step=1 "total:bars-step=$step" "bars:bars-comm=$comms"

# The doctor on the hostile leaf-spine (4:1 oversubscribed, so it finds something): one finding
# box per finding its JSON lists.
rm -f "$out/doctor.html"
findings=$("$bin" doctor "$tmp/hostile-leafspine.yaml" --format json --html "$out/doctor.html" |
  python3 -c 'import json,sys; print(len(json.load(sys.stdin)["findings"]))') || true
check doctor - "findings=$findings"

# Two measured data sets: each chart's prediction has a mark for every measured row compared.
# They live in ../shared beside the repository (or GPUFABRIC_SHARED_DIR), as validate reads them;
# a clone without it checks the perf page only and says so, as the other tests of measured data do.
shared="${GPUFABRIC_SHARED_DIR:-$here/../../../shared}"
if [ -d "$shared/validation/measured" ]; then
  rm -f "$out/validate.html"
  "$bin" validate --dataset rtx4090-pcie-p2p-on-allreduce --dataset dgx-h100-1node-allreduce \
    --html "$out/validate.html" >/dev/null
  hostile="" check validate 0
else
  echo "validate page: not checked, no measured data at $shared/validation/measured"
fi
echo "pages and screenshots in $out"
