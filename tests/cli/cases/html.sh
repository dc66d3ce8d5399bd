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
# run --html / doctor --html / run --trace (docs/reports.md).
ex="$(dirname "${BASH_SOURCE[0]}")/../../../examples"
expect "run html" 0 "wrote $tmp/r.html" -- run "$ex/two-jobs-oversubscribed.yaml" --html "$tmp/r.html"
expect "run html exists" 2 "'--html': '$tmp/r.html' exists and was not overwritten.*--force" -- run "$ex/two-jobs-oversubscribed.yaml" --html "$tmp/r.html"
expect "doctor html" 1 "wrote $tmp/d.html" -- doctor "$ex/leafspine-4to1.yaml" --html "$tmp/d.html"
expect "doctor html exists" 2 "'--html': '$tmp/d.html' exists" -- doctor "$ex/leafspine-4to1.yaml" --html "$tmp/d.html"
expect "run trace" 0 "wrote $tmp/rt.json: [0-9]+ trace events" -- run "$ex/two-jobs-oversubscribed.yaml" --trace "$tmp/rt.json" --trace-links top:4
expect "run trace exists" 2 "'--trace': '$tmp/rt.json' exists" -- run "$ex/two-jobs-oversubscribed.yaml" --trace "$tmp/rt.json"
expect "run trace-ranks alone" 2 "'--trace-ranks': only shapes a --trace timeline" -- run "$ex/two-jobs-oversubscribed.yaml" --trace-ranks 0-3
if grep -q 'heat-nic' "$tmp/r.html" && ! grep -Eq '(src|href)=' "$tmp/r.html"; then pass=$((pass + 1)); else
  fail=$((fail + 1)); echo "FAIL run html: no NIC heatmap, or a resource to fetch"; fi
