#!/usr/bin/env bash
# bench/decode_step_ab.sh OLD_BIN NEW_BIN N: the 671B MoE decode step (issue 24's "under 1 s" target,
# docs/performance.md) with two binaries in one loop (old, new) x N, so both run under the same
# load; prints the median user+sys CPU seconds and peak RSS of each, every run's CPU, and whether
# the two binaries' JSON outputs are byte-identical.
old=$1; new=$2; n=${3:-5}; tmp=$(mktemp -d)
args="infer --cluster dgx-h100 --nodes 40 --model deepseek-v3 --ep 320 --batch 128 --prompt 1 --output 256 --dtype fp8 --ep-kernel low-latency --format json"
measure() { /usr/bin/time -f "%U %S %M" -o $tmp/t "$@" >$tmp/out.json 2>/dev/null; awk '{printf "%.2f %d\n", $1+$2, $3/1024}' $tmp/t; }
for b in old new; do : > $tmp/$b; done
for i in $(seq $n); do
  for b in old new; do
    bin=$old; [ $b = new ] && bin=$new
    measure $bin $args >> $tmp/$b
    cp $tmp/out.json $tmp/$b.json
  done
done
med() { sort -n $1 | awk '{a[NR]=$1; m[NR]=$2} END {i=int((NR+1)/2); printf "%s s %s MiB", a[i], m[i]}'; }
for b in old new; do echo "$b: median $(med $tmp/$b) | all: $(cut -d' ' -f1 $tmp/$b | tr '\n' ' ')"; done
if cmp -s $tmp/old.json $tmp/new.json; then echo "outputs: byte-identical"; else echo "outputs: DIFFER"; diff $tmp/old.json $tmp/new.json | head; fi
echo "load: $(uptime)"
rm -rf $tmp
