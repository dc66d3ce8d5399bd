#!/usr/bin/env bash
# Published runs with failure counts (published-runs.md beside this file) against `gpufabric
# goodput` with its default rates, a fit to Llama 3 405B: every row here is held out.
# Usage: validation/reliability/goodput_rows.sh [GPUFABRIC] (default build/cli/gpufabric)
set -euo pipefail
bin=${1:-build/cli/gpufabric}
printf '%-58s %10s %10s %9s\n' row predicted measured error
# row NAME MEASURED KIND -- goodput arguments: KIND picks what is read off goodput's JSON:
#   rate  interruptions per 1000 server-days      mtbi_h  hours between interruptions
#   mtbi_d  days between interruptions            ett  effective training time (measured is a lower bound)
#   hw    interruptions other than software bug, NCCL watchdog timeout and dependency (measured: a lower bound)
#   lost_per_day  interruptions that send one server to repair, per day
row() {
  local name=$1 meas=$2 kind=$3
  shift 4
  "$bin" goodput "$@" --format json | python3 -c '
import json, sys
name, meas, kind = sys.argv[1], float(sys.argv[2]), sys.argv[3]
d = json.load(sys.stdin)
n, days = d["servers"], d["days"]
soft = {"software bug", "NCCL watchdog timeout", "dependency"}
if kind == "rate": p = d["interruptions"]["mean"] / (n * days) * 1000
elif kind == "mtbi_h": p = d["mtbi_hours"]
elif kind == "mtbi_d": p = d["mtbi_hours"] / 24
elif kind == "ett": p = d["effective_training_time"]["mean"]
elif kind == "hw": p = sum(c["interruptions"] for c in d["causes"] if c["cause"] not in soft)
elif kind == "lost_per_day":
    p = sum(c["interruptions"] for c in d["causes"] if c["blast"] == "server") / days
bound = kind in ("ett", "hw")
err = "%+8.1f%%" % (100 * (p - meas) / meas)
if bound: err += " (%s)" % ("met" if p > meas else "missed")
print("%-58s %10.4g %10s %s" % (name, p, (">" if bound else "") + "%g" % meas, err))
' "$name" "$meas" "$kind"
}
a100=(--cluster dgx-a100 --runs 200 --seed 1)
row "RSC-1 failures per 1000 node-days (r_f)" 6.50 rate -- "${a100[@]}" --nodes 128 --spares 1872 --days 365
row "RSC-2 failures per 1000 node-days (r_f)" 2.34 rate -- "${a100[@]}" --nodes 128 --spares 872 --days 365
row "RSC-1 MTTF of 1,024-GPU jobs, hours" 7.9 mtbi_h -- "${a100[@]}" --nodes 128 --spares 1872 --days 365
row "RSC-1 MTTF of 8-GPU jobs, days" 47.7 mtbi_d -- "${a100[@]}" --nodes 1 --spares 1999 --days 3650
row "RSC-1 ETTR, 4,096-GPU job, 1 h interval, 10 min restart" 0.9 ett -- "${a100[@]}" --nodes 512 --spares 1488 \
  --days 30 --checkpoint-interval 1h --restart 10m
row "OPT-175B hardware interruptions, 124 servers, 60 days" 105 hw -- "${a100[@]}" --nodes 124 --spares 12 --days 60
row "OPT-175B servers lost per day" 2 lost_per_day -- "${a100[@]}" --nodes 124 --spares 12 --days 60
