# gpufabric infer --decode-attention (inference/decode_kernels.hpp)
expect "infer per-head attention" 0 "decode attention per-head.*attention kernel \(of compute\).*fixed per layer \(of compute\)" -- \
  infer --cluster dgx-h100 --model llama3-70b --tp 8 --batch 64 --dtype fp8 --decode-attention per-head --model-net analytical
expect "infer json decode parts" 0 '"decode_attention": "grouped".*"decode": \{.*"attention_s": .*"layer_fixed_s": ' -- \
  infer --cluster dgx-h100 --model llama3-8b --tp 8 --model-net analytical --format json
expect "infer bad decode attention" 2 "'--decode-attention': unknown decode attention kernel 'xqa'" -- \
  infer --cluster dgx-h100 --model llama3-8b --tp 8 --decode-attention xqa
expect "infer per-head without cuda-core rate" 2 "'--decode-attention': per-head prices attention on the CUDA cores.*hint: use --decode-attention grouped" -- \
  infer --cluster dgx-h100 --model llama3-8b --tp 8 --gpu B200-SXM-180GB --decode-attention per-head --model-net analytical
