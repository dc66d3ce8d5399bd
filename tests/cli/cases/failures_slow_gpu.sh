# A slow GPU in perf (docs/failures.md, "Slow GPUs in perf"): one DGX H100, 1 GiB ring all-reduce,
# gpu3 reducing at a quarter of HBM/3 (F R = 279.2 GB/s, below its B = 370.8 GB/s NVLink ingress).
# Its ingress carries the reduce-scatter half at F R at most and the all-gather half at B at most:
# T >= 7/8 x 1 GiB x (1/279.2 + 1/370.8) GB/s = 5.90 ms against the healthy 5.12 ms (1.15x), and at
# most every step at F R, 6.79 ms (1.32x): the slowdown lies in 1.150x-1.329x.
expect "--degrade gpu: slow reducer" 0 "failure: server0/gpu3: computes at 25%.*# +1073741824 +[0-9.]+ +[0-9.]+ +1\.(1[5-9]|2[0-9]|3[0-2])[0-9]x" -- \
  perf all_reduce --nodes 1 -b 1G -e 1G --algo ring --proto simple --degrade server0/gpu3=0.25
expect "--fail gpu refused" 2 "'server0/gpu3' is a gpu inside a server.*--degrade server0/gpu3=0.5" -- \
  perf all_reduce --nodes 1 -b 1M -e 1M --fail server0/gpu3
# The analytical model prices it too (its closed form: the 16 channels of a ring step reducing on
# gpu3 together, each at 1/16 of F R): the same 1.150x lower bound holds.
expect "--degrade gpu: analytical model" 0 "failure: server0/gpu3: computes at 25%.*# +1073741824 +[0-9.]+ +[0-9.]+ +1\.(1[5-9]|2[0-9]|3[0-9])[0-9]x" -- \
  perf all_reduce --nodes 1 -b 1G -e 1G --algo ring --proto simple --model analytical --degrade server0/gpu3=0.25
expect "--degrade gpu: latency refused" 2 "is a GPU: it is slowed by a fraction" -- \
  perf all_reduce --nodes 1 -b 1M -e 1M --degrade server0/gpu3=latency:+1us
# The channel that ended last: server0/nic3 at half speed holds up the channels crossing it.
expect "last channel named" 0 "last channel.* 67108864 .*\|  channel [0-9]+ 3/3" -- \
  perf all_reduce -b 64M -e 64M --algo ring --proto simple -n 3 --straggler server1/gpu3=+2us --degrade server0/nic3=0.5
