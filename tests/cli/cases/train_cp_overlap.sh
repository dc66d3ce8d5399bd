# gpufabric train: context parallelism, TP overlap, uneven pipeline stages (sourced by run_cli_tests.sh).
expect "train cp" 0 "TP 8 x CP 2 x PP 1 x DP 1.*CP K/V ring \(exposed\).*cp +all_gather \(K/V ring\).*cp +reduce_scatter \(K/V gradients\)" -- \
  train --cluster dgx-h100 --nodes 2 --model llama3-8b --tp 8 --cp 2 --global-batch 2 --seq 32768 --recompute full --zero 1 --model-fidelity analytical
expect "train cp seq" 2 "'--cp': CP 3 needs the sequence \(8192\) to split into 2 x CP = 6 equal chunks" -- \
  train --cluster dgx-h100 --nodes 3 --model llama3-8b --tp 8 --cp 3 --seq 8192
expect "train overlap tp" 0 "TP communication \(exposed, overlapped\)" -- \
  train --cluster dgx-h100 --model llama3-8b --tp 8 --global-batch 4 --seq 8192 --overlap dp,pp,tp --model-fidelity analytical
expect "train overlap tp no sp" 2 "'--overlap': TP communication overlap needs sequence parallelism" -- \
  train --cluster dgx-h100 --model llama3-8b --tp 8 --global-batch 4 --overlap tp --no-sequence-parallel
expect "train uneven hint" 2 "'--pp': PP x VPP = 16 does not divide the 126 layers of llama3-405b.*--pp-first-layers 7 --pp-last-layers 7" -- \
  train --cluster dgx-h100 --nodes 16 --model llama3-405b --tp 8 --pp 16
expect "train uneven" 0 "uneven stages: first 7, last 7 layers" -- \
  train --cluster dgx-h100 --nodes 32 --model llama3-405b --tp 8 --pp 16 --dp 2 --pp-first-layers 7 --pp-last-layers 7 \
  --global-batch 64 --seq 8192 --recompute full --zero 1 --model-fidelity analytical
expect "train uneven bad" 2 "'--pp-first-layers': with 6 layer\(s\) on the first stage" -- \
  train --cluster dgx-h100 --nodes 16 --model llama3-405b --tp 8 --pp 16 --pp-first-layers 6 --pp-last-layers 7
expect "train search cp" 0 "best layouts.* CP " -- \
  train --cluster dgx-h100 --nodes 2 --model llama3-8b --global-batch 16 --seq 32768 --search --model-fidelity analytical
expect "train cp all-gather" 0 "CP: K/V all-gathered before attention.*CP K/V all-gather \(exposed\).*cp +all_gather \(K/V, before attention\)" -- \
  train --cluster dgx-h100 --nodes 2 --model llama3-8b --tp 8 --cp 2 --cp-comm all-gather --global-batch 2 --seq 32768 --recompute full --zero 1 --model-fidelity analytical
expect "train cp-comm bad" 2 "'--cp-comm': unknown CP communication 'alltoall'" -- \
  train --cluster dgx-h100 --nodes 2 --model llama3-8b --tp 8 --cp 2 --cp-comm alltoall --seq 32768
expect "train cp-comm no cp" 2 "'--cp-comm': all-gather of K/V needs context parallelism" -- \
  train --cluster dgx-h100 --model llama3-8b --tp 8 --cp-comm all-gather --seq 8192
ub_cfg="$(dirname "${BASH_SOURCE[0]}")/../../../validation/training/ub-h100-fp8-h16384-tp8-cp2.yaml"
expect "train tp-comm-overlap-cfg" 0 "userbuffers as .*ub-h100-fp8-h16384-tp8-cp2.yaml configures them: projection's and FC2's forward reduce-scatter by ring_exchange and ring_exchange" -- \
  train --cluster dgx-h100 --model llama3-8b --tp 8 --global-batch 4 --seq 8192 --overlap dp,pp,tp --tp-comm-overlap-cfg "$ub_cfg" --model-fidelity analytical
expect "train tp-comm-overlap-cfg no tp" 2 "'--tp-comm-overlap-cfg': a userbuffers configuration needs TP communication overlap" -- \
  train --cluster dgx-h100 --model llama3-8b --tp 8 --global-batch 4 --seq 8192 --tp-comm-overlap-cfg "$ub_cfg"
expect "train tp-comm-overlap-cfg missing" 2 "'--tp-comm-overlap-cfg': cannot read 'no-such.yaml'" -- \
  train --cluster dgx-h100 --model llama3-8b --tp 8 --global-batch 4 --seq 8192 --overlap dp,pp,tp --tp-comm-overlap-cfg no-such.yaml
