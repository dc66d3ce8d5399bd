# Progress on stderr for runs over about two seconds, only when stderr is a terminal. Sourced by
# run_cli_tests.sh: uses $bin, $tmp and the pass/fail counters.
slow=(perf all_reduce --cluster dgx-h100 --nodes 8 -b 1M -e 1G -f 4)  # 6 sizes; the line shows from the first
# Not a terminal (scripts, CI): not a byte on stderr.
GPUFABRIC_PROGRESS_AFTER_S=0 "$bin" "${slow[@]}" >/dev/null 2>"$tmp/progress.err"
if [ ! -s "$tmp/progress.err" ]; then pass=$((pass + 1)); else
  fail=$((fail + 1)); echo "FAIL progress off a terminal: stderr has $(wc -c <"$tmp/progress.err") bytes"; fi
# A terminal (script(1) gives the command a pseudo-terminal): the line says how far it got.
if command -v script >/dev/null 2>&1; then
  GPUFABRIC_PROGRESS_AFTER_S=0 script -qc "$(printf '%q ' "$bin" "${slow[@]}")" /dev/null >"$tmp/progress.tty" 2>&1
  if grep -aEq "perf all_reduce: [1-5]/6 \([0-9]+ [KMG]iB done\), [0-9]+ s so far, about [0-9]+ s left" "$tmp/progress.tty"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL progress on a terminal: no progress line"; fi
fi
