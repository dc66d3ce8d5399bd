# A slow GPU from a time inside the run, rerouting around one of k spine links, and failing the
# only path, in scenarios (docs/failures.md, "Slow GPUs in a scenario", "Rerouting", "Failing the
# only path"; issue 21).
rr_examples=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../examples" && pwd)
write ev_slow_late.yaml <<'Y'
cluster: dgx-h100-2node
jobs:
  - {name: a, servers: 0-1, gpus_per_server: 1, repeat: 4, calls: [{collective: broadcast, size: 1M, root: 0, gap: 100us}]}
events:
  - {at: 130us, degrade: server0/gpu0, compute: 0.8}
  - {at: 320us, up: server0/gpu0}
Y
expect "run events: slow GPU from 80 us" 0 "t = 130 us: degrade server0/gpu0: computes at 80% of its speed.*a gap under way then computes its rest at this speed.*t = 320 us: up server0/gpu0: computes at full speed again.*continues degraded" -- \
  run "$tmp/ev_slow_late.yaml"
write ev_up_gpu.yaml <<'Y'
cluster: dgx-h100-2node
jobs:
  - {name: a, servers: 0-1, gpus_per_server: 1, repeat: 4, calls: [{collective: broadcast, size: 1M, root: 0, gap: 100us}]}
events:
  - {at: 130us, up: server0/gpu0}
Y
expect "run events: up of a GPU never slowed" 2 "ev_up_gpu.yaml:5.*events\[0\]\.up.*no earlier event slowed.*hint:" -- run "$tmp/ev_up_gpu.yaml"
sed -e 's|at: 130us|at: 2s|' -e '/up: server0/d' "$tmp/ev_slow_late.yaml" >"$tmp/ev_slow_after.yaml"
expect "run events: slow GPU after the run" 2 "ev_slow_after.yaml:5.*events\[0\]\.at.*after the run" -- run "$tmp/ev_slow_after.yaml"
# 100 us x (1/1e-12 - 1) = 1e8 s, past int64 picoseconds' 9.2e6 s: refused at the key, not left to
# end as "the run cannot finish" with a hint about routes.
sed -e 's|compute: 0.8|compute: 1e-12|' -e '/up: server0/d' "$tmp/ev_slow_late.yaml" >"$tmp/ev_slow_tiny.yaml"
expect "run events: a compute fraction past Time's range" 2 "ev_slow_tiny.yaml:5.*events\[0\]\.compute.*1e-12.*gap of 100 us.*hint:" -- run "$tmp/ev_slow_tiny.yaml"

# examples/failure-reroute.yaml: leaf0-spine0 (one of 3) down 5 us in, inside the first step's
# latency; the subnet manager reroutes after 10 s, the third ACK-timeout retry (3 x 4.294967296 s
# after the failure) moves the step onto a surviving spine, and the call runs from there as the
# healthy one from 0: the job ends 5 us + 12884901.888 us after its end without the event.
expect "run reroute" 0 "down leaf0-spine0: 1 link down; the fabric reroutes after 10 s \(InfiniBand\); retry 3 .*rerouted: 1 stalled transfer moved onto the routes around the dead links.*stalls at 5 us for 12.88 s \(leaf0-spine0\), then continues" -- \
  run "$rr_examples/failure-reroute.yaml"
rr_out=$("$bin" run "$rr_examples/failure-reroute.yaml" 2>&1)
read -r rr_end rr_base < <(awk '$1 == "a" && $2 == "0.00" { print $3, $4 }' <<<"$rr_out")
if awk -v e="${rr_end:-0}" -v b="${rr_base:-0}" 'BEGIN { d = e - b - (5 + 3 * 4294967.296); exit !(d < 0.01 && d > -0.01) }'; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL run reroute end: ${rr_end:-?} us, wanted ${rr_base:-?} + 12884906.888 us"
fi
# Every spine link of leaf0 down: no reconvergence helps; the job aborts when the transport gives
# up, 7 x 4.295 s after the last failure (6 us + 30.06 s), and the line names the GPUs cut off.
write ev_cut.yaml <<Y
cluster: $rr_examples/leafspine-3spines-hosts.yaml
jobs:
  - {name: a, gpus: [0, 3], env: {NCCL_MAX_NCHANNELS: 1}, calls: [{collective: broadcast, size: 256K, root: 0, algo: ring, proto: simple}]}
events:
  - {at: 5us, down: leaf0-spine1}
  - {at: 5us, down: leaf0-spine2}
  - {at: 6us, down: leaf0-spine0}
Y
expect "run events: every path down" 0 "t = 6 us: down leaf0-spine0: 1 link down; no route is left to 3 GPUs \(GPU 3 .. 5\) with the links down then: transfers to or from them cannot complete.*NCCL aborts at 30.06 s" -- \
  run "$tmp/ev_cut.yaml"
expect "perf --fail every path" 1 "no route remains from rank 0 \(gpu0\) to 3 of 6 ranks.*cannot complete" -- \
  perf broadcast --cluster "$rr_examples/leafspine-3spines-hosts.yaml" -b 1M -e 1M \
  --fail leaf0-spine0 --fail leaf0-spine1 --fail leaf0-spine2
