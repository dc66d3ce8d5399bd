# Hardening (issue 25): inputs that once aborted (exit 134) or printed nonsense. Sourced by
# run_cli_tests.sh: uses its expect/write helpers and $tmp. Every case here failed on the code
# before the fix it names.

# CollNet on a fabric with no switch: `--algo auto` offered it and the route lookup aborted.
for server in dgx-h100 dgx-a100 hgx-h200; do
  expect "collnet auto on full_mesh $server" 0 "65536" -- \
    perf all_reduce --cluster $server --nodes 2 --fabric full_mesh -b 64K -e 64K
done
expect "collnet auto on full_mesh analytical" 0 "65536" -- \
  perf all_reduce --cluster dgx-h100 --nodes 4 --fabric full_mesh -b 64K -e 64K --model analytical
expect "collnet forced on full_mesh" 2 "gpufabric: error: .*collnet.*full_mesh or torus.*hint:" -- \
  perf all_reduce --cluster dgx-h100 --nodes 2 --fabric full_mesh -b 64K -e 64K --algo collnet_chain
write sc_mesh_cluster.yaml <<'Y'
name: mesh
server: dgx-h100
servers: 2
fabric: {kind: full_mesh}
Y
write sc_mesh.yaml <<'Y'
cluster: sc_mesh_cluster.yaml
jobs:
  - {name: train, servers: 0-1, calls: [{collective: all_reduce, size: 64K}]}
Y
expect "collnet auto on full_mesh via run" 0 "train +0 +all_reduce" -- run "$tmp/sc_mesh.yaml"

# Bytes that are not UTF-8 (a Latin-1 "café") are refused at load with file:line, so no writer
# ever meets them; a path on the command line that is not UTF-8 prints as U+FFFD in JSON.
printf 'name: caf\xe9\nserver: dgx-h100\nservers: 2\n' >"$tmp/latin1.yaml"
expect "latin-1 cluster text" 2 "latin1.yaml:1:10: the file is not UTF-8 text \(byte 0xE9 here\).*hint: .*iconv" -- \
  topo "$tmp/latin1.yaml"
expect "latin-1 cluster json" 2 "latin1.yaml:1:10: the file is not UTF-8" -- \
  perf all_reduce --cluster "$tmp/latin1.yaml" -b 1M -e 1M --format json
printf 'cluster: dgx-h100-2node\njobs:\n  - {name: j\xe9, servers: 0, calls: [{collective: all_reduce, size: 1M}]}\n' >"$tmp/latin1_sc.yaml"
expect "latin-1 scenario" 2 "latin1_sc.yaml:3:[0-9]+: the file is not UTF-8" -- run "$tmp/latin1_sc.yaml" --format json

# A list as a mapping key: valid YAML, but yaml-cpp aborted converting it to a name.
write listkey.yaml <<'Y'
name: x
server: dgx-h100
fabric: {? [kind] : leaf_spine}
Y
expect "list as a key" 2 "listkey.yaml:3:[0-9]+: 'fabric': a key must be a plain name.*hint:" -- topo "$tmp/listkey.yaml"
write listkey_top.yaml <<'Y'
? [name]
: x
server: dgx-h100
Y
expect "list as a top-level key" 2 "listkey_top.yaml:1:[0-9]+: '\(top level\)': a key must be a plain name" -- topo "$tmp/listkey_top.yaml"
write listkey_call.yaml <<'Y'
cluster: dgx-h100-2node
jobs:
  - name: a
    servers: 0
    calls:
      - {? [collective] : all_reduce, size: 1M}
Y
expect "list as a call key" 2 "listkey_call.yaml:6:[0-9]+: 'jobs\[0\].calls\[0\]': a key must be a plain name" -- run "$tmp/listkey_call.yaml"

# A second document is refused, not ignored; a key given twice names both lines.
write twodocs.yaml <<'Y'
name: x
server: dgx-h100
---
name: y
server: dgx-a100
Y
expect "second yaml document" 2 "twodocs.yaml:3:[0-9]*:? ?a second YAML document.*hint:" -- topo "$tmp/twodocs.yaml"
write dupkey.yaml <<'Y'
name: x
server: dgx-h100
servers: 2
servers: 4
Y
expect "duplicate key" 2 "dupkey.yaml:4:[0-9]+: 'servers': given twice, at line 3 and at line 4.*hint:" -- topo "$tmp/dupkey.yaml"

# A folder where a file was expected says so.
expect "folder as cluster" 2 "is a folder, not a file" -- topo "$tmp"
expect "folder as scenario" 2 "is a folder, not a file" -- run "$tmp"

# CLI11's own messages in the one error form, with a did-you-mean.
expect "misspelled option" 2 "^gpufabric: error: .*--nodez.*hint: did you mean '--nodes'" -- perf all_reduce --nodez 2
expect "bad option value" 2 "^gpufabric: error: .*--nodes = two[[:space:]]+hint: see .gpufabric perf --help." -- perf all_reduce --nodes two

# Sizes of 2^63 B and more once wrapped negative; times and bandwidths past any machine's.
for b in 99999999999999999999 1e19 8589934592G; do
  expect "perf -b $b" 2 "'-b': size '$b' is past 1024T.*hint:" -- perf all_reduce -b "$b" -e "$b"
done
write slow_nic.yaml <<'Y'
name: slow
link_technologies:
  - {name: snail, family: roce, bandwidth: 1bps}
server: {base: dgx-h100, nic_tech: snail}
servers: 2
Y
expect "1bps nic" 2 "slow_nic.yaml:3:[0-9]+: 'link_technologies\[0\].bandwidth': bandwidth '1bps' is outside 1Mbps..1EB/s.*hint:" -- \
  perf all_reduce --cluster "$tmp/slow_nic.yaml" -b 1M -e 1M
write far.yaml <<'Y'
name: far
link_technologies:
  - {name: far, family: roce, bandwidth: 400Gbps, latency: 1e30s}
server: {base: dgx-h100, nic_tech: far}
servers: 2
Y
expect "1e30s latency" 2 "far.yaml:3:[0-9]+: 'link_technologies\[0\].latency'" -- perf all_reduce --cluster "$tmp/far.yaml" -b 1M -e 1M
write nvlink_nic.yaml <<'Y'
name: x
server: {base: dgx-h100, nic_tech: nvlink4}
servers: 2
Y
expect "nvlink nic in yaml" 2 "'nvlink4' is not a network port technology" -- topo "$tmp/nvlink_nic.yaml"
write over.yaml <<'Y'
name: x
server: dgx-h100
servers: 4
fabric: {kind: leaf_spine, oversubscription: 1e9}
Y
expect "oversubscription 1e9" 2 "over.yaml:4:[0-9]+: 'fabric.oversubscription': 1e\+09 is outside 1..511" -- topo "$tmp/over.yaml"
write sc_far.yaml <<'Y'
cluster: dgx-h100-2node
jobs:
  - {name: a, servers: 0, start: 1e30s, calls: [{collective: all_reduce, size: 1M}]}
Y
expect "scenario start 1e30s" 2 "sc_far.yaml:3:[0-9]+: 'jobs\[0\].start': time '1e30s' is past" -- run "$tmp/sc_far.yaml"
write sc_gap.yaml <<'Y'
cluster: dgx-h100-2node
jobs:
  - {name: a, servers: 0, calls: [{collective: all_reduce, size: 1M, gap: 1e30s}]}
Y
expect "scenario gap 1e30s" 2 "sc_gap.yaml:3:[0-9]+: 'jobs\[0\].calls\[0\].gap'" -- run "$tmp/sc_gap.yaml"
write sc_huge.yaml <<'Y'
cluster: dgx-h100-2node
jobs:
  - {name: a, servers: 0, calls: [{collective: all_reduce, size: 1e19}]}
Y
expect "scenario size 1e19" 2 "sc_huge.yaml:3:[0-9]+: 'jobs\[0\].calls\[0\].size'" -- run "$tmp/sc_huge.yaml"

# Rules that were inconsistent: each is now an error saying the rule.
write sc_six.yaml <<'Y'
cluster: dgx-h100-2node
jobs:
  - {name: a, servers: 0, calls: [{collective: all_reduce, size: 6}]}
Y
expect "scenario size 6 float" 2 "sc_six.yaml:3:[0-9]+: 'jobs\[0\].calls\[0\].size': 6 B is not a multiple of the float element size \(4 B\).*hint: use a multiple of 4 B, e.g. size: 8" -- run "$tmp/sc_six.yaml"
expect "perf -f 1.1" 2 "'-f': the step factor must be a whole number, got 1.1" -- perf all_reduce -b 8 -e 128 -f 1.1
expect "perf -f 1.3" 2 "'-f': the step factor must be a whole number" -- perf all_reduce -b 8 -e 128 -f 1.3
expect "perf --seed -1" 2 "'--seed': must be 0 or more, got -1" -- perf all_reduce -b 1M -e 1M --seed -1
expect "perf row cap" 2 "'-i': the sweep has 268435456 sizes; gpufabric runs at most 10000.*hint: use -f 2" -- \
  perf all_reduce -b 4 -e 1G -i 4

# Importers: no GPU has more than 18 NVLinks to another device.
harden_smi="$(dirname "${BASH_SOURCE[0]}")/../../../../shared/validation/formats/nvidia-smi-topo"
[ -n "${GPUFABRIC_SHARED_DIR:-}" ] && harden_smi="$GPUFABRIC_SHARED_DIR/validation/formats/nvidia-smi-topo"
if [ -f "$harden_smi/hgx-h100-nv18-6nic-PARTIAL.txt" ]; then
  sed '3s/NV18/NV100/' "$harden_smi/hgx-h100-nv18-6nic-PARTIAL.txt" >"$tmp/nv100.txt"
  expect "import NV100" 2 "nv100.txt:3:[0-9]+: 'GPU1/GPU0': 'NV100': no GPU has more than 18 NVLinks" -- import nvidia-smi "$tmp/nv100.txt"
fi

# A file given to the wrong command says what it is.
write a_cluster.yaml <<'Y'
name: c
source: test
server: dgx-h100
servers: 2
Y
expect "cluster given to run" 2 "a_cluster.yaml:[0-9]+:[0-9]+: 'server': this is a cluster file, not a scenario.*hint: use it as .gpufabric perf" -- run "$tmp/a_cluster.yaml"
write a_scenario.yaml <<'Y'
cluster: dgx-h100-2node
jobs:
  - {name: a, servers: 0, calls: [{collective: all_reduce, size: 1M}]}
Y
expect "scenario given as cluster" 2 "a_scenario.yaml:1:[0-9]+: 'cluster': this is a scenario file, not a cluster.*hint: run it with .gpufabric run" -- \
  perf all_reduce --cluster "$tmp/a_scenario.yaml"

# Text after an nvidia-smi matrix that is not its legend: a few lines are skipped with a note, a
# mass of them is an error.
if [ -f "$harden_smi/hgx-h100-nv18-6nic-PARTIAL.txt" ]; then
  { cat "$harden_smi/hgx-h100-nv18-6nic-PARTIAL.txt"; echo; echo "user@host:~\$ exit"; } >"$tmp/prompt.txt"
  expect "smi stray line" 0 "skipped 1 line\(s\) after the table from line [0-9]+ that are not nvidia-smi's legend" -- import nvidia-smi "$tmp/prompt.txt"
  { cat "$harden_smi/hgx-h100-nv18-6nic-PARTIAL.txt"; echo; for i in $(seq 1 200); do echo "junk line $i"; done; } >"$tmp/junk.txt"
  expect "smi junk" 2 "junk.txt:[0-9]+: 'text': 200 lines after the table are not nvidia-smi's legend" -- import nvidia-smi "$tmp/junk.txt"
fi

# The torus hint suggests only dims the checker accepts (sides of at least 2).
expect "torus hint prime" 2 "'fabric.torus_dims': a torus needs 2 or 3 dimensions.*hint: .*no torus of 2 or 3 sides of at least 2 has 7 servers; with 8, torus_dims: \[2, 2, 2\]" -- \
  topo dgx-h100 --nodes 7 --fabric torus
expect "torus hint six" 2 "hint: for example torus_dims: \[2, 3\]" -- topo dgx-h100 --nodes 6 --fabric torus

# An unterminated quote is named, not reported as the key it swallowed.
printf 'name: "x\nserver: dgx-h100\nservers: 2\n' >"$tmp/quote.yaml"
expect "unterminated quote" 2 "quote.yaml:1:7: a double quote that never closes.*hint:" -- topo "$tmp/quote.yaml"
expect "misspelled command" 2 "^gpufabric: error: .*hint: 'prf' is not a command; did you mean 'perf'" -- prf
