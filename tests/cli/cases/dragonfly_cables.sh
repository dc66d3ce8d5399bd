# A dragonfly's parallel global cables are distinct cables, as leaf-spine's are (topology/bundle.hpp,
# docs/models.md "Parallel cables"). 8 DGX H100 on 2 groups of 4 routers with 4 global ports each:
# group 0's 16 global ports all go to group 1, port m of router m / 4 to router m / 4 there, so
# each router pair (r, r) has 4 cables of one NDR port, 50 GB/s (Kim et al.'s wiring as
# src/topology/fabrics/dragonfly.cpp numbers it). Sourced by run_cli_tests.sh.
write df8.yaml <<'YAML'
servers: 8
server: dgx-h100
fabric: {kind: dragonfly, groups: 2, routers_per_group: 4, global_links_per_router: 4}
YAML
expect "dragonfly global hop is one cable of 4" 0 "group0/router[0-3] +group1/router[0-3] +ib-ndr +1 +[1-4]/4 +50 GB/s" -- \
  topo "$tmp/df8.yaml" --path gpu0 gpu63
expect "dragonfly global cable in JSON" 0 "\"cable\": [1-4],[[:space:]]*\"cables\": 4,[[:space:]]*\"from\": \"group0/router" -- \
  topo "$tmp/df8.yaml" --path gpu0 gpu63 --format json
