# perf --html / validate --html: one self-contained page (docs/reports.md). Sourced by
# run_cli_tests.sh: uses its expect helper and $tmp. The page in a browser: tests/browser/.
expect "perf html" 0 "wrote $tmp/p.html" -- perf all_reduce --nodes 1 --gpus-per-node 4 -b 1K -e 4M -f 4 --html "$tmp/p.html"
expect "perf html exists" 2 "'--html': '$tmp/p.html' exists and was not overwritten.*--force" -- perf all_reduce -b 1M -e 1M --html "$tmp/p.html"
expect "perf html force" 0 "wrote $tmp/p.html" -- perf all_reduce -b 1M -e 1M --html "$tmp/p.html" --force
expect "perf html no folder" 2 "'--html': could not write '$tmp/no/such/p.html'" -- perf all_reduce -b 1M -e 1M --html "$tmp/no/such/p.html"
expect "validate html exists" 2 "'--html': '$tmp/p.html' exists and was not overwritten" -- validate --html "$tmp/p.html"
# Self-contained: the page names no other resource to fetch (no src= or href= at all), and it
# starts with the command that made it.
"$bin" perf all_reduce -b 1M -e 4M -f 2 --html "$tmp/q.html" >/dev/null 2>&1
if grep -q '^<!DOCTYPE html>' "$tmp/q.html" && ! grep -Eq '(src|href)=' "$tmp/q.html" &&
   grep -q 'gpufabric perf all_reduce -b 1M -e 4M -f 2 --html' "$tmp/q.html"; then pass=$((pass + 1)); else
  fail=$((fail + 1)); echo "FAIL perf html: not a self-contained page with its command line"; fi
