#!/usr/bin/env bash
# One row of selene.sh / dp_rows.sh run as one DAG (`train ... --step dag`): prints the composed and
# the DAG step (or MFU), each against the measured value, the contention the DAG adds, and the
# command's CPU seconds and peak memory. Usage: dag_row.sh MEASURED TIMEOUT_S BIN train ARGS...
# [--kind step|mfu] (mfu: MEASURED is an MFU in percent; default step seconds).
set -uo pipefail
meas=$1 limit=$2 bin=$3
shift 3
args=() kind=step
while [ $# -gt 0 ]; do
  if [ "$1" = --kind ]; then kind=$2; shift 2; else args+=("$1"); shift; fi
done
out=$(timeout "$limit" /usr/bin/time -f "TIME %U %S %M" "$bin" "${args[@]}" --step dag --format json 2>&1)
rc=$?
read -r _ user sys rss < <(grep '^TIME' <<<"$out" | tail -1)
grep -v '^TIME' <<<"$out" | python3 -c '
import json, sys
meas, kind, rc, cpu, rss = float(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
try:
    d = json.load(sys.stdin)
except Exception:
    print("  dag: no result (exit %s, %s s CPU; 124 = over the time limit)" % (rc, cpu)); sys.exit(0)
g = d["dag"]
def val(step):  # the figure compared: the step, or MFU (model FLOPs over the same GPUs and peak)
    return step if kind == "step" else 100 * d["mfu"] * d["step_time_s"] / step
c, a = val(d["step_time_s"]), val(g["step_time_s"])
print("  dag: composed %.4f, DAG %.4f (%+.2f %%), measured %.2f: error %+.1f %% -> %+.1f %%; contention adds %.4f s; "
      "%d nodes; %s s CPU, %s MiB" % (c, a, 100 * g["vs_composed"], meas, 100 * (c - meas) / meas,
                                       100 * (a - meas) / meas, g["contention_s"], g["nodes"], cpu, rss))
' "$meas" "$kind" "$rc" "$(python3 -c "print(round(${user:-0}+${sys:-0},1))")" "$(( ${rss:-0} / 1024 ))"
