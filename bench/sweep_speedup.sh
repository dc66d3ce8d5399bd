#!/usr/bin/env bash
# The speedup of a 64-point sweep on -j 2 threads and on mpirun -n 2 ranks against -j 1
# (docs/performance.md, "Parameter sweeps"): 4 server counts x 2 oversubscriptions x 2 algorithms
# x 4 seeds, 11 sizes each (1M .. 1G), flow model. Prints wall and CPU time of each run, the load
# average before it (the machine is shared; say it beside the numbers), and checks that the three
# outputs are the same bytes.
#   bench/sweep_speedup.sh [BIN]      (default build/cli/gpufabric)
set -uo pipefail
bin=${1:-build/cli/gpufabric}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grid=(perf all_reduce --cluster dgx-h100 --set servers=2,4,8,16 --set fabric.oversubscription=1,2 --set algo=ring,tree
      --set seed=0,1,2,3 -b 1M -e 1G -f 2 --format csv)
mpi=(mpirun -n 2 --oversubscribe)
[ "$(id -u)" -eq 0 ] && mpi+=(--allow-run-as-root)
run() {  # run NAME COMMAND...
  local name=$1
  shift
  echo "load average before $name: $(cut -d' ' -f1-3 /proc/loadavg)"
  /usr/bin/time -f "$name: wall %e s, user %U s, sys %S s" "$@" >"$tmp/$name.csv"
}
run j1 "$bin" "${grid[@]}" -j 1
run j2 "$bin" "${grid[@]}" -j 2
if command -v mpirun >/dev/null; then run mpi2 "${mpi[@]}" "$bin" "${grid[@]}" -j 1; fi
for other in j2 mpi2; do
  [ -e "$tmp/$other.csv" ] || continue
  if cmp -s "$tmp/j1.csv" "$tmp/$other.csv"; then echo "$other: same bytes as j1 ($(wc -l <"$tmp/j1.csv") lines)"
  else echo "$other: DIFFERENT from j1"; exit 1; fi
done
