# A loss degrade under the packet model (docs/failures.md, "Latency and loss"): the link keeps its
# bandwidth and the packet model drops packets on both directions of server1/nic0's cable at the
# rate, drawn from --seed. 4 MiB sendrecv over 2 DGX H100: about 1,000 packets each way cross the
# cable, so at 1e-3 a seed draws about one drop per direction, each costing a go-back: slower than
# the baseline (seed 1 draws some; the chance of none is 0.999^2048, 13 %, so the seed is fixed).
expect "--degrade loss: packet drops" 0 "failure: server1/nic0: 1 link at loss 0\.001 \(packet drops, go-back-N\).*# +4194304 +[0-9.]+ +[0-9.]+ +1\.(00[1-9]|0[1-9][0-9])x.*drops cost the packets resent" -- \
  perf sendrecv --nodes 2 --model packet -b 4M -e 4M --seed 1 --degrade server1/nic0=loss:1e-3
# The same seed twice: byte-identical (the drops are drawn from it, not from the clock).
"$bin" perf sendrecv --nodes 2 --model packet -b 4M -e 4M --seed 1 --degrade server1/nic0=loss:1e-3 >"$tmp/loss_a.txt" 2>&1
"$bin" perf sendrecv --nodes 2 --model packet -b 4M -e 4M --seed 1 --degrade server1/nic0=loss:1e-3 >"$tmp/loss_b.txt" 2>&1
if cmp -s "$tmp/loss_a.txt" "$tmp/loss_b.txt" && [ -s "$tmp/loss_a.txt" ]; then pass=$((pass + 1)); else
  fail=$((fail + 1)); echo "FAIL --degrade loss: one seed, two runs differ (or are empty)"; fi
# Another seed draws other drops (it may differ; it stays a slowdown of at least 1).
expect "--degrade loss: another seed" 0 "# +4194304 +[0-9.]+ +[0-9.]+ +1\.[0-9]{3}x" -- \
  perf sendrecv --nodes 2 --model packet -b 4M -e 4M --seed 2 --degrade server1/nic0=loss:1e-3
# The flow model keeps the go-back-N penalty: (1 - 1e-3) / (1 + 122e-3) = 89.04 % at 400 Gb/s, 10 us.
expect "--degrade loss: flow penalty" 0 "failure: server1/nic0: 1 link at 89\.04% of its bandwidth \(loss 0\.001, go-back-N" -- \
  perf sendrecv --nodes 2 -b 4M -e 4M --degrade server1/nic0=loss:1e-3
# A link that runs TCP in the packet model (EFA here) is refused: its recovery from loss is not modelled.
expect "--degrade loss: packet TCP link refused" 2 "'--degrade': loss on server1/nic0-leaf0: that link runs TCP.*--model flow" -- \
  perf sendrecv --cluster aws-p5-cluster --nodes 2 --model packet -b 1M -e 1M --degrade server1/nic0=loss:1e-3
# rtt= sets the flow model's go-back-N window; the packet model's round trip is the path's own.
expect "--degrade loss: rtt= refused under packet" 2 "rtt= sets the go-back-N round trip.*unused" -- \
  perf sendrecv --nodes 2 --model packet -b 1M -e 1M --degrade server1/nic0=loss:1e-3,rtt=5us
# A connection that gets no packet through: 8 go-backs on ACK timeouts (4.29 s each) exhaust
# NCCL_IB_RETRY_CNT = 7 and the run stops at about 34.36 s with the link named, exit 2.
expect "--degrade loss: retry count exceeded" 2 "the collective aborts at t = 34\.3[0-9]* s: the reliable connection .*server1/nic0.*NCCL_IB_RETRY_CNT = 7" -- \
  perf sendrecv --nodes 2 --model packet -b 4K -e 4K --seed 1 --degrade server1/nic0=loss:0.999
