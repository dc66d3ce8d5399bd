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

# CLI11's own messages in the one error form, with a did-you-mean.
expect "misspelled option" 2 "^gpufabric: error: .*--nodez.*hint: did you mean '--nodes'" -- perf all_reduce --nodez 2
expect "bad option value" 2 "^gpufabric: error: .*--nodes = two[[:space:]]+hint: see .gpufabric perf --help." -- perf all_reduce --nodes two

