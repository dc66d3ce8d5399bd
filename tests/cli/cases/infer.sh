# gpufabric infer (sourced by run_cli_tests.sh: expect/write helpers, $tmp).
expect "infer done command" 0 "# infer: llama3-70b on dgx-h100 \(8 GPUs, H100-SXM5-80GB\).*TTFT \(prefill\) .* ms.*TPOT \(decode step\) .* ms.*tokens/s per GPU.*weights read \(HBM\).*KV-cache read \(HBM\).*TP all-reduces.*KV cache per token +320.0 KiB.*HBM left after weights" -- \
  infer --cluster dgx-h100 --model llama3-70b --tp 8 --prompt 2048 --output 256 --model-net analytical
expect "infer json" 0 '"ttft_s": .*"tpot_s": .*"tokens_per_s_per_gpu": .*"prefill": \{.*"weights_read_s": .*"decode": \{.*"kv_read_s": .*"kv_cache": \{.*"bytes_per_token": 327680' -- \
  infer --cluster dgx-h100 --model llama3-70b --tp 8 --prompt 2048 --output 256 --model-net analytical --format json
expect "infer oneshot" 0 "decode +tp +all_reduce +oneshot" -- \
  infer --cluster dgx-h100 --model llama3-8b --tp 8 --allreduce oneshot --model-net analytical
expect "infer auto" 0 "prefill +tp +all_reduce +nccl .*decode +tp +all_reduce +oneshot" -- \
  infer --cluster dgx-h100 --model llama3-8b --tp 8 --allreduce auto --model-net analytical
expect "infer pp" 0 "PP sends.*pp +sendrecv" -- \
  infer --cluster dgx-h100 --nodes 2 --model llama3-70b --tp 8 --pp 2 --model-net analytical
expect "infer does not fit" 2 "'--tp': llama3-70b does not fit: at TP 1 x PP 1 a GPU holds .* GiB of bf16 weights \+ .* GiB of KV cache .* but a H100-SXM5-80GB holds 80.0 GiB.*hint: raise --tp or --pp, use --dtype fp8" -- \
  infer --cluster dgx-h100 --model llama3-70b --tp 1
expect "infer unknown model" 2 "'--model': unknown model 'llama3-70'.*did you mean 'llama3-70b'" -- infer --model llama3-70
# Weights fit at TP 8 (70.6e9 x 2 B / 8 = 16.4 GiB) but 100,000 requests of 2,304 tokens at
# 40 KiB per token per GPU (80 layers x 2 x 8 KV heads x 128 x 2 B / 8 GPUs) = 8,789 GiB do not:
# the batch is what to change.
expect "infer kv does not fit" 2 "'--batch': llama3-70b does not fit: .*8789.1 GiB of KV cache" -- \
  infer --cluster dgx-h100 --model llama3-70b --tp 8 --prompt 2048 --output 256 --batch 100000
expect "infer tp heads" 2 "'--tp': TP 3 does not divide the 64 attention heads" -- infer --cluster dgx-h100 --model llama3-70b --tp 3
expect "infer bad allreduce" 2 "'--allreduce': unknown all-reduce 'oneshott'.*did you mean 'oneshot'" -- \
  infer --cluster dgx-h100 --model llama3-8b --tp 8 --allreduce oneshott
expect "infer oneshot across servers" 2 "'--allreduce': oneshot all-reduce needs the TP group inside one NVLink domain" -- \
  infer --cluster dgx-h100 --nodes 2 --model llama3-70b --tp 16 --allreduce oneshot --model-net analytical
expect "infer bad dtype" 2 "'--dtype': unknown data type 'fp16'" -- infer --cluster dgx-h100 --model llama3-8b --dtype fp16
expect "infer ep dense" 2 "'--ep': llama3-8b has no experts" -- infer --cluster dgx-h100 --model llama3-8b --ep 8
expect "infer batch zero" 2 "'--batch': must be at least 1, got 0" -- infer --cluster dgx-h100 --model llama3-8b --batch 0
expect "infer too many gpus" 2 "'--ep': TP x attention DP x PP = 1 x 16 x 1 = 16 GPUs, but the cluster has 8" -- \
  infer --cluster dgx-h100 --model mixtral-8x7b --ep 16
expect "infer ep deepep" 0 "ep +dispatch +normal.*ep +combine +normal.*decode +ep +dispatch +low-latency" -- \
  infer --cluster dgx-h100 --nodes 2 --model mixtral-8x7b --ep 16 --batch 16 --prompt 512 --output 64 --ep-kernel auto --model-net analytical
expect "infer bad ep kernel" 2 "'--ep-kernel': unknown EP kernel 'lowlatency'.*did you mean 'low-latency'" -- \
  infer --cluster dgx-h100 --model mixtral-8x7b --ep 8 --ep-kernel lowlatency
expect "infer disagg" 0 "disaggregated: prefill on servers 0-0, decode on servers 1-1.*KV-cache transfer.*kv +sendrecv" -- \
  infer --cluster dgx-h100 --nodes 2 --model llama3-8b --tp 8 --disagg prefill=1,decode=1 --model-net analytical
expect "infer disagg too big" 2 "'--disagg': prefill 1 \+ decode 2 servers, but the cluster has 2" -- \
  infer --cluster dgx-h100 --nodes 2 --model llama3-8b --tp 8 --disagg prefill=1,decode=2 --model-net analytical
expect "infer disagg bad" 2 "'--disagg': expected prefill=N or decode=N, got 'prefil=1'" -- \
  infer --cluster dgx-h100 --nodes 2 --model llama3-8b --tp 8 --disagg prefil=1,decode=1
expect "infer batching" 0 "continuous batching: 30 requests, Poisson arrivals at 20/s \(seed 3\).*TTFT .*TPOT .*latency" -- \
  infer --cluster dgx-h100 --model llama3-8b --tp 8 --batch 8 --prompt 512 --output 32 --rate 20 --requests 30 --seed 3 --model-net analytical
expect "infer batching json" 0 '"batching": \{.*"output_tokens_per_s": .*"ttft_s": \{.*"p99"' -- \
  infer --cluster dgx-h100 --model llama3-8b --tp 8 --batch 8 --prompt 512 --output 32 --rate 20 --requests 30 --model-net analytical --format json
expect "infer seed without rate" 2 "'--seed': only used with --rate" -- infer --cluster dgx-h100 --model llama3-8b --seed 3
expect "infer bad rate" 2 "'--rate': must be above 0" -- infer --cluster dgx-h100 --model llama3-8b --tp 8 --rate 0 --model-net analytical
