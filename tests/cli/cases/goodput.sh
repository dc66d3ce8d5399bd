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
# --model: the step time from train's engine, the same call `train` makes for the same flags; the
# tokens per day in closed form: tokens per step / step time x 86,400 s x effective training time.
if command -v python3 >/dev/null; then
  train_flags=(--cluster dgx-a100 --nodes 2 --model llama3-8b --tp 8 --dp 2 --global-batch 64 --model-fidelity analytical)
  "$bin" train "${train_flags[@]}" --format json >"$tmp/train.json" 2>&1
  "$bin" goodput "${train_flags[@]}" --days 10 --runs 20 --format json >"$tmp/goodput.json" 2>&1
  if python3 - "$tmp/train.json" "$tmp/goodput.json" <<'PY'
import json, sys
t, g = (json.load(open(p)) for p in sys.argv[1:3])
ok = g["step_time_s"] == t["step_time_s"] and g["tokens_per_step"] == 64 * 8192
want = g["tokens_per_step"] / g["step_time_s"] * 86400 * g["effective_training_time"]["mean"]
ok = ok and abs(g["tokens_per_day"] - want) <= 1e-9 * want
# The checkpoint: no storage path on dgx-a100, so the default write time stands.
ok = ok and g["checkpoint_write_s"] == 60 and "checkpoint" not in g
sys.exit(0 if ok else 1)
PY
  then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL goodput --model step time equals train's"; head -5 "$tmp/train.json" "$tmp/goodput.json"
  fi
fi
# Checkpoint from the model: llama3-8b's parameters x 14 B over --storage-bw.
expect "goodput checkpoint from model" 0 "# checkpoint [0-9.]+ (GB|TB) \([0-9.]+B parameters x 14 B\) over 10.0 GB/s \(--storage-bw\): [0-9.]+ s to write" -- \
  goodput --cluster dgx-a100 --nodes 2 --model llama3-8b --tp 8 --dp 2 --model-fidelity analytical --storage-bw 10GB/s \
  --days 10 --runs 20
# 5.7T bytes over 2 TB/s: 2.85 s.
expect "goodput checkpoint size" 0 '"checkpoint_write_s": 2.85[0-9]*,.*"limit": "--storage-bw"' -- \
  goodput --cluster dgx-h100 --nodes 64 --days 10 --runs 20 --checkpoint-size 5.7T --storage-bw 2TB/s --format json
expect "goodput size no path" 2 "'--checkpoint-size'.*no storage NICs.*--storage-bw 2TB/s" -- \
  goodput --cluster dgx-h100 --nodes 64 --days 10 --checkpoint-size 5.7T
expect "goodput write and size" 2 "'--checkpoint-write'.*not both" -- \
  goodput --cluster dgx-h100 --nodes 64 --days 10 --checkpoint-size 5.7T --storage-bw 2TB/s --checkpoint-write 10s
expect "goodput bw no size" 2 "'--storage-bw'.*no checkpoint size" -- goodput --cluster dgx-h100 --nodes 64 --days 10 --storage-bw 2TB/s
expect "goodput step and model" 2 "'--step-time'.*not both" -- \
  goodput --cluster dgx-a100 --nodes 2 --days 10 --step-time 5s --model llama3-8b --tp 8 --dp 2
# The blast radius: a plain leaf-spine's leaves cut their servers off; rail-optimized ones do not.
expect "goodput leaf-spine fabric" 0 "# fabric: 16 leaves \(16 of them cut servers off when down\), [0-9]+ spine links" -- \
  goodput --cluster dgx-h100 --nodes 64 --fabric leaf_spine --days 10 --runs 20
expect "goodput rail fabric" 0 "# fabric: [0-9]+ leaves \(0 of them cut servers off when down\)" -- \
  goodput --cluster dgx-h100 --nodes 64 --days 10 --runs 20
write spine_rates.yaml <<'YAML'
causes:
  - {name: GPU, unit: gpu, per_1000_unit_days: 0.5, blast: server}
  - {name: spine link, unit: spine_link, per_1000_unit_days: 5, blast: slow}
YAML
expect "goodput spine slows" 0 "spine link \(slows only\) +\([0-9.]+\) +-" -- \
  goodput --cluster dgx-h100 --nodes 64 --fabric leaf_spine --days 30 --runs 20 --rates "$tmp/spine_rates.yaml"
write bad_blast.yaml <<'YAML'
causes:
  - {name: leaf, unit: leaf, per_unit_day: 0.001, blast: leef}
YAML
expect "goodput bad blast" 2 "bad_blast.yaml:2.*causes\[0\].blast.*unknown blast radius 'leef'.*leaf" -- \
  goodput --cluster dgx-h100 --nodes 8 --days 5 --rates "$tmp/bad_blast.yaml"
