# gpufabric train --order: the rank order (sourced by run_cli_tests.sh).
expect "train order" 0 "ranks tp-cp-pp-dp: PP inside DP" -- \
  train --cluster dgx-h100 --nodes 4 --model llama3-8b --tp 8 --pp 2 --dp 2 --global-batch 8 --seq 8192 \
  --order tp-cp-pp-dp --model-fidelity analytical
expect "train order json" 0 "\"order\": \"tp-cp-pp-dp\"" -- \
  train --cluster dgx-h100 --nodes 4 --model llama3-8b --tp 8 --pp 2 --dp 2 --global-batch 8 --seq 8192 \
  --order tp-cp-pp-dp --model-fidelity analytical --format json
expect "train order bad" 2 "'--order': unknown rank order 'pp-dp'.*hint:" -- \
  train --cluster dgx-h100 --nodes 4 --model llama3-8b --tp 8 --pp 2 --dp 2 --order pp-dp
