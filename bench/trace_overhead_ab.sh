#!/usr/bin/env bash
# bench/trace_overhead_ab.sh OLD_BIN NEW_BIN N: --trace overhead of two binaries in one loop (old off,
# old on, new off, new on) x N on the main sweep and a 1,024-rank run (docs/performance.md), medians
# of user+sys and peak RSS, so both are measured under the same load.
old=$1; new=$2; n=$3; tmp=$(mktemp -d)
measure() { /usr/bin/time -f "%U %S %M" -o $tmp/t "$@" >/dev/null 2>/dev/null; awk '{printf "%.2f %d\n", $1+$2, $3/1024}' $tmp/t; }
for label in main big; do
  if [ $label = main ]; then args="perf all_reduce -b 8 -e 8G -f 2"; else args="perf all_reduce --cluster dgx-h100 --nodes 128 -b 1G -e 1G"; fi
  for b in old new; do : > $tmp/$label.$b.off; : > $tmp/$label.$b.on; done
  for i in $(seq $n); do
    for b in old new; do
      bin=$old; [ $b = new ] && bin=$new
      measure $bin $args >> $tmp/$label.$b.off
      rm -f $tmp/tr.json; measure $bin $args --trace $tmp/tr.json >> $tmp/$label.$b.on
      cp $tmp/tr.json $tmp/$label.$b.json
    done
  done
  med() { sort -n $1 | awk '{a[NR]=$1; m[NR]=$2} END {i=int((NR+1)/2); printf "%s s %s MiB", a[i], m[i]}'; }
  for b in old new; do
    echo "$label $b: off $(med $tmp/$label.$b.off) | on $(med $tmp/$label.$b.on) | trace $(stat -c %s $tmp/$label.$b.json) bytes | off all: $(cut -d' ' -f1 $tmp/$label.$b.off | tr '\n' ' ') on all: $(cut -d' ' -f1 $tmp/$label.$b.on | tr '\n' ' ')"
  done
done
rm -rf $tmp
