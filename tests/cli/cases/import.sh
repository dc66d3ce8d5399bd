# gpufabric import and --cluster FILE for a machine's own topology output (issue 6). Sourced by
# run_cli_tests.sh: uses its expect/write helpers and $tmp. The samples live in ../shared.
smi="$(dirname "${BASH_SOURCE[0]}")/../../../../shared/validation/formats/nvidia-smi-topo"
[ -n "${GPUFABRIC_SHARED_DIR:-}" ] && smi="$GPUFABRIC_SHARED_DIR/validation/formats/nvidia-smi-topo"
if [ -d "$smi" ]; then
  h100="$smi/hgx-h100-nv18-6nic-PARTIAL.txt"
  # YAML out, headed by what was assumed (with the flag) and what the PARTIAL file lacks.
  expect "import nvidia-smi" 0 "# Assumed.*GPU model = H100-SXM5-80GB  \[--gpu.*# Not recovered.*rows missing.*GPU7.*server:" -- import nvidia-smi "$h100"
  expect "import -o" 0 "wrote $tmp/h100.yaml: 8 GPUs, 6 NICs" -- import nvidia-smi "$h100" -o "$tmp/h100.yaml"
  expect "import -o exists" 2 "'-o': '$tmp/h100.yaml' exists and was not overwritten.*--force" -- import nvidia-smi "$h100" -o "$tmp/h100.yaml"
  expect "import -o --force" 0 "wrote" -- import nvidia-smi "$h100" -o "$tmp/h100.yaml" --force --pcie pcie-gen4-x16
  # The YAML and the raw text both run as clusters.
  expect "perf on imported yaml" 0 "# gpufabric perf all_reduce.*16 ranks = 2 servers x 8 GPUs" -- \
    perf all_reduce -b 1M -e 1M --cluster "$tmp/h100.yaml" --nodes 2 --fabric leaf_spine
  expect "perf on raw txt" 0 "# note: assumed PCIe links = pcie-gen5-x16.*# note: not recovered: rows missing.*1048576" -- \
    perf all_reduce -b 1M -e 1M --cluster "$h100" --nodes 2 --fabric leaf_spine
  expect "perf on rtx4090 txt" 0 "32 ranks = 4 servers x 8 GPUs" -- \
    perf all_reduce -b 1M -e 1M --cluster "$smi/rtx4090-8gpu-pcie-no-switch-sys.txt" --nodes 4 --fabric rail_optimized
  expect "topo matrix of txt" 0 "GPU0 +X +PIX +PHB +PHB +SYS" -- topo "$smi/pcie-8gpu-pix-phb-sys-no-nic.txt" --matrix
  expect "import options" 0 "tech: roce-400g" -- import nvidia-smi "$h100" --nic-tech roce-400g --nodes 4 --fabric leaf_spine
  expect "import rocm-smi" 0 "rocm-smi --showtopo" -- import rocm-smi "$smi/rocm-smi-showtopo-4gpu-pcie.txt"
  # Bad input: exit 2, the line named.
  expect "import p2p matrix" 2 "p2p-legend-topo-p2p.txt:2:[0-9]+: 'GPU0/GPU1'.*topo -p2p" -- import nvidia-smi "$smi/p2p-legend-topo-p2p.txt"
  expect "import legend only" 2 "no header row" -- import nvidia-smi "$smi/legend.txt"
  { head -n 3 "$h100"; sed -n 4p "$h100" | cut -c1-40; } >"$tmp/cut.txt"
  expect "import truncated" 2 "cut.txt:4:[0-9]+: 'GPU2': the row has 4 cells.*cut short" -- import nvidia-smi "$tmp/cut.txt"
  head -n 4 "$h100" | sed '4s/ *N\/A *$//' >"$tmp/cut_affinity.txt"
  expect "import truncated affinity" 2 "cut_affinity.txt:4:[0-9]+: 'GPU2': the row has 2 of the 3 affinity columns" -- import nvidia-smi "$tmp/cut_affinity.txt"
  sed '3s/NV18/NV1B/' "$h100" >"$tmp/garbled.txt"
  expect "import garbled" 2 "garbled.txt:3:[0-9]+: 'GPU1/GPU0': 'NV1B' is not a topology cell" -- import nvidia-smi "$tmp/garbled.txt"
  expect "perf on garbled txt" 2 "garbled.txt:3:" -- perf all_reduce --cluster "$tmp/garbled.txt"
  expect "import bad pcie" 2 "'--pcie': 'pcie-gen9' is not a PCIe technology" -- import nvidia-smi "$h100" --pcie pcie-gen9
  expect "import bad fabric" 2 "fabric" -- import nvidia-smi "$h100" --fabric leaf_spin
  expect "import xml as smi" 2 "NCCL topology XML.*gpufabric import nccl-xml" -- \
    import nvidia-smi "$smi/../nccl-topo-xml/azure-ndv5-h100-topo.xml"
fi
expect "import unknown format" 2 "'FORMAT': unknown format 'nvidia'.*nvidia-smi, nccl-xml, rocm-smi" -- import nvidia /dev/null
expect "import missing file" 2 "'FILE': '$tmp/none.txt' cannot be read" -- import nvidia-smi "$tmp/none.txt"
