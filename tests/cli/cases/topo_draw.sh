# gpufabric topo --format dot | svg: drawings of the cluster. Sourced by run_cli_tests.sh: uses its
# expect helper and $tmp. Graphviz (scripts/setup.sh installs it) parses what we write: every
# preset's DOT goes through the real `dot`.
expect "topo dot" 0 "^graph \"dgx-h100-2node\" \{.*subgraph \"cluster_server1\".*\}" -- topo dgx-h100-2node --format dot
expect "topo dot with matrix" 2 "'--format': dot draws the cluster" -- topo dgx-h100-2node --format dot --matrix
# --path with a drawing: the routes red (#d62728), the rest grey; both ends' GPU nodes filled.
expect "topo dot with path" 0 "^graph \"dgx-h100-2node: gpu0 to gpu9: [0-9]+ (route|equal-cost routes) in red.*#d62728.*#c8c8c8" -- topo dgx-h100-2node --format dot --path gpu0 gpu9
expect "topo dot path bad gpu" 2 "'--path': 'gpu99' is not a GPU" -- topo dgx-h100-2node --format dot --path gpu0 gpu99
if command -v dot >/dev/null 2>&1; then
  for preset in dgx-h100-2node dgx-h100-superpod-su gb200-nvl72-rack aws-p5-cluster tpu-v4-torus; do
    "$bin" topo "$preset" --format dot >"$tmp/$preset.dot" 2>&1
    expect "graphviz parses $preset" 0 "<svg" -- topo "$preset" --format svg
    if dot -Tsvg "$tmp/$preset.dot" -o "$tmp/$preset.svg" 2>"$tmp/dot.err"; then pass=$((pass + 1)); else
      fail=$((fail + 1)); echo "FAIL dot -Tsvg $preset: $(head -3 "$tmp/dot.err")"; fi
  done
else
  echo "SKIP topo --format svg: Graphviz's dot is not installed (scripts/setup.sh installs it)"
fi
# perf --trace: a Perfetto timeline; an existing file is not overwritten without --force.
expect "perf trace" 0 "wrote $tmp/t.json: [0-9]+ trace events" -- perf all_reduce --nodes 1 --gpus-per-node 4 -b 1M -e 4M -f 2 --trace "$tmp/t.json"
expect "perf trace exists" 2 "'--trace': '$tmp/t.json' exists and was not overwritten.*--force" -- perf all_reduce -b 1M -e 1M --trace "$tmp/t.json"
expect "perf trace force" 0 "wrote $tmp/t.json" -- perf all_reduce -b 1M -e 1M --trace "$tmp/t.json" --force --trace-ranks 0-3 --trace-links top:4
expect "perf trace-ranks alone" 2 "'--trace-ranks': only shapes a --trace timeline" -- perf all_reduce -b 1M -e 1M --trace-ranks 0-3
expect "perf trace bad ranks" 2 "'--trace-ranks': '9-2' is not a rank or a range" -- perf all_reduce -b 1M -e 1M --trace "$tmp/u.json" --trace-ranks 9-2
if command -v python3 >/dev/null 2>&1; then
  if python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['traceEvents']" "$tmp/t.json"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL perf trace: not JSON with traceEvents"; fi
fi
# 16,384 GPUs (2,048 DGX H100 on the default rail-optimized fat tree) drawn aggregated: 11 boxes
# (the servers, 8 rail groups of leaves, the spine tier's 16 groups as one box, the core) and 17
# edges (servers to each rail group, each rail group to the spines, spines to core), as
# tests/topo_dot_test.cpp derives; Graphviz lays it out within 30 s and the SVG stays under the
# 64 KiB docs/reports.md states (a few dozen elements, not 16,384 GPUs' worth).
if command -v dot >/dev/null 2>&1; then
  if timeout 30 "$bin" topo dgx-h100 --nodes 2048 --format svg >"$tmp/big.svg" 2>"$tmp/big.err"; then
    big_bytes=$(wc -c <"$tmp/big.svg")
    big_nodes=$(grep -c 'class="node"' "$tmp/big.svg")
    big_edges=$(grep -c 'class="edge"' "$tmp/big.svg")
    if [ "$big_bytes" -lt 65536 ] && [ "$big_nodes" -eq 11 ] && [ "$big_edges" -eq 17 ]; then pass=$((pass + 1)); else
      fail=$((fail + 1)); echo "FAIL topo svg 16384 GPUs: $big_bytes bytes, $big_nodes nodes, $big_edges edges"; fi
  else
    fail=$((fail + 1)); echo "FAIL topo svg 16384 GPUs: not drawn within 30 s: $(head -3 "$tmp/big.err")"
  fi
fi
