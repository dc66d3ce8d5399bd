# Stragglers and jitter over -n iterations, latency and loss degradation, the links that carried a
# failure's cost (docs/failures.md).
expect "--straggler" 0 "start delays over 5 iterations: server1/gpu3 \+20 us.*last to start.*1048576 .*gpu11 \(rank 11\) 5/5" -- \
  perf all_reduce -b 1M -e 1M -n 5 --straggler server1/gpu3=+20us
expect "--jitter json" 0 '"p99_us".*"noise": \{[[:space:]]*"iterations": 4,[[:space:]]*"seed": 3,.*"distribution": "lognormal"' -- \
  perf all_reduce -b 1M -e 1M -n 4 --seed 3 --jitter lognormal:median=2us,sigma=0.5 --format json
expect "--straggler unknown gpu" 2 "'--straggler'.*'server1/gpu33' is not a GPU of the cluster.*gpu0 \.\. gpu15" -- \
  perf all_reduce -b 1M -e 1M --straggler server1/gpu33=+20us
expect "--straggler bad delay" 2 "'--straggler'.*fast" -- perf all_reduce -b 1M -e 1M --straggler server1/gpu3=+fast
expect "--jitter unknown distribution" 2 "'--jitter'.*unknown distribution 'gauss'" -- \
  perf all_reduce -b 1M -e 1M --jitter gauss:median=2us,sigma=0.5
expect "--straggler with -n 0" 2 "'-n'.*run -n iterations" -- perf all_reduce -b 1M -e 1M -n 0 --straggler server1/gpu3=+2us
expect "--degrade latency" 0 "failure: leaf0-spine0: 2 links \+5 us latency each way" -- \
  perf all_reduce -b 8 -e 8 --degrade leaf0-spine0=latency:+5us
expect "--degrade loss" 0 "failure: server0/nic3: 1 link at [0-9.]+% of its bandwidth \(loss 0.001, go-back-N over a 10 us round trip\)" -- \
  perf all_reduce -b 1M -e 1M --degrade server0/nic3=loss:1e-3
expect "--degrade bad loss" 2 "'--degrade'.*loss rate '2' must be between 0 and 1" -- \
  perf all_reduce -b 1M -e 1M --degrade server0/nic3=loss:2
expect "--degrade latency on one cable" 0 "failure: leaf0-spine0#1: 1 link \+5 us latency each way" -- \
  perf all_reduce -b 1M -e 1M --degrade leaf0-spine0#1=latency:+5us
expect "--degrade names the links that carried the cost" 0 "links that carried the cost at 1073741824 B.*(server0/nic3 -> +leaf|leaf[0-9]+ -> server0/nic3)" -- \
  perf all_reduce -b 1G -e 1G --algo ring --proto simple --degrade server0/nic3=0.5
expect "--fail timeline: fabric link" 0 "# timeline: leaf0-spine0: stalls 12.9 s, then continues degraded.*subnet manager.*retry 3 succeeds" -- \
  perf all_reduce -b 1M -e 1M --fail leaf0-spine0
expect "--fail timeline: NIC aborts" 0 "# timeline: server1/nic3: the job aborts at 30.1 s" -- \
  perf all_reduce -b 1M -e 1M --fail server1/nic3
expect "--fail timeline: resilient" 0 "# timeline: server1/nic3: stalls 0.5 s, then continues degraded" -- \
  perf all_reduce -b 1M -e 1M --fail server1/nic3 --nccl-on-failure resilient
expect "--fail timeline json" 0 '"timeline": \[[[:space:]]*\{[[:space:]]*"component": "leaf0",[[:space:]]*"outcome": "aborts"' -- \
  perf all_reduce -b 1M -e 1M --fail leaf0 --format json
expect "--nccl-on-failure unknown" 2 "'--nccl-on-failure'.*unknown behaviour 'resilent'.*resilient" -- \
  perf all_reduce -b 1M -e 1M --fail leaf0 --nccl-on-failure resilent
expect "--reconverge without --fail" 2 "'--reconverge'.*only shapes what a --fail costs" -- \
  perf all_reduce -b 1M -e 1M --reconverge 2s
