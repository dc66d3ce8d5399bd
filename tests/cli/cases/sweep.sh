# Parameter sweeps (docs/sweeps.md): perf --set, --zip, -j, gpufabric sweep SPEC.yaml, mpirun.
# Sourced by run_cli_tests.sh: uses expect, write, $bin, $tmp and the pass/fail counters.
grid=(perf all_reduce --cluster dgx-h100 --set servers=1,2 --set fabric.oversubscription=1,2 -b 1M -e 4M -f 4)
# 2 x 2 points x 2 sizes (1M, 4M) = 8 rows, servers slowest; nranks = servers x 8 GPUs (DGX H100).
nl='[[:space:]]+'
expect "sweep grid rows" 0 "4 points.*# servers  fabric.oversubscription  nranks +size .*${nl}1  +1  +8  +1048576 [^#]*${nl}1  +1  +8  +4194304 [^#]*${nl}1  +2  +8  +1048576 [^#]*${nl}1  +2  +8  +4194304 [^#]*${nl}2  +1  +16  +1048576 [^#]*${nl}2  +1  +16  +4194304 [^#]*${nl}2  +2  +16  +1048576 [^#]*${nl}2  +2  +16  +4194304 [^#]*$" -- "${grid[@]}"

# Same bytes however it ran.
same() {  # same NAME FILE_A FILE_B
  if cmp -s "$2" "$3" && [ -s "$2" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL $1: outputs differ or are empty"; diff "$2" "$3" | head -10; fi
}
for f in text csv json; do
  "$bin" "${grid[@]}" --format $f -j 1 >"$tmp/sweep_j1.$f" 2>&1
  "$bin" "${grid[@]}" --format $f -j 3 >"$tmp/sweep_j3.$f" 2>&1
  same "sweep -j 3 = -j 1 ($f)" "$tmp/sweep_j1.$f" "$tmp/sweep_j3.$f"
done
expect "sweep csv header" 0 "^servers,fabric.oversubscription,nranks,size,count,time_us,algbw_GBps,busbw_GBps,algorithm,protocol,channels${nl}1,1,8,1048576," -- "${grid[@]}" --format csv
expect "sweep json rows" 0 '"rows": \[[[:space:]]*\{[[:space:]]*"servers": 1,[[:space:]]*"fabric.oversubscription": 1,[[:space:]]*"nranks": 8,' -- "${grid[@]}" --format json

# Keys are checked as the cluster reader checks them, at --set, with did-you-mean.
expect "sweep key typo" 2 "--set: 'fabric.oversubscriptoin': unknown key.*did you mean 'oversubscription'" -- perf all_reduce --cluster dgx-h100 --set fabric.oversubscriptoin=1,2
expect "sweep bad value" 2 "--set: 'servers': .*servers=0" -- perf all_reduce --cluster dgx-h100 --set servers=2,0
expect "sweep run key typo" 2 "'modle': neither a cluster key nor a run key.*did you mean 'model'" -- perf all_reduce --set modle=flow
expect "sweep bad algo" 2 "'algo': unknown algorithm 'rign'.*did you mean 'ring'" -- perf all_reduce --set algo=ring,rign
expect "sweep zip unequal" 2 "'algo': zipped lists must be of equal length" -- perf all_reduce --zip --set servers=1,2 --set algo=ring
expect "sweep zip rows" 0 "2 points.*servers  algo .*${nl}1  ring  +8 [^#]* ring [^#]*${nl}2  tree  +16 [^#]* tree [^#]*$" -- perf all_reduce --cluster dgx-h100 --zip --set servers=1,2 --set algo=ring,tree -b 1M -e 1M
expect "sweep -j without --set" 2 "'-j': shapes a sweep over --set keys" -- perf all_reduce -j 2
expect "sweep nodes and servers" 2 "'servers': --nodes also sets the server count" -- perf all_reduce --nodes 2 --set servers=1,2
expect "sweep NCCL key" 0 "NCCL_ALGO  nranks.*${nl}ring  +16 [^#]* ring [^#]*${nl}tree  +16 [^#]* tree [^#]*$" -- perf all_reduce --cluster dgx-h100 --nodes 2 --set NCCL_ALGO=ring,tree -b 1M -e 1M

# A sweep file: the same rows as the same --set on the command line, byte for byte.
write sweep_spec.yaml <<'Y'
cluster: dgx-h100
perf: all_reduce -b 1M -e 4M -f 4
grid:
  servers: [1, 2]
  fabric.oversubscription: [1, 2]
Y
"$bin" sweep "$tmp/sweep_spec.yaml" --format csv >"$tmp/sweep_file.csv" 2>&1
same "sweep file = perf --set" "$tmp/sweep_j1.csv" "$tmp/sweep_file.csv"
write sweep_bad.yaml <<'Y'
cluster: dgx-h100
perf: all_reduce
grid:
  servers: [1, 2]
  fabric.oversubscripton: [1, 2]
Y
expect "sweep file key line" 2 "sweep_bad.yaml:5: 'fabric.oversubscripton': unknown key.*did you mean 'oversubscription'" -- sweep "$tmp/sweep_bad.yaml"
write sweep_typo.yaml <<'Y'
perf: all_reduce
gird: {servers: [1]}
Y
expect "sweep file unknown block" 2 "sweep_typo.yaml:2:[0-9]+: 'gird': unknown key.*did you mean 'grid'" -- sweep "$tmp/sweep_typo.yaml"
write sweep_words.yaml <<'Y'
perf: all_reduce --nodez 2
grid: {servers: [1]}
Y
expect "sweep file perf words" 2 "sweep_words.yaml:1:[0-9]+: 'perf': .*--nodez" -- sweep "$tmp/sweep_words.yaml"

# MPI: two ranks write the same bytes as one process with one thread.
if [ "${GPUFABRIC_HAVE_MPI:-OFF}" = ON ] && command -v mpirun >/dev/null 2>&1; then
  mpi=(mpirun -n 2 --oversubscribe)
  [ "$(id -u)" -eq 0 ] && mpi+=(--allow-run-as-root)
  for f in text csv; do
    "${mpi[@]}" "$bin" "${grid[@]}" --format $f >"$tmp/sweep_mpi.$f" 2>"$tmp/sweep_mpi.err"
    same "sweep mpirun -n 2 = -j 1 ($f)" "$tmp/sweep_j1.$f" "$tmp/sweep_mpi.$f"
  done
  "${mpi[@]}" "$bin" sweep "$tmp/sweep_spec.yaml" --format csv -j 2 >"$tmp/sweep_mpi_file.csv" 2>"$tmp/sweep_mpi.err"
  same "sweep file mpirun -n 2 -j 2 = -j 1" "$tmp/sweep_j1.csv" "$tmp/sweep_mpi_file.csv"
else
  echo "skip: mpirun sweep cases (gpufabric built without MPI, or no mpirun; scripts/setup.sh installs Open MPI)"
fi
