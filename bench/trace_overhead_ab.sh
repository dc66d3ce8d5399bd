#!/usr/bin/env bash
# bench/trace_overhead_ab.sh OLD_BIN NEW_BIN N: --trace overhead of two binaries in one loop (old off,
# old on, new off, new on) x N, medians of user+sys and peak RSS, so both are measured under the
# same load. Workloads (docs/performance.md): main (the main sweep), big (1,024 ranks), run (a
# scenario of two jobs, examples/two-jobs-oversubscribed.yaml); WORKLOADS="main run" picks some.
old=$1; new=$2; n=$3; tmp=$(mktemp -d)
here=$(cd "$(dirname "$0")" && pwd)
measure() { /usr/bin/time -f "%U %S %M" -o $tmp/t "$@" >/dev/null 2>/dev/null; awk '{printf "%.2f %d\n", $1+$2, $3/1024}' $tmp/t; }
for label in ${WORKLOADS:-main big run}; do
  case $label in
    main) args="perf all_reduce -b 8 -e 8G -f 2" ;;
    big) args="perf all_reduce --cluster dgx-h100 --nodes 128 -b 1G -e 1G" ;;
    run) args="run $here/../examples/two-jobs-oversubscribed.yaml" ;;
  esac
  for b in old new; do : > $tmp/$label.$b.off; : > $tmp/$label.$b.on; : > $tmp/$label.$b.ratio; done
  for i in $(seq $n); do
    for b in old new; do
      bin=$old; [ $b = new ] && bin=$new
      off=$(measure $bin $args); echo "$off" >> $tmp/$label.$b.off
      rm -f $tmp/tr.json; on=$(measure $bin $args --trace $tmp/tr.json); echo "$on" >> $tmp/$label.$b.on
      awk -v a="${on%% *}" -v b="${off%% *}" 'BEGIN {printf "%.3f\n", a / b}' >> $tmp/$label.$b.ratio
      cp $tmp/tr.json $tmp/$label.$b.json
    done
  done
  med() { sort -n $1 | awk '{a[NR]=$1; m[NR]=$2} END {i=int((NR+1)/2); printf "%s s %s MiB", a[i], m[i]}'; }
  for b in old new; do
    echo "$label $b: off $(med $tmp/$label.$b.off) | on $(med $tmp/$label.$b.on) | per-pair ratio median $(sort -n $tmp/$label.$b.ratio | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}') | trace $(stat -c %s $tmp/$label.$b.json) bytes | off all: $(cut -d' ' -f1 $tmp/$label.$b.off | tr '\n' ' ') on all: $(cut -d' ' -f1 $tmp/$label.$b.on | tr '\n' ' ')"
  done
  cmp -s $tmp/$label.old.json $tmp/$label.new.json && echo "$label: trace files identical" || echo "$label: trace files DIFFER"
done
rm -rf $tmp
