# gpufabric bom (sourced by run_cli_tests.sh: expect/write helpers, $tmp). docs/bom.md.
# One SU: 8 leaves + 4 spines (NVIDIA DGX SuperPOD reference architecture), 32 DGX H100.
expect "bom superpod su" 0 "32 servers, 256 GPUs in 8 racks, 1 row.*switch/quantum2-qm9700 +leaf switch \(64 ports\) +8 .*switch/quantum2-qm9700 +spine switch \(64 ports\) +4 .*per GPU +\\$" -- \
  bom dgx-h100-superpod-su
expect "bom csv" 0 "^group,item,what,reach,quantity,unit,.*total,,,,,,," -- bom dgx-h100-superpod --format csv
expect "bom json" 0 '"total": \{[^}]*"usd": [0-9.e+]+,[^}]*"usd_per_gpu"' -- bom dgx-h100-superpod --format json
expect "bom nvl72" 0 "nvlink-switch-tray/nvlink5 .* 144 .*nvlink-spine/nvlink5" -- bom gb200-nvl72-cluster
write bom_prices.yaml <<'Y'
items:
  switch/quantum2-qm9700: {unit: each, usd: 1, typical_w: 1, max_w: 1, source: "estimate: test", date: 2026-11}
geometry:
  servers_per_rack: 2
Y
expect "bom user prices" 0 "built-in \(presets/prices/prices.yaml\) \+ .*bom_prices.yaml.*in 16 racks, 2 rows|16 racks, 2 rows.*bom_prices.yaml" -- \
  bom dgx-h100-superpod-su --prices "$tmp/bom_prices.yaml"
write bom_unknown.yaml <<'Y'
items:
  switch/quantum2-qm9700: {unit: each, usd: 1, typical_w: 1, max_w: 1, source: estimate, date: 2026-11}
  switch/qm9701: {unit: each, usd: 1, typical_w: 1, max_w: 1, source: estimate, date: 2026-11}
Y
expect "bom unknown item" 2 "bom_unknown.yaml:3:[0-9]+: 'items.switch/qm9701': unknown item.*hint: .*quantum2-qm9700" -- \
  bom dgx-h100-superpod --prices "$tmp/bom_unknown.yaml"
write bom_negative.yaml <<'Y'
items:
  nic/ib-ndr: {unit: each, usd: -1, typical_w: 1, max_w: 1, source: estimate, date: 2026-11}
Y
expect "bom negative price" 2 "bom_negative.yaml:2:[0-9]+: 'items.nic/ib-ndr.usd': must not be negative" -- \
  bom dgx-h100-superpod --prices "$tmp/bom_negative.yaml"
write bom_nounit.yaml <<'Y'
items:
  nic/ib-ndr:
    usd: 1
    typical_w: 1
    max_w: 1
    source: estimate
    date: 2026-11
Y
expect "bom missing unit" 2 "bom_nounit.yaml:3:[0-9]+: 'items.nic/ib-ndr.unit': missing" -- \
  bom dgx-h100-superpod --prices "$tmp/bom_nounit.yaml"
expect "bom missing file" 2 "cannot read the price file" -- bom dgx-h100-superpod --prices "$tmp/none.yaml"
expect "bom bad format" 2 "--format" -- bom dgx-h100-superpod --format xml

# gpufabric compare: two designs side by side; the busbw column through perf's sweep.
bom_examples=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../examples" && pwd)
expect "compare ib roce" 0 "figure +dgx-h100-superpod +dgx-h100-superpod-roce.*switches +48 +24\b.*all_reduce 1G busbw .*busbw per \\\$M" -- \
  compare dgx-h100-superpod "$bom_examples/dgx-h100-superpod-roce.yaml" --model analytical
expect "compare no collective" 0 "cost per GPU" -- compare dgx-h100-2node dgx-h100-superpod-su --collective none
expect "compare json" 0 '^\[.*"name": "dgx-h100-2node".*"busbw_gBps_per_musd"' -- \
  compare dgx-h100-2node dgx-h100-superpod-su --model analytical --format json
expect "compare one design" 2 "compare needs two designs or more" -- compare dgx-h100-2node
expect "compare bad collective" 2 "'--collective': unknown collective 'all_redcue'" -- compare dgx-h100-2node dgx-h100-superpod-su --collective all_redcue

# gpufabric design: a small grid; the front and the refused.
expect "design su" 0 "design +256 GPUs of dgx-h100.*flow busbw.*\\* +(rail_optimized|fat_tree) .*Pareto front.*the best 3 again on the flow model" -- \
  design --gpus 256 --links ib-ndr,roce-400g
expect "design refused" 0 "not buildable +leaf_spine ib-ndr 1:1: .*64" -- design --gpus 4096 --fabric-kinds leaf_spine --collective all_reduce
expect "design json" 0 '"designs": \[.*"pareto": true' -- design --gpus 256 --format json
expect "design bad objective" 2 "'--objective': unknown objective 'fastest'" -- design --gpus 256 --objective fastest
expect "design bad budget" 2 "'--budget': expected an amount of dollars" -- design --gpus 256 --budget lots
expect "design bad kind" 2 "did you mean 'fat_tree'" -- design --gpus 256 --fabric-kinds fat_tre
