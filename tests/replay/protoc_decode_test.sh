#!/usr/bin/env bash
# Chakra traces read by Debian's protoc (a real protobuf decoder) as well as by gpufabric's own:
# the shipped example and one `train --emit-chakra` writes now. Skips (77) without protoc, which
# scripts/setup.sh installs (protobuf-compiler).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v protoc >/dev/null || { echo "protoc not found: skipped (scripts/setup.sh installs it)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$GPUFABRIC" train --cluster dgx-h100 --model llama3-8b --tp 2 --pp 2 --dp 2 --global-batch 4 --seq 2048 \
  --overlap pp --model-fidelity analytical --emit-chakra "$tmp/emitted" >/dev/null
for dir in "$root/examples/traces/chakra-tp2-pp2-dp2" "$tmp/emitted"; do
  "$GPUFABRIC" replay "$dir" --cluster dgx-h100 --format json >"$tmp/replay.json"
  python3 "$here/protoc_decode.py" "$dir" "$tmp/replay.json"
done
