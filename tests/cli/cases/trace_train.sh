# train --trace (docs/reports.md): one training step as a Perfetto timeline. Sourced by
# run_cli_tests.sh: uses its expect helper, $bin and $tmp.
tt=(train --cluster dgx-a100 --nodes 4 --model megatron-22b --tp 8 --pp 2 --dp 2 --global-batch 8 --model-fidelity analytical)
expect "train trace" 0 "wrote $tmp/tt.json: [0-9]+ trace events" -- "${tt[@]}" --trace "$tmp/tt.json"
expect "train trace exists" 2 "'--trace': '$tmp/tt.json' exists and was not overwritten.*--force" -- "${tt[@]}" --trace "$tmp/tt.json"
expect "train trace force" 0 "wrote $tmp/tt.json" -- "${tt[@]}" --trace "$tmp/tt.json" --force --trace-ranks 0-7,8
expect "train trace-ranks alone" 2 "'--trace-ranks': only shapes a --trace timeline" -- "${tt[@]}" --trace-ranks 0-3
expect "train trace-ranks bad" 2 "'--trace-ranks': '3-1' is not a rank" -- "${tt[@]}" --trace "$tmp/tt2.json" --trace-ranks 3-1
expect "train trace search" 2 "'--trace': draws one layout's step, not a search" -- train --cluster dgx-a100 --model megatron-22b --global-batch 8 --search --trace "$tmp/ts.json"
# The format (every slice's timestamps in order on its track, every arrow with both ends, pointing
# forward) and the shape: PP 2 x DP 2 x TP 8, global batch 8 -> 8 / DP 2 = 4 micro-batches, so
# by default 2 processes (one per stage), a rank each (ranks 0 and 16: TP, DP index 0), 4 forward
# and 4 backward passes per rank, 2 x 4 PP arrows (activations 0 -> 1, gradients 1 -> 0), and a
# DP all-reduce over the gradient group {r, r + 8}.
rm -f "$tmp/tt.json"
"$bin" "${tt[@]}" --trace "$tmp/tt.json" >/dev/null 2>&1
if python3 - "$tmp/tt.json" <<'PY'
import json, sys
from collections import defaultdict
ev = json.load(open(sys.argv[1]))["traceEvents"]
last, flows, passes = {}, defaultdict(dict), defaultdict(list)
procs = [e for e in ev if e["ph"] == "M" and e["name"] == "process_name"]
assert len(procs) == 2, procs
for e in ev:
    assert e["ph"] in ("X", "M", "s", "f"), e
    if e["ph"] == "M":
        continue
    k = (e["pid"], e["tid"])
    assert e["ts"] >= last.get(k, -1e300), e
    last[k] = e["ts"]
    if e["ph"] in "sf":
        flows[e["id"]][e["ph"]] = e["ts"]
    if e["ph"] == "X":
        assert e["dur"] > 0, e
        if e["name"].split(" mb ")[0] in ("forward", "backward"):
            passes[(e["tid"], e["name"].split()[0])].append(e)
assert len(flows) == 8 and all(f.keys() == {"s", "f"} and f["s"] <= f["f"] for f in flows.values()), flows
assert sorted(passes) == [(0, "backward"), (0, "forward"), (64, "backward"), (64, "forward")], sorted(passes)
assert all(len(v) == 4 for v in passes.values())
dp = [e for e in ev if e["ph"] == "X" and e["name"].startswith("DP ")]
assert {e["args"]["group"] for e in dp} == {"0,8", "16,24"}, dp
tp = [e for e in ev if e["ph"] == "X" and e["name"].startswith("TP ")]
# Sequence parallelism (on by default with TP): a reduce-scatter and an all-gather per slice.
assert tp and all(sorted(e["args"]) == ["all_gather", "reduce_scatter"] for e in tp), tp[:1]
assert all(a["bytes"] > 0 and a["group"] == ("0,1,2,3,4,5,6,7" if e["pid"] == 0 else "16,17,18,19,20,21,22,23")
           for e in tp for a in e["args"].values())
PY
then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL train trace: format or shape (above)"; fi
