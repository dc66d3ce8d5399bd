# perf --html's link heatmap (docs/reports.md): the largest size's call by default, or
# --heatmap-size; a size the sweep does not run is refused. Sourced by run_cli_tests.sh.
expect "perf heatmap size" 0 "wrote $tmp/hm.html" -- perf all_reduce -b 1M -e 4M -f 2 --heatmap-size 2M --html "$tmp/hm.html"
expect "perf heatmap size not run" 2 "'--heatmap-size': 3145728 B is not one of the sweep's sizes.*hint: .*--heatmap-size 4194304" -- \
  perf all_reduce -b 1M -e 4M -f 2 --heatmap-size 3M --html "$tmp/hm2.html"
expect "perf heatmap size alone" 2 "'--heatmap-size': only shapes an --html page" -- perf all_reduce -b 1M -e 4M --heatmap-size 4M
# The page draws the NIC links of dgx-h100-2node (the default cluster): 2 servers x 8 NICs x 2
# directions = 32 cells, and says which size it is.
if grep -q 'id="heat-nic"[^>]*data-cells="32"' "$tmp/hm.html" && grep -q 'The 2 MiB call' "$tmp/hm.html"; then
  pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL perf heatmap: no 32-cell NIC heatmap of the 2 MiB call"; fi
