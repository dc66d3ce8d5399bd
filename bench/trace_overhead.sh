#!/usr/bin/env bash
# bench/trace_overhead.sh BIN [N]: --trace overhead on the main sweep and a 1,024-rank run
# (docs/performance.md): N (default 5) interleaved runs each, median user+sys and peak RSS.
# Interleaved medians of user+sys for a command with and without --trace.
bin=$1; n=${2:-5}; shift 2
tmp=$(mktemp -d)
measure() { /usr/bin/time -f "%U %S %M" -o $tmp/t "$@" >/dev/null 2>/dev/null; awk '{printf "%.2f %d\n", $1+$2, $3/1024}' $tmp/t; }
for label in main big; do
  if [ $label = main ]; then args="perf all_reduce -b 8 -e 8G -f 2"; else args="perf all_reduce --cluster dgx-h100 --nodes 128 -b 1G -e 1G"; fi
  : > $tmp/$label.off; : > $tmp/$label.on
  for i in $(seq $n); do
    measure $bin $args >> $tmp/$label.off
    rm -f $tmp/tr.json; measure $bin $args --trace $tmp/tr.json >> $tmp/$label.on
  done
  size=$(stat -c %s $tmp/tr.json)
  med() { sort -n $1 | awk '{a[NR]=$1; m[NR]=$2} END {i=int((NR+1)/2); printf "%s s %s MiB", a[i], m[i]}'; }
  echo "$label: off $(med $tmp/$label.off) | on $(med $tmp/$label.on) | trace $size bytes | off all: $(cut -d' ' -f1 $tmp/$label.off | tr '\n' ' ') on all: $(cut -d' ' -f1 $tmp/$label.on | tr '\n' ' ')"
done
rm -rf $tmp
