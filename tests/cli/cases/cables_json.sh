# Parallel cables as JSON fields (docs/scenarios.md, docs/failures.md): each link row carries
# `cable` (1-based, 0 for a whole evenly loaded bundle), `cables` and `lanes`, agreeing with the
# text that names the cable. Sourced by run_cli_tests.sh.
# examples/leafspine-4to1.yaml: radix-40 leaves at 4:1 keep 32 ports down and 8 up, and one spine
# takes both leaves' 8 uplinks, so each leaf-spine bundle has 8 cables of one NDR port (1 lane).
# The backreferences tie the fields to the row's own "ib-ndr #k of n".
expect "run JSON: a cable's fields agree with its name" 0 \
  "\"cable\": ([1-8]),[[:space:]]*\"cables\": (8),[[:space:]]*\"from\": \"(leaf|spine)[01]\",[[:space:]]*\"lanes\": 1,[[:space:]]*\"link\": [0-9]+,[[:space:]]*\"tech\": \"ib-ndr #\1 of \2\"" -- \
  run "$examples/two-jobs-oversubscribed.yaml" --format json --model analytical
# dgx-h100-2node: 2 cables from leaf0 to spine0. With cable 2 down and PXN off, all-to-all sends
# cross the spine, and the load that grew is on the cable left, named "cable k of 2".
expect "perf --fail JSON: the cable's fields" 0 \
  "\"to\": \"spine0 \(cable ([12]) of 2\)\",[[:space:]]*\"cable\": \1,[[:space:]]*\"cables\": 2,[[:space:]]*\"lanes\": 1," -- \
  perf alltoall -b 1M -e 1M --fail leaf0-spine0#2 --format json --env NCCL_PXN_DISABLE=1
