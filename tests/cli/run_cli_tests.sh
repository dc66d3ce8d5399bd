#!/usr/bin/env bash
# End-to-end checks of the gpufabric binary as a user meets it: exit statuses (0 ok, 2 bad input)
# and that each error names the file, line and key. $GPUFABRIC is the binary under test.
set -u
bin=${GPUFABRIC:?set GPUFABRIC to the gpufabric binary}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

# expect NAME STATUS PATTERN -- ARGS...: runs the binary, checks exit status and that the combined
# output matches the extended regex PATTERN.
expect() {
  local name=$1 status=$2 pattern=$3
  shift 4
  local out rc
  out=$("$bin" "$@" 2>&1)
  rc=$?
  if [ "$rc" -eq "$status" ] && grep -Ezq -- "$pattern" <<<"$out"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $name: exit $rc (wanted $status), output did not match /$pattern/:"
    sed 's/^/    /' <<<"$out" | head -20
  fi
}

write() { cat >"$tmp/$1"; }

expect "list presets" 0 "dgx-h100-2node" -- list presets
expect "list links" 0 "nvlink4" -- list links
expect "list topologies" 0 "single_switch" -- list topologies
expect "default topo" 0 "GPUs +16" -- topo
expect "json" 0 '"gpus": 16' -- topo dgx-h100-2node --format json
expect "matrix nv18" 0 "GPU0 +X +NV18 +NV18" -- topo dgx-h100 --matrix
expect "matrix pcie box" 0 "GPU0 +X +PIX +PHB +PHB +SYS" -- topo pcie-8gpu --matrix
expect "matrix json" 0 '"NV18"' -- topo dgx-h100 --matrix --format json
expect "matrix bad server" 2 "server" -- topo dgx-h100 --matrix --server 5
expect "unknown preset" 2 "did you mean 'dgx-h100'" -- topo dgx-h10
expect "bad nodes" 2 "'--nodes': must be at least 1" -- topo dgx-h100 --nodes -3
expect "bad path gpu" 2 "not a GPU of this cluster" -- topo dgx-h100 --path gpu0 gpu99

write malformed.yaml <<'Y'
name: x
server: dgx-h100
fabric:
  kind: [single_switch
Y
expect "malformed yaml" 2 "malformed.yaml:[0-9]+:[0-9]+: malformed YAML" -- topo "$tmp/malformed.yaml"

write unknown_key.yaml <<'Y'
name: x
server: dgx-h100
servers: 2
fabric:
  kind: single_switch
  oversubscriptoin: 2
Y
expect "unknown key" 2 "unknown_key.yaml:6:[0-9]+: 'fabric.oversubscriptoin': unknown key.*did you mean 'oversubscription'" -- topo "$tmp/unknown_key.yaml"

write missing.yaml <<'Y'
name: x
servers: 2
Y
expect "missing server" 2 "missing.yaml:[0-9]+.*'server': missing" -- topo "$tmp/missing.yaml"

write bad_unit.yaml <<'Y'
name: x
link_technologies:
  - {name: my-link, family: roce, bandwidth: 400Gbs}
server: dgx-h100
Y
expect "bad unit" 2 "bad_unit.yaml:3:[0-9]+: 'link_technologies\[0\].bandwidth': unknown unit 'Gbs'; expected a bandwidth like 400Gbps" -- topo "$tmp/bad_unit.yaml"

write zero_bw.yaml <<'Y'
name: x
link_technologies:
  - {name: my-link, family: roce, bandwidth: 0Gbps}
server: dgx-h100
Y
expect "zero bandwidth" 2 "zero_bw.yaml:3:[0-9]+: .*bandwidth must be greater than zero" -- topo "$tmp/zero_bw.yaml"

write dangling.yaml <<'Y'
name: x
server:
  nodes:
    - {name: gpu0, kind: gpu}
    - {name: gpu1, kind: gpu}
    - {name: sw0, kind: pcie_switch}
  links:
    - {a: gpu0, b: sw0, tech: pcie-gen4-x16}
    - {a: gpu1, b: sw9, tech: pcie-gen4-x16}
Y
expect "link to missing node" 2 "dangling.yaml:9:[0-9]+: 'server.links\[1\].b': no node named 'sw9'.*did you mean 'sw0'" -- topo "$tmp/dangling.yaml"

write radix.yaml <<'Y'
name: x
server: dgx-h100
servers: 20
fabric:
  kind: single_switch
Y
expect "radix exceeded" 2 "radix.yaml:5:[0-9]+: 'fabric.switch_radix': .*needs 160 ports per switch but the switch has 64" -- topo "$tmp/radix.yaml"

write island.yaml <<'Y'
name: x
server:
  nodes:
    - {name: gpu0, kind: gpu}
    - {name: gpu1, kind: gpu}
    - {name: sw0, kind: pcie_switch}
  links:
    - {a: gpu0, b: sw0, tech: pcie-gen4-x16}
Y
expect "gpu without path" 2 "island.yaml.*gpu1 .*has no path to gpu0" -- topo "$tmp/island.yaml"

write negative.yaml <<'Y'
name: x
server: dgx-h100
servers: 2
fabric:
  kind: single_switch
  oversubscription: -2
Y
expect "negative number" 2 "negative.yaml:6:[0-9]+: 'fabric.oversubscription': must be at least 1" -- topo "$tmp/negative.yaml"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
