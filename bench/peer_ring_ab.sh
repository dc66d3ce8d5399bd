#!/usr/bin/env bash
# bench/peer_ring_ab.sh OLD_BIN NEW_BIN N RING REPS: two peer_ring_bench binaries run by run (old,
# new, old, new, ...) so both see the same load (docs/performance.md, issue 26). One line per run:
#   label N ring cpu_s(user+sys) peak_KiB sim_time,transfers,completions,flow_events,peak_flows load1
# The CSV fields after the CPU time must match between the two: they are the simulated results.
old=$1; new=$2; n=$3; ring=$4; reps=$5; tmp=$(mktemp -d)
for i in $(seq "$reps"); do
  for label in old new; do
    bin=$old; [ $label = new ] && bin=$new
    row=$(/usr/bin/time -f "%U %S %M" -o "$tmp/t" "$bin" --n "$n" --ring "$ring" --csv)
    echo "$label $n $ring $(awk '{printf "%.2f %d", $1+$2, $3}' "$tmp/t") $(echo "$row" | cut -d, -f5,9-12) $(cut -d' ' -f1 /proc/loadavg)"
  done
done
rm -rf "$tmp"
