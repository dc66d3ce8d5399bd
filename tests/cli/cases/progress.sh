# Progress on stderr for runs over about two seconds, only when stderr is a terminal, with stdout
# the same bytes either way (docs/reports.md, "Progress on long runs"). Sourced by
# run_cli_tests.sh: uses $bin, $tmp and the pass/fail counters. GPUFABRIC_PROGRESS_AFTER_S=0 shows
# the line from the start, so a fast machine still shows it.
#
# Each command is run twice: stderr to a file (not a terminal: it must stay empty), and under
# script(1), which gives it a pseudo-terminal, with stdout sent to a file inside the command (so
# only stderr reaches the terminal script records). The two stdout files must be identical.
progress_case() {  # NAME REGEX ARGS...: REGEX is what the line on a terminal must show
  local name="$1" want="$2"
  shift 2
  GPUFABRIC_PROGRESS_AFTER_S=0 "$bin" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
  if [ ! -s "$tmp/$name.err" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL progress $name off a terminal: stderr has $(wc -c <"$tmp/$name.err") bytes"; fi
  command -v script >/dev/null 2>&1 || return 0
  GPUFABRIC_PROGRESS_AFTER_S=0 script -qec "$(printf '%q ' "$bin" "$@") >$(printf '%q' "$tmp/$name.tty.out")" /dev/null \
    >"$tmp/$name.tty" 2>&1
  if grep -aEq "$want" "$tmp/$name.tty"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL progress $name on a terminal: no line matching /$want/ in:"; head -c 600 "$tmp/$name.tty"; echo; fi
  if cmp -s "$tmp/$name.out" "$tmp/$name.tty.out" && [ -s "$tmp/$name.out" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL progress $name: stdout differs on a terminal (or is empty)"; fi
}

# perf: 6 sizes (1M .. 1G by 4) on 64 GPUs; the line shows from the second size on: sizes done,
# their calls' simulated time added up, events per second, the time so far and left.
progress_case perf "perf all_reduce: [1-5]/6 \([0-9]+ [KMG]iB done\), simulated [0-9.]+ [mu]?s in all, [0-9.]+ [kM]? ?events/s, [0-9]+ s so far, about [0-9]+ s left" \
  perf all_reduce --cluster dgx-h100 --nodes 8 -b 1M -e 1G -f 4
# train: the DP all-reduce of Llama 3 8B over 2 servers (16 ranks, thousands of model events), timed
# on the flow model: the line follows that collective from the engine's tick (every 1,024 events).
progress_case train "gpufabric train: [a-z]+ [a-z_]+, simulated [0-9.]+ [mu]?s, [0-9]+% of its transfers, [0-9.]+ [kM]? ?events/s" \
  train --cluster dgx-h100 --nodes 2 --model llama3-8b --tp 8 --dp 2 --global-batch 64
# sweep: 4 points of 2 sizes each; after each point, the points done and their calls' simulated
# time added up.
progress_case sweep "gpufabric sweep: [1-4]/4 \(points\), simulated [0-9.]+ [mu]?s in all, [0-9]+ s so far" \
  perf all_reduce --cluster dgx-h100 --set servers=1,2 --set fabric.oversubscription=1,2 -b 1M -e 4M -f 4
# run: two jobs, so the run of both and then each alone.
progress_case run "gpufabric run: the jobs, simulated [0-9.]+ [mu]?s, [0-9]+% of its transfers, .*events/s, [0-9]+ s so far, about [0-9]+ s left in this one.*job [a-z0-9-]+ alone, simulated" \
  run "$examples/two-jobs-oversubscribed.yaml"

# perf inside one long size: a single 1 GiB all-reduce on 128 GPUs runs for seconds, and the line
# follows its run (the sweep's SweepOptions::tick): the simulated time reached and the share of
# its transfers finished, which must take at least two values, so the line moves within the size.
progress_case perf_one_size "perf all_reduce: 0/1 \(first size\), simulated [0-9.]+ [mu]?s, [0-9]+% of its transfers, [0-9.]+ [kM]? ?events/s" \
  perf all_reduce --cluster dgx-h100 --nodes 16 -b 1G -e 1G
if ! command -v script >/dev/null 2>&1; then :
elif [ "$(grep -aoE '[0-9]+% of its transfers' "$tmp/perf_one_size.tty" | sort -u | wc -l)" -ge 2 ]; then
  pass=$((pass + 1))
else
  fail=$((fail + 1)); echo "FAIL progress perf_one_size: the share of transfers never moved within the size"
fi

# perf's other options: after a size's chosen option, the sweep runs every other option the
# choice had (the faster-choice note), LL on a large size for longer than the chosen run. The line
# names each and follows it from the engine's tick, so it keeps moving through them.
progress_case perf_other_options "perf all_reduce: 0/1 \(first size; other option [a-z_]+/(LL|LL128|Simple), [0-9]+ of [0-9]+\), simulated [0-9.]+ [mu]?s, [0-9]+% of its transfers" \
  perf all_reduce --cluster dgx-h100 --nodes 2 -b 64M -e 64M
if ! command -v script >/dev/null 2>&1; then :
elif [ "$(grep -aoE 'other option [a-z_]+/[A-Za-z0-9]+, [0-9]+ of' "$tmp/perf_other_options.tty" | sort -u | wc -l)" -ge 2 ]; then
  pass=$((pass + 1))
else
  fail=$((fail + 1)); echo "FAIL progress perf_other_options: fewer than two other options named on the line"
fi
