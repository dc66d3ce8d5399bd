# A lossless fabric whose routes form a cycle of buffer dependencies: a 4 x 4 torus of one-GPU
# hosts (one NIC per direction, shortest-path routes, no virtual lanes) under an all-to-all. Every
# ring of the torus carries packets that wait on the next hop round it, so with PFC (RoCE) or
# credits (InfiniBand) the run stops: `run` exits 2 and names the paused ports of the cycle
# instead of hanging or reporting an unfinished transfer. With flow_control: none no port ever
# holds a packet back, so no cycle of waits can form: the same all-to-all finishes (TCP resends
# whatever the buffers drop).
write torus_hosts.yaml <<'Y'
name: torus-hosts
servers: 16
link_technologies:
  - {name: host-join, family: pcie, bandwidth: 10000000GB/s, latency: 0ns, rdma: true, description: join, source: test}
server:
  name: torus-host
  description: one GPU, four 100G RoCE NICs (one per torus direction)
  source: test
  default_fabric: torus
  gpu: {model: g, arch: hopper, memory_bw: 3350GB/s, bf16_tflops: 989}
  nodes:
    - {name: gpu0, kind: gpu, numa: 0}
    - {name: nic0, kind: nic, numa: 0, rail: 0, tech: roce-100g}
    - {name: nic1, kind: nic, numa: 0, rail: 1, tech: roce-100g}
    - {name: nic2, kind: nic, numa: 0, rail: 2, tech: roce-100g}
    - {name: nic3, kind: nic, numa: 0, rail: 3, tech: roce-100g}
  links:
    - {a: gpu0, b: nic0, tech: host-join}
    - {a: gpu0, b: nic1, tech: host-join}
    - {a: gpu0, b: nic2, tech: host-join}
    - {a: gpu0, b: nic3, tech: host-join}
fabric:
  kind: torus
  link: roce-100g
  torus_dims: [4, 4]
Y
write torus_pfc.yaml <<'Y'
cluster: torus_hosts.yaml
model: packet
jobs:
  - {name: a, servers: 0-15, calls: [{collective: alltoall, size: 64M}]}
Y
expect "packet PFC deadlock on a torus names its ports" 2 "torus_pfc.yaml:4:[0-9]+: 'jobs': 'packet.flow_control': deadlock: a cycle of [0-9]+ ports each waits on the next to send \(([^)]*\[paused\]){2,}.*hint: .*cycle of buffer dependencies" -- run "$tmp/torus_pfc.yaml"

write torus_lossy.yaml <<'Y'
cluster: torus_hosts.yaml
model: packet
packet: {flow_control: none, congestion_control: tcp}
jobs:
  - {name: a, servers: 0-15, calls: [{collective: alltoall, size: 4M}]}
Y
expect "packet lossy torus finishes" 0 "a +0 +alltoall .*drops +[0-9,]+[[:space:]]+retransmissions" -- run "$tmp/torus_lossy.yaml"
