# Scenario events (links down, up, degraded during a run), slow GPUs in train, perf --fail's cost
# links in JSON and --no-baseline (docs/failures.md, docs/scenarios.md; issue 21).
write ev_ok.yaml <<'Y'
cluster: dgx-h100-2node
jobs:
  - {name: a, servers: 0-1, gpus_per_server: 1, repeat: 4, calls: [{collective: all_reduce, size: 64M}]}
events:
  - {at: 1ms, down: server0/nic0}
  - {at: 2ms, up: server0/nic0}
Y
# Down at 1 ms, up at 2 ms: the first retry after it is 4.096 us x 2^20 = 4.295 s after the failure.
expect "run events: stall then continue" 0 "Events \(nccl_on_failure: abort.*t = 1 ms: down server0/nic0: 1 link down; it is up again at 2 ms; retry 1.*stalls at 1 ms for 4.295 s \(server0/nic0\), then continues" -- \
  run "$tmp/ev_ok.yaml"
expect "run events json" 0 '"outcome": \{[^}]*"kind": "stalled"[^}]*"stall_us": 4294967.29' -- \
  run "$tmp/ev_ok.yaml" --format json
write ev_abort.yaml <<'Y'
cluster: dgx-h100-2node
jobs:
  - {name: a, servers: 0-1, gpus_per_server: 1, calls: [{collective: all_reduce, size: 64M}]}
events:
  - {at: 0, down: server0/nic0}
Y
# Seven retries of 4.295 s: NCCL aborts at 30.06 s.
expect "run events: NIC abort" 0 "NCCL aborts at 30.06 s" -- run "$tmp/ev_abort.yaml"
write ev_unknown.yaml <<'Y'
cluster: dgx-h100-2node
jobs:
  - {name: a, servers: 0-1, calls: [{collective: all_reduce, size: 1M}]}
events:
  - {at: 1ms, down: leaf0-spine9}
Y
expect "run events: unknown component" 2 "ev_unknown.yaml:5.*events\[0\]\.down.*no component named 'spine9'" -- run "$tmp/ev_unknown.yaml"
write ev_late.yaml <<'Y'
cluster: dgx-h100-2node
jobs:
  - {name: a, servers: 0-1, calls: [{collective: all_reduce, size: 1M}]}
events:
  - {at: 10s, degrade: server0/nic0, bandwidth: 0.5}
Y
expect "run events: after the run" 2 "ev_late.yaml:5.*events\[0\]\.at.*after the run" -- run "$tmp/ev_late.yaml"
write ev_slow.yaml <<'Y'
cluster: dgx-h100-2node
jobs:
  - {name: a, servers: 0-1, gpus_per_server: 1, repeat: 3, calls: [{collective: broadcast, size: 1M, root: 0, gap: 100us}]}
events:
  - {at: 0, degrade: server0/gpu0, compute: 0.8}
Y
sed 's|server0/gpu0|server0/nic0|' "$tmp/ev_slow.yaml" >"$tmp/ev_nic.yaml"
# The root computes at 80%: each call after a 100 us gap starts 25 us late on it (docs/failures.md).
expect "run events: slow GPU" 0 "degrade server0/gpu0: computes at 80% of its speed; its rank starts each call that follows a gap 0.25 x the gap late.*continues degraded" -- \
  run "$tmp/ev_slow.yaml"
expect "run events: compute on a NIC" 2 "ev_nic.yaml:5.*events\[0\]\.degrade.*'server0/nic0' is not a GPU" -- \
  run "$tmp/ev_nic.yaml"
expect "train --straggler" 0 "straggler server0/gpu3 \(GPU 3, pipeline stage 0\) computes at 80% of its speed" -- \
  train --cluster dgx-h100 --model llama3-8b --tp 8 --global-batch 4 --straggler server0/gpu3=0.8
expect "train --straggler unknown gpu" 2 "'--straggler'.*no GPU named 'server0/gpu9'.*did you mean" -- \
  train --cluster dgx-h100 --model llama3-8b --tp 8 --straggler server0/gpu9=0.8
expect "perf --fail json links" 0 '"links": \[[[:space:]]*\{[[:space:]]*"link": [0-9]+,[[:space:]]*"from": "[^"]+",[[:space:]]*"to": "[^"]+",[[:space:]]*"cable": [0-9]+,[[:space:]]*"cables": [0-9]+,[[:space:]]*"lanes": [0-9]+,[[:space:]]*"busy_us"' -- \
  perf all_reduce -b 1G -e 1G --algo ring --proto simple --degrade server0/nic3=0.5 --format json
expect "perf --no-baseline" 0 "# --no-baseline: the run without the failures was skipped" -- \
  perf all_reduce -b 1M -e 1M --fail leaf0-spine0 --no-baseline
expect "--no-baseline without --fail" 2 "'--no-baseline'.*only shapes what a --fail costs" -- \
  perf all_reduce -b 1M -e 1M --no-baseline
