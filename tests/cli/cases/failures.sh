# Failures and degradation (docs/failures.md): perf --fail / --degrade beside the baseline, the
# only path down (exit 1), bad names (exit 2).
expect "--degrade a NIC" 0 "# note: failure: server0/nic3: 1 link at 50% of its bandwidth.*baseline\(us\).*1073741824 .*x" -- \
  perf all_reduce -b 1G -e 1G --algo ring --proto simple --degrade server0/nic3=0.5
expect "--fail a leaf reroutes" 0 "# note: failure: leaf0: 4 links down" -- perf all_reduce -b 1M -e 1M --fail leaf0
expect "--fail one cable" 0 "failure: leaf0-spine0#2: cable 2 of 2 down" -- perf all_reduce -b 1M -e 1M --fail leaf0-spine0#2
expect "--fail json" 0 '"baseline_time_us".*"failures": \[' -- perf all_reduce -b 1M -e 1M --fail leaf0 --format json
expect "only path down" 1 "no route remains from rank 0 \(gpu0\) to 8 of 16 ranks.*server1: gpu8-gpu15.*cannot complete" -- \
  perf all_reduce -b 1M -e 1M --fail server1/nic0 --fail server1/nic1 --fail server1/nic2 --fail server1/nic3 \
  --fail server1/nic4 --fail server1/nic5 --fail server1/nic6 --fail server1/nic7
expect "--fail unknown" 2 "'--fail'.*no component named 'leaf99'.*did you mean" -- perf all_reduce -b 1M -e 1M --fail leaf99
expect "--fail gpu refused" 2 "is a gpu inside a server" -- perf all_reduce -b 1M -e 1M --fail server0/gpu1
expect "--degrade bad fraction" 2 "'--degrade'.*not a fraction" -- perf all_reduce -b 1M -e 1M --degrade server0/nic3=1.5
