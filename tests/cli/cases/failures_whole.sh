# A whole server and an NVSwitch chip in --fail / --degrade and scenario events (docs/failures.md,
# "Naming components"; issue 21).
expect "--fail server: communicator fails" 1 "server1 is down and ranks of the job run on it.*communicator fails.*--without-failed-servers.*server1: gpu8-gpu15" -- \
  perf all_reduce -b 1M -e 1M --fail server1
expect "--fail server: run on the rest" 0 "failure: server1: server down: its 8 GPUs and 8 NICs are gone.*runs on its 1 servers left \(8 ranks\).*timeline: server1: the job aborts at 30.1 s" -- \
  perf all_reduce -b 1M -e 1M --fail server1 --without-failed-servers
expect "--fail server beyond the cluster" 2 "'--fail'.*there is no 'server2': the cluster has 2 servers.*server0 \.\. server1" -- \
  perf all_reduce -b 1M -e 1M --fail server2
expect "--fail server typo" 2 "'--fail'.*no component named 'servr1'.*did you mean 'server1'" -- \
  perf all_reduce -b 1M -e 1M --fail servr1
expect "--degrade server refused" 2 "'--degrade'.*'server1' is a whole server: it is down \(--fail\) or up, not degraded" -- \
  perf all_reduce -b 1M -e 1M --degrade server1=0.5
expect "--without-failed-servers alone" 2 "'--without-failed-servers'.*only shapes what a --fail costs" -- \
  perf all_reduce -b 1M -e 1M --without-failed-servers
expect "--without-failed-servers without a server" 2 "'--without-failed-servers'.*none is" -- \
  perf all_reduce -b 1M -e 1M --fail leaf0 --without-failed-servers
expect "--fail nvswitch chip" 0 "failure: server0/nvswitch2: NVSwitch chip down: each of its GPUs keeps 14 of its 18 NVLinks.*timeline: server0/nvswitch2: the job aborts at 0 s" -- \
  perf all_reduce -b 1M -e 1M --fail server0/nvswitch2
expect "--fail nvswitch typo" 2 "'--fail'.*no component named 'server0/nvswich2'.*did you mean 'server0/nvswitch2'" -- \
  perf all_reduce -b 1M -e 1M --fail server0/nvswich2
expect "--fail nvl72 switch tray" 0 "failure: nvl-domain0/switch-tray3: NVSwitch switch tray down \(2 of 18 chips\): each GPU of the domain keeps 16 of its 18 NVLinks" -- \
  perf all_reduce --cluster gb200-nvl72-rack -b 1M -e 1M --no-baseline --fail nvl-domain0/switch-tray3
expect "--fail nvl72 tray beyond the rack" 2 "'--fail'.*there is no 'nvl-domain0/switch-tray9': nvl-domain0 has 9 NVSwitch switch trays" -- \
  perf all_reduce --cluster gb200-nvl72-rack -b 1M -e 1M --fail nvl-domain0/switch-tray9
write ev_server.yaml <<'Y'
cluster: dgx-h100-2node
jobs:
  - {name: a, servers: 0-1, gpus_per_server: 1, calls: [{collective: all_reduce, size: 64M}]}
events:
  - {at: 0, down: server1}
Y
# The server's GPUs are cut off: NCCL_IB_RETRY_CNT (7) ACK timeouts of 4.096 us x 2^20, 30.06 s.
expect "run events: server down aborts" 0 "down server1: 8 links down.*NCCL aborts at 30.06 s" -- run "$tmp/ev_server.yaml"
write ev_chip.yaml <<'Y'
cluster: dgx-h100-2node
jobs:
  - {name: a, servers: 0-1, calls: [{collective: all_reduce, size: 64M}]}
events:
  - {at: 1ms, down: server0/nvswitch1}
Y
expect "run events: nvswitch chip refused" 2 "ev_chip.yaml:5.*'events\\[0\\].down'.*'server0/nvswitch1' is an NVSwitch chip: events do not model" -- \
  run "$tmp/ev_chip.yaml"
# The link that held the call up: server0/nic3 at half speed costs a 64 MiB ring about its healthy
# time (hundreds of us, NIC-bound), far more than a rank 2 us late, so the link holds every iteration;
# at 8 B the link costs nothing and the late rank holds it. (An 8 B call runs on one channel, NCCL's
# small-call cut, and so on the first NIC only: the 8 B case degrades nic0, the NIC it crosses.)
expect "held up by the degraded link" 0 "held up by.* 67108864 .*link (server0/nic3 -> leaf[0-9]+|leaf[0-9]+ -> server0/nic3) 3/3" -- \
  perf all_reduce -b 64M -e 64M --algo ring --proto simple -n 3 --straggler server1/gpu3=+2us --degrade server0/nic3=0.5
expect "held up by the late rank" 0 "held up by.* 8 .*gpu11 \(rank 11\) 3/3  \|  gpu11 \(rank 11\) 3/3" -- \
  perf all_reduce -b 8 -e 8 --algo ring --proto simple -n 3 --straggler server1/gpu3=+20us --degrade server0/nic0=0.5
