# gpufabric topo --format dot | svg: drawings of the cluster. Sourced by run_cli_tests.sh: uses its
# expect helper and $tmp. Graphviz (scripts/setup.sh installs it) parses what we write: every
# preset's DOT goes through the real `dot`.
expect "topo dot" 0 "^graph \"dgx-h100-2node\" \{.*subgraph \"cluster_server1\".*\}" -- topo dgx-h100-2node --format dot
expect "topo dot with path" 2 "'--format': dot draws the whole cluster" -- topo dgx-h100-2node --format dot --path gpu0 gpu9
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
