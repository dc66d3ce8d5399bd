# The scenario file's packet: block (docs/scenarios.md): read only under model: packet, checked key by key.

write sc_packet_flow.yaml <<'Y'
cluster: dgx-h100-2node
model: flow
packet:
  mtu: 4096
jobs:
  - {name: a, servers: 0-1, calls: [{collective: all_reduce, size: 1M}]}
Y
expect "packet block under flow model" 2 "sc_packet_flow.yaml:4:[0-9]+: 'packet': the packet: block is read only by the packet model.*model: packet" -- run "$tmp/sc_packet_flow.yaml"

write sc_packet_typo.yaml <<'Y'
cluster: dgx-h100-2node
model: packet
packet:
  mtu: 4096
  pfc: {xoff: 100KiB, xonn: 50KiB}
jobs:
  - {name: a, servers: 0-1, calls: [{collective: all_reduce, size: 1M}]}
Y
expect "packet block unknown key" 2 "sc_packet_typo.yaml:5:[0-9]+: 'packet.pfc.xonn': unknown key.*did you mean 'xon'" -- run "$tmp/sc_packet_typo.yaml"

write sc_packet_xon.yaml <<'Y'
cluster: dgx-h100-2node
model: packet
packet:
  pfc: {xoff: 100KiB, xon: 200KiB}
jobs:
  - {name: a, servers: 0-1, calls: [{collective: all_reduce, size: 1M}]}
Y
expect "packet block xon above xoff" 2 "sc_packet_xon.yaml:4:[0-9]+: 'packet.pfc.xon'" -- run "$tmp/sc_packet_xon.yaml"
