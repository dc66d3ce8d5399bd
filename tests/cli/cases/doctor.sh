# gpufabric doctor and `list rules` (sourced by run_cli_tests.sh: expect/write helpers, $tmp).
# Exit status: 0 nothing found, 1 findings, 2 bad input.
doctor_examples=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../examples" && pwd)
expect "list rules" 0 "oversubscription .*tcp-fallback .*ecmp-collision .*fabric-shape " -- list rules
# dgx-h100-2node: rail-optimized, non-blocking, RDMA (ib-ndr), ring edges stay on their rail leaf.
# Every rule, server rules included, finds nothing there.
expect "doctor clean cluster" 0 "# gpufabric doctor: dgx-h100-2node.*no findings" -- doctor dgx-h100-2node --model analytical --size 64M
# leafspine-4to1.yaml: 8 servers on 2 leaves of 32 down / 8 up ports.
expect "doctor oversubscribed" 1 "\[CRITICAL\] oversubscription: the leaf tier is 4:1 .*predicted: alltoall .* -> .*with leaf tier at 1:1.*1 finding \(1 critical, 0 warnings\)" -- \
  doctor "$doctor_examples/leafspine-4to1.yaml" --rule oversubscription --model analytical --size 64M
write doctor_tcp.yaml <<'Y'
name: dgx-tcp
server: {base: dgx-h100, nic_tech: eth-400g-tcp}
servers: 2
Y
expect "doctor tcp nics" 1 "\[CRITICAL\] tcp-fallback: the NICs carry no RDMA.*nic0 \(eth-400g-tcp\).*predicted: all_reduce .*with RoCE \(RDMA\) instead of TCP" -- \
  doctor "$tmp/doctor_tcp.yaml" --rule tcp-fallback --model analytical --size 64M
expect "doctor tcp fabric" 1 "\[CRITICAL\] tcp-fallback: the fabric is set up without RDMA.*switch-to-switch links of eth-400g-tcp" -- \
  doctor dgx-h100-2node --fabric-link eth-400g-tcp --rule tcp-fallback --model analytical --size 64M
expect "doctor json" 1 '"findings": \[.*"busbw_before_GBps".*"rule": "oversubscription".*"summary": \{' -- \
  doctor "$doctor_examples/leafspine-4to1.yaml" --rule oversubscription --model analytical --size 64M --format json
if command -v python3 >/dev/null; then
  if "$bin" doctor "$doctor_examples/leafspine-4to1.yaml" --rule oversubscription --model analytical --size 64M \
      --format json | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if d["summary"]["findings"] >= 1 else 1)'; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL doctor json parses"
  fi
fi
expect "doctor unknown rule" 2 "'--rule': unknown rule 'oversubscriptoin'.*did you mean 'oversubscription'" -- \
  doctor dgx-h100-2node --rule oversubscriptoin
expect "doctor unknown cluster" 2 "did you mean 'dgx-h100'" -- doctor dgx-h10
expect "doctor unknown format" 2 "'--format': unknown format 'xml'" -- doctor dgx-h100-2node --format xml
expect "doctor bad size" 2 "'--size': " -- doctor dgx-h100-2node --size 12Q

# A heuristic finding the model says costs nothing measurable is info, and info alone exits 0: on
# gb200-nvl72-cluster ECMP puts 4 ring flows on one NDR link, and the model predicts under 5% gain
# from fixing it (the all-reduce runs nvlstree, bound inside the racks), so a pipeline must not stop
# on it. (aws-p5-cluster was the example until its preset became the validated p5 description: one
# 400G device per GPU, where the rule finds nothing.)
expect "doctor info only exits 0" 0 "\[INFO\] ecmp-collision: .*listed as info, was critical.*0 critical, 0 warnings, 1 info" -- \
  doctor gb200-nvl72-cluster --rule ecmp-collision
# The dragonfly's shape caps the ring (1/8 of the NIC rate: tests/doctor_fabric_rules_test.cpp
# derives it); the doctor names it with a before/after against rail-optimized and exits 1.
expect "doctor fabric shape" 1 "\[CRITICAL\] fabric-shape: the dragonfly fabric keeps a ring all-reduce at 12% .*with a rail-optimized fabric of the same servers and links" -- \
  doctor dgx-h100 --nodes 64 --fabric dragonfly --rule fabric-shape
