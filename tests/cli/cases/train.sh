# gpufabric train, `list models` and `list gpus` (sourced by run_cli_tests.sh: expect/write helpers, $tmp).
expect "list models" 0 "llama3-405b .*Llama 3 405B" -- list models
expect "list gpus" 0 "MI325X-256GB .*1307 TFLOP/s BF16, 2615 FP8, 256 GB" -- list gpus
expect "train 22b" 0 "# train: megatron-22b on dgx-a100 \(8 GPUs, A100-SXM4-80GB\).*step time .*MFU .*breakdown.*TP communication \(exposed\).*memory per GPU" -- \
  train --cluster dgx-a100 --model megatron-22b --tp 8 --global-batch 4 --micro-batch 4 --recompute full --no-sequence-parallel --model-fidelity analytical
expect "train json" 0 '"step_time_s": .*"tokens_per_s": .*"mfu": .*"hfu": .*"tflops_per_gpu": .*"memory_per_gpu_bytes": .*"breakdown": \{' -- \
  train --cluster dgx-a100 --model megatron-22b --tp 8 --global-batch 4 --micro-batch 4 --model-fidelity analytical --format json
expect "train days" 0 "days to train" -- train --cluster dgx-a100 --model llama3-8b --tp 8 --tokens 15T --model-fidelity analytical
expect "train tp heads" 2 "'--tp': TP 3 does not divide the 64 attention heads.*hint: use one of: 1, 2, 4, 8, 16, 32, 64" -- \
  train --cluster dgx-a100 --nodes 2 --model megatron-22b --tp 3
expect "train layers" 2 "'--pp': PP x VPP = 5 does not divide the 48 layers" -- train --cluster dgx-a100 --nodes 2 --model megatron-22b --tp 2 --pp 5
expect "train too many gpus" 2 "'--dp': TP x PP x DP = 8 x 1 x 4 = 32 GPUs, but the cluster has 8" -- train --cluster dgx-a100 --model megatron-22b --tp 8 --dp 4
expect "train does not fit" 2 "'--tp': megatron-22b needs .* per GPU .* but a A100-SXM4-80GB holds 80.0 GiB.*hint: raise --tp" -- \
  train --cluster dgx-a100 --model megatron-22b --model-fidelity analytical
expect "train unknown model" 2 "'--model': unknown model 'llama3-70'.*did you mean 'llama3-70b'" -- train --model llama3-70
expect "train unknown recompute" 2 "'--recompute': unknown recompute mode 'ful'.*did you mean 'full'" -- train --model llama3-8b --recompute ful
expect "train search" 0 "# search: llama3-8b on dgx-a100, 16 GPUs.*layouts divide, .* fit memory.*best layouts.*fastest on the analytical network model.*# train: llama3-8b" -- \
  train --cluster dgx-a100 --nodes 2 --model llama3-8b --global-batch 32 --search --model-fidelity analytical
expect "train search json" 0 '"search": \{.*"gpus": 16,.*"refined": \[.*"fastest": \{.*"model": "llama3-8b"' -- \
  train --cluster dgx-a100 --nodes 2 --model llama3-8b --global-batch 32 --search --model-fidelity analytical --format json
expect "train search no fit" 2 "'--max-memory': none of the .* layouts of llama3-8b on 8 GPUs fits 1.0 GiB per GPU" -- \
  train --cluster dgx-a100 --model llama3-8b --global-batch 8 --search --max-memory 1G --model-fidelity analytical
expect "train search with layout" 2 "'--search': --search chooses TP, CP, PP, DP, EP and VPP itself" -- \
  train --cluster dgx-a100 --model llama3-8b --global-batch 8 --search --tp 8
expect "train search no batch" 2 "'--global-batch': --search needs the global batch" -- train --cluster dgx-a100 --model llama3-8b --search
expect "train ep mixtral" 0 "TP 1 x PP 1 x DP 8 \(EP 8 inside DP\).*EP all-to-all \(exposed\).*ep +alltoall" -- \
  train --cluster dgx-h100 --model mixtral-8x7b --dp 8 --ep 8 --global-batch 16 --seq 4096 --recompute full --zero 1 --model-fidelity analytical
expect "train ep deepseek" 0 "# train: deepseek-v3 on dgx-h100 \(512 GPUs.*EP all-to-all \(exposed\)" -- \
  train --cluster dgx-h100 --nodes 64 --model deepseek-v3 --tp 8 --dp 64 --ep 64 --global-batch 64 --seq 4096 --recompute full --zero 1 --model-fidelity analytical
expect "train zero3" 0 "dp +all_gather \(per layer and pass\).*dp +reduce_scatter \(per layer\)" -- \
  train --cluster dgx-a100 --nodes 2 --model llama3-8b --tp 8 --dp 2 --zero 3 --global-batch 8 --model-fidelity analytical
expect "train ep dense" 2 "'--ep': llama3-8b has no experts" -- train --cluster dgx-h100 --model llama3-8b --dp 8 --ep 8 --global-batch 8
expect "train ep experts" 2 "'--ep': EP 3 does not divide the 8 experts of mixtral-8x7b.*hint: use one of: 1, 2, 4, 8" -- \
  train --cluster dgx-h100 --model mixtral-8x7b --dp 6 --ep 3 --global-batch 6
expect "train bad tokens" 2 "'--tokens': expected a positive count, got '15X'" -- train --model llama3-8b --tokens 15X
expect "train unknown gpu" 2 "'--gpu': unknown GPU 'H10'" -- train --model llama3-8b --gpu H10
write tiny_model.yaml <<'Y'
name: tiny
hidden: 1024
layers: 4
heads: 16
vocab: 32000
Y
expect "train model file" 0 "# train: tiny on dgx-a100" -- train --cluster dgx-a100 --model "$tmp/tiny_model.yaml" --tp 8 --model-fidelity analytical
write bad_model.yaml <<'Y'
name: bad
hidden: 1024
layers: 4
heads: 16
vocab: 32000
kv_heads: 5
Y
expect "train bad model file" 2 "bad_model.yaml:6:[0-9]+: 'kv_heads': 5 key/value heads do not divide 16 heads" -- train --model "$tmp/bad_model.yaml"
