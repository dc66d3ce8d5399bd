# A later down that leaves GPUs no route aborts the transfers still stalled on an earlier down
# (docs/failures.md, "Failing the only path"; issue 21). leaf0-spine0 carries the channel of
# examples/failure-reroute.yaml (seed 0): down at 5 us it stalls the first step; leaf0's two other
# spine links down at 6 us leave hosts 3-5 no route. The step's connection has retried since
# 5 us, so the transport gives up 7 x 4.294967296 s after 5 us and NCCL aborts at 30.06 s; the
# first down's line says why, in the cut's own words.
ce_examples=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../examples" && pwd)
write ev_cut_earlier.yaml <<Y
cluster: $ce_examples/leafspine-3spines-hosts.yaml
jobs:
  - {name: a, gpus: [0, 3], env: {NCCL_MAX_NCHANNELS: 1}, calls: [{collective: broadcast, size: 256K, root: 0, algo: ring, proto: simple}]}
events:
  - {at: 5us, down: leaf0-spine0}
  - {at: 6us, down: leaf0-spine1}
  - {at: 6us, down: leaf0-spine2}
Y
expect "run events: a later cut aborts an earlier stall" 0 "t = 5 us: down leaf0-spine0: 1 link down; the fabric reroutes .*; from t = 6 us \(down leaf0-spine2\) no route is left to 3 GPUs \(GPU 3 .. 5\) with the links down then: transfers to or from them cannot complete: a transfer stalled here .*NCCL aborts at 30.06 s.*stalls at 5 us \(leaf0-spine0\); NCCL aborts at 30.06 s" -- \
  run "$tmp/ev_cut_earlier.yaml"
