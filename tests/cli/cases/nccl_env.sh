# NCCL's environment: NCCL_* variables from the environment and --env, applied and listed, or
# said to be ignored; CollNet off unless NCCL_COLLNET_ENABLE=1, as NCCL's default.
NCCL_ALGO=ring expect "env NCCL_ALGO ring" 0 "# nccl: NCCL_ALGO=ring.*1048576 .* ring +(LL|LL128|Simple) +[0-9]+" -- \
  perf all_reduce -b 1M -e 1M
expect "--env NCCL_ALGO tree" 0 "# nccl: NCCL_ALGO=tree.*1048576 .* tree +(LL|LL128|Simple) +[0-9]+" -- \
  perf all_reduce -b 1M -e 1M --env NCCL_ALGO=tree
# A SuperPOD SU's NDR switches can reduce, but NCCL leaves CollNet off by default: not chosen, said.
expect "collnet off by default" 0 "CollNet \(SHARP\) off.*collnet_chain could run here but is off.*1073741824 .* (nvlstree|ring|tree) +Simple" -- \
  perf all_reduce --cluster dgx-h100-superpod-su -b 1G -e 1G
expect "collnet on when asked" 0 "# nccl: NCCL_COLLNET_ENABLE=1" -- \
  perf all_reduce --cluster dgx-h100-superpod-su -b 1G -e 1G --env NCCL_COLLNET_ENABLE=1
expect "--env ignored variable" 0 "# note: ignored NCCL_IB_TIMEOUT=22" -- perf all_reduce -b 1M -e 1M --env NCCL_IB_TIMEOUT=22
expect "--env bad algo" 2 "'NCCL_ALGO': 'rign' is not an algorithm.*did you mean 'ring'" -- \
  perf all_reduce -b 1M -e 1M --env NCCL_ALGO=rign
expect "--env not KEY=VALUE" 2 "'--env': 'NCCL_ALGO' is not KEY=VALUE" -- perf all_reduce -b 1M -e 1M --env NCCL_ALGO
expect "--env not NCCL" 2 "'--env': 'FOO' is not an NCCL_\* variable" -- perf all_reduce -b 1M -e 1M --env FOO=1
# nccl-tests' size letters in either case: -b 1g is 1 GiB.
expect "lowercase size" 0 "1073741824 +268435456 +float" -- perf all_reduce -b 1g -e 1g
# nccl-tests' -g: one thread launching G GPUs ends each call (G-1) x 2.4 us later
# (kSingleThreadLaunchPerGpuUs); -n, -w and -c are accepted and said to change nothing.
g1=$("$bin" perf all_reduce -b 8 -e 8 --cluster dgx-h100 --nodes 1 2>&1 | awk '$1 == 8 {print $6}')
g8=$("$bin" perf all_reduce -b 8 -e 8 --cluster dgx-h100 --nodes 1 -g 8 2>&1 | awk '$1 == 8 {print $6}')
if [ -n "$g1" ] && [ -n "$g8" ] && awk -v a="$g1" -v b="$g8" 'BEGIN { d = b - a - 7 * 2.4; exit !(d < 0.01 && d > -0.01) }'; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL -g 8 adds 7 x 2.4 us: -g 1 took '$g1' us, -g 8 took '$g8' us"
fi
expect "-n -w -c accepted" 0 "# note: -n, -w and -c are taken as nccl-tests takes them" -- \
  perf all_reduce -b 1M -e 1M -n 50 -w 5 -c 0
expect "-g out of range" 2 "'-g': GPUs per thread must be from 1 to 64" -- perf all_reduce -b 1M -e 1M -g 0
