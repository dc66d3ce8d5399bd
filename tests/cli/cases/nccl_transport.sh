# NCCL_P2P_DISABLE / NCCL_P2P_LEVEL / NCCL_SHM_DISABLE: not modelled yet, so a well-formed value is
# listed as ignored with why, and a value NCCL would not read is refused (issue 18: no input silently
# ignored). Sourced by run_cli_tests.sh.
expect "P2P level ignored with why" 0 "# note: ignored NCCL_P2P_LEVEL=PHB \(transports inside a server are not chosen" -- \
  perf all_reduce --cluster pcie-8gpu -b 1M -e 1M --model analytical --env NCCL_P2P_LEVEL=PHB
expect "P2P level: nvidia-smi's NODE is no NCCL level" 2 "'NCCL_P2P_LEVEL': 'NODE' is not a P2P level.*LOC, NVL, PIX, PXB, PHB or SYS" -- \
  perf all_reduce --cluster pcie-8gpu -b 1M -e 1M --env NCCL_P2P_LEVEL=NODE
expect "P2P disable takes 0 or 1" 2 "'NCCL_P2P_DISABLE': 'yes' is not a valid value" -- \
  perf all_reduce --cluster pcie-8gpu -b 1M -e 1M --env NCCL_P2P_DISABLE=yes
expect "SHM disable takes 0 or 1" 2 "'NCCL_SHM_DISABLE': '2' is not a valid value" -- \
  perf all_reduce --cluster pcie-8gpu -b 1M -e 1M --env NCCL_SHM_DISABLE=2
