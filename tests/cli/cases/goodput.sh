# gpufabric goodput (docs/failures.md): the Llama 3 job's report, JSON, and bad input (exit 2).
expect "goodput llama3" 0 "faulty GPU.*interruptions per run +4[0-9][0-9]\..*effective training time.*Young.*Daly" -- \
  goodput --cluster meta-llama3-roce --nodes 2048 --days 54 --runs 50 --checkpoint-write 10s --restart 5m
expect "goodput json" 0 '"effective_training_time": \{' -- goodput --cluster dgx-h100 --nodes 64 --days 10 --runs 20 --format json
expect "goodput no days" 2 "'--days'" -- goodput --cluster dgx-h100 --nodes 64
expect "goodput bad duration" 2 "'--restart'.*not a duration" -- goodput --cluster dgx-h100 --nodes 64 --days 5 --restart 5y
write rates.yaml <<'YAML'
causes:
  - {name: GPU, unit: gpu, per_unit_day: -0.1}
YAML
expect "goodput negative rate" 2 "rates.yaml:2.*causes\[0\].per_unit_day" -- goodput --cluster dgx-h100 --nodes 8 --days 5 --rates "$tmp/rates.yaml"
