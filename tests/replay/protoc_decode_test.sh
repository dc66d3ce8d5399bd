#!/usr/bin/env bash
# Chakra traces read by Debian's protoc (a real protobuf decoder) as well as by gpufabric's own:
# the shipped example and two that `train --emit-chakra` writes now (dense, and MoE with EP).
# Skips (77) without protoc, which scripts/setup.sh installs (protobuf-compiler).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v protoc >/dev/null || { echo "protoc not found: skipped (scripts/setup.sh installs it)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$GPUFABRIC" train --cluster dgx-h100 --model llama3-8b --tp 2 --pp 2 --dp 2 --global-batch 4 --seq 2048 \
  --overlap pp --model-fidelity analytical --emit-chakra "$tmp/emitted" >/dev/null
# With expert parallelism: a small MoE model's all-to-alls (COMM_COLL_NODE, comm_type ALL_TO_ALL).
printf 'name: tiny-moe\nhidden: 1024\nlayers: 4\nheads: 16\nkv_heads: 4\nffn: 2816\ngated_mlp: true\nvocab: 32000\nexperts: 8\ntop_k: 2\nmoe_ffn: 1408\n' \
  >"$tmp/tiny-moe.yaml"
"$GPUFABRIC" train --cluster dgx-h100 --model "$tmp/tiny-moe.yaml" --tp 2 --pp 2 --dp 2 --ep 2 --global-batch 4 \
  --seq 2048 --overlap pp --model-fidelity analytical --emit-chakra "$tmp/emitted-ep" >/dev/null
for dir in "$root/examples/traces/chakra-tp2-pp2-dp2" "$tmp/emitted" "$tmp/emitted-ep"; do
  "$GPUFABRIC" replay "$dir" --cluster dgx-h100 --format json >"$tmp/replay.json"
  python3 "$here/protoc_decode.py" "$dir" "$tmp/replay.json"
done
