# gpufabric replay (Chakra .et directories and Kineto JSON) and train --emit-chakra (sourced by
# run_cli_tests.sh: expect/write helpers, $tmp, $bin).
replay_examples="$(dirname "${BASH_SOURCE[0]}")/../../../examples/traces"

# The synthetic Kineto pair (examples/traces/kineto-2rank, hand-written): per rank a GEMM (100 us on
# rank 0, 110 us on rank 1), an 8 MiB all-reduce, a second GEMM (50 us) that ran beside it and an
# optimizer kernel (20 us) that started after it ended. Replayed: the all-reduce starts at 110 us
# and two H100s over NVLink move 8 MiB in well under 50 us (ring: S per rank at ~450 GB/s, ~19 us),
# so rank 1's second GEMM (110 + 50 = 160 us) gates the optimizer: 160 + 20 = 180 us. Recorded:
# rank 1's optimizer ended at 200 + 20 = 220 us. Compute per rank: (170 + 180) / 2 = 175 us.
expect "replay kineto" 0 "# replay: kineto trace .*\(2 ranks, 8 nodes\) on dgx-h100.*iteration +0.000180 +0.000220.*compute per rank +0.000175 +0.000175.*all_reduce +1 +8388608" -- \
  replay "$replay_examples/kineto-2rank" --cluster dgx-h100
expect "replay kineto json" 0 '"format": "kineto",.*"ranks": 2,.*"iteration_s": (0.00018|0.000179999).*"recorded_iteration_s": (0.00022|0.000219999)' -- \
  replay "$replay_examples/kineto-2rank" --cluster dgx-h100 --format json
expect "replay contention note" 0 "collectives in flight at once run together on the network model \\([0-9]+ overlapping sets" -- \
  replay "$replay_examples/chakra-tp2-pp2-dp2" --cluster dgx-h100
expect "replay no contention note" 0 "timed alone on the network model and reused: collectives that overlap do not contend" -- \
  replay "$replay_examples/chakra-tp2-pp2-dp2" --cluster dgx-h100 --no-contention
# A GPU twice as fast (B200 against H100: 2250 / 989 dense BF16 TFLOP/s = 2.275): compute halves
# and more; rank 1 then gates at 110/2.275 + 50/2.275 = 70.3 us, unless the all-reduce is longer.
expect "replay target gpu" 0 "compute durations divided by the GPU ratio 2.27" -- \
  replay "$replay_examples/kineto-2rank" --cluster dgx-h100 --target-gpu B200-SXM-180GB

# The shipped Chakra example (examples/traces/README.md): tiny model, 4 layers, TP 2 x PP 2 x DP 2,
# 2 micro-batches. Nodes per rank: 2 forward passes of 2 layers x (1 compute + AG RS AG RS) = 20,
# 2 backward passes of 2 x (1 + 6) = 28, 4 sends/receives, DP all-reduce + optimizer 2: 54 on
# stage 0; stage 1 adds the logits to its 4 passes: 58. 4 x 54 + 4 x 58 = 448.
expect "replay chakra example" 0 "# replay: chakra trace .*\(8 ranks, 448 nodes\) on dgx-h100.*iteration .*all_reduce +1 .*all_gather .*reduce_scatter .*sendrecv" -- \
  replay "$replay_examples/chakra-tp2-pp2-dp2" --cluster dgx-h100

# The round trip: train writes its step, replay gives the same step time (docs/replay.md): with
# --no-contention, as train times each kind of collective apart.
rt_args=(--cluster dgx-h100 --model llama3-8b --tp 2 --pp 2 --dp 2 --global-batch 8 --seq 2048 --overlap pp
  --model-fidelity analytical)
if "$bin" train "${rt_args[@]}" --format json --emit-chakra "$tmp/rt" >"$tmp/rt_train.json" 2>/dev/null &&
  "$bin" replay "$tmp/rt" --cluster dgx-h100 --no-contention --format json >"$tmp/rt_replay.json" &&
  python3 - "$tmp/rt_train.json" "$tmp/rt_replay.json" <<'PY'
import json, sys
train = json.load(open(sys.argv[1]))["step_time_s"]
replay = json.load(open(sys.argv[2]))["iteration_s"]
# Each compute node's duration is rounded to a whole microsecond in the .et file: within 0.5 us
# times the compute nodes of a rank (at most 2 x 16 layers x 8 passes + logits + optimizer < 600).
sys.exit(0 if abs(train - replay) <= 0.5e-6 * 600 else 1)
PY
then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL replay round trip: train and replay step times differ"
fi
expect "emit into a trace" 2 "'--emit-chakra': the directory already holds a trace" -- train "${rt_args[@]}" --emit-chakra "$tmp/rt"
# ZeRO 3: each layer's DP gathers and reduce-scatter are nodes; the same round trip through files.
if "$bin" train "${rt_args[@]}" --zero 3 --format json --emit-chakra "$tmp/rt3" >"$tmp/rt3_train.json" 2>/dev/null &&
  "$bin" replay "$tmp/rt3" --cluster dgx-h100 --no-contention --format json >"$tmp/rt3_replay.json" &&
  python3 - "$tmp/rt3_train.json" "$tmp/rt3_replay.json" <<'PY'
import json, sys
train = json.load(open(sys.argv[1]))["step_time_s"]
replay = json.load(open(sys.argv[2]))["iteration_s"]
sys.exit(0 if abs(train - replay) <= 0.5e-6 * 600 else 1)  # as above: whole-microsecond compute nodes
PY
then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL replay zero 3 round trip: train and replay step times differ"
fi

# Bad traces: each names the file (and node) and exits 2.
cp -r "$tmp/rt" "$tmp/rt_missing" && rm "$tmp/rt_missing/trace.3.et"
expect "replay missing rank" 2 "rt_missing/trace.3.et: missing rank 3 of 8.*hint: a Chakra trace has one file per rank" -- \
  replay "$tmp/rt_missing" --cluster dgx-h100
cp -r "$tmp/rt" "$tmp/rt_cut" && head -c 3000 "$tmp/rt/trace.5.et" >"$tmp/rt_cut/trace.5.et"
expect "replay truncated" 2 "rt_cut/trace.5.et: 'after node [0-9]+': malformed protobuf at byte [0-9]+" -- replay "$tmp/rt_cut" --cluster dgx-h100
cp -r "$tmp/rt" "$tmp/rt_pg" && echo '{"tp.pp0.dp0": [0, 1]}' >"$tmp/rt_pg/comm_group.json"
expect "replay unknown group" 2 "rt_pg/trace.[0-9].et: 'node [0-9]+': unknown process group '.*': .*comm_group.json does not list it" -- \
  replay "$tmp/rt_pg" --cluster dgx-h100
expect "replay no trace" 2 "no such file or directory" -- replay "$tmp/none" --cluster dgx-h100
mkdir -p "$tmp/kbad"
write kbad/rank0.json <<'J'
{"distributedInfo": {"rank": 0}, "traceEvents": [
 {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_Gather(x)", "ts": 0, "dur": 5, "tid": 20,
  "args": {"Collective name": "gather", "dtype": "Float", "In msg nelems": 16, "Out msg nelems": 16}}]}
J
expect "replay kineto unknown collective" 2 "kbad/rank0.json: 'node 0': unknown collective 'gather'" -- replay "$tmp/kbad" --cluster dgx-h100
expect "replay bad ratio" 2 "'--gpu-ratio': must be above 0" -- replay "$replay_examples/kineto-2rank" --gpu-ratio -1
expect "replay unknown model" 2 "'--model'" -- replay "$replay_examples/kineto-2rank" --model flw

# train --step dag: the step as one DAG beside the composed one (docs/training.md, "The step as one
# DAG"); what the DAG cannot express is refused naming the flag (exit 2).
expect "train step dag" 0 "DAG step time .* against the composed .*collectives alone .*contention adds" -- \
  train --cluster dgx-h100 --model llama3-8b --tp 2 --pp 2 --dp 2 --global-batch 8 --seq 2048 --model-fidelity analytical \
  --step dag
expect "train step dag json" 0 '"dag": \{[^}]*"step_time_s": [^}]*"uncontended_s": [^}]*"contention_s": ' -- \
  train "${rt_args[@]}" --step dag --format json
expect "train step unknown" 2 "'--step': unknown step model 'dga'.*did you mean 'dag'" -- train "${rt_args[@]}" --step dga
expect "train step dag cp" 2 "'--cp': the step as a per-rank DAG .* does not express context parallelism" -- \
  train --cluster dgx-h100 --model llama3-8b --tp 2 --cp 2 --pp 2 --global-batch 8 --seq 4096 --step dag \
  --model-fidelity analytical
