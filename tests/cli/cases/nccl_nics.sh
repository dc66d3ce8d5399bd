# Which NICs NCCL uses: NCCL_IB_HCA in NCCL's syntax, listed with the NICs it keeps; `nics:` over a
# built-in server; SHARP trees shared by the jobs of a scenario.
nics_examples=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../examples" && pwd)
expect "NCCL_IB_HCA listed" 0 "# nccl: NCCL_IB_HCA=\^=mlx5_1 \(7 of 8 compute NICs per server; not used: mlx5_1\)" -- \
  perf all_reduce --cluster dgx-h100 --nodes 2 -b 1M -e 1M --model analytical --env 'NCCL_IB_HCA=^=mlx5_1'
expect "NCCL_IB_HCA no NIC left" 2 "'NCCL_IB_HCA'.*leaves server 'dgx-h100' no NIC" -- \
  perf all_reduce --cluster dgx-h100 --nodes 2 -b 1M -e 1M --env NCCL_IB_HCA==mlx4_0
expect "NCCL_IB_HCA bad port" 2 "'NCCL_IB_HCA'.*port that is not a number" -- \
  perf all_reduce -b 1M -e 1M --env NCCL_IB_HCA=mlx5_0:x
write nics.yaml <<'YAML'
servers: 2
server:
  base: hgx-h100
  nics: 3
YAML
expect "nics: not a divisor" 2 "nics.yaml:4.*'server.nics'.*8 compute NICs" -- topo "$tmp/nics.yaml"
expect "sharp refused" 0 "# note: job 'b' gets no SHARP tree: .*already holds job 'a''s aggregation tree" -- \
  run "$nics_examples/sharp-two-jobs-hdr.yaml" --model analytical
expect "doctor sharp-trees on a scenario" 1 "sharp-trees.*job 'b' asks for SHARP" -- \
  doctor "$nics_examples/sharp-two-jobs-hdr.yaml" --rule sharp-trees --model analytical
# NCCL_IB_HCA per scenario job: honoured (it was refused), and a value leaving no NIC is an error at
# the job's env:.
write hca-job.yaml <<'YAML'
cluster: dgx-h100-2node
model: analytical
jobs:
  - {name: half, servers: 0-1, env: {NCCL_IB_HCA: '=mlx5_0,mlx5_2,mlx5_4,mlx5_6'}, calls: [{collective: all_reduce, size: 64M}]}
YAML
expect "NCCL_IB_HCA per job runs" 0 "half" -- run "$tmp/hca-job.yaml"
write hca-none.yaml <<'YAML'
cluster: dgx-h100-2node
model: analytical
jobs:
  - servers: 0-1
    env: {NCCL_IB_HCA: '=mlx4_0'}
    calls: [{collective: all_reduce, size: 1M}]
YAML
expect "NCCL_IB_HCA per job leaves no NIC" 2 "hca-none.yaml:5:.*'jobs\[0\].env'.*no NIC" -- run "$tmp/hca-none.yaml"
