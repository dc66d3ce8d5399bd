# gpufabric train --search on an MoE model tries expert parallelism (sourced by run_cli_tests.sh):
# Mixtral's 8 experts on 8 GPUs allow EP 2, 4 and 8 inside DP, and at least one ranked layout has one.
expect "train search ep" 0 " EP +VPP .*[[:space:]] +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[248] +[0-9]+ +[0-9]+ +(none|selective|full) " -- \
  train --cluster dgx-h100 --model mixtral-8x7b --global-batch 16 --seq 4096 --search --model-fidelity analytical
