# gpufabric import nccl-xml and --cluster FILE.xml (issue 6, NCCL topology XML). Sourced by
# run_cli_tests.sh: uses its expect/write helpers and $tmp. The samples live in ../shared.
xml="$(dirname "${BASH_SOURCE[0]}")/../../../../shared/validation/formats/nccl-topo-xml"
[ -n "${GPUFABRIC_SHARED_DIR:-}" ] && xml="$GPUFABRIC_SHARED_DIR/validation/formats/nccl-topo-xml"
if [ -d "$xml" ]; then
  ndv5="$xml/azure-ndv5-h100-topo.xml"
  # The skeleton's assumptions (GPU from the Gen5 link, the board's NVSwitch, NDR from the Gen5 NIC).
  expect "import nccl-xml ndv5" 0 "GPU model = H100-SXM5-80GB.*NVLink = 4 NVSwitch chips.*= ib-ndr.*server:" -- import nccl-xml "$ndv5"
  expect "import nccl-xml ndv4" 0 "GPU model = A100-SXM4-80GB.*= ib-hdr" -- import nccl-xml "$xml/azure-ndv4-a100-topo.xml"
  # --nvlink none: PCIe only, as the file alone says: GPU0 is PHB to GPU1 (another bridge of cpu0),
  # SYS to GPU4 (the other <cpu>), PIX to NIC0 (its own bridge).
  expect "import nccl-xml nvlink none" 0 "wrote $tmp/pcie.yaml: 8 GPUs, 8 NICs" -- import nccl-xml "$ndv5" --nvlink none -o "$tmp/pcie.yaml"
  expect "matrix of pcie-only import" 0 "GPU0 +X +PHB +PHB +PHB +SYS +SYS +SYS +SYS +PIX" -- topo "$tmp/pcie.yaml" --matrix
  expect "perf on raw xml" 0 "16 ranks = 2 servers x 8 GPUs" -- perf all_reduce -b 1M -e 1M --cluster "$ndv5" --nodes 2
  # Damaged copies: exit 2 and the line.
  sed '19s|</cpu>|</pci>|' "$ndv5" >"$tmp/mismatch.xml"
  expect "xml mismatched tag" 2 "mismatch.xml:19:[0-9]+: 'pci': </pci> closes <cpu> opened at line 2" -- import nccl-xml "$tmp/mismatch.xml"
  head -n 12 "$ndv5" >"$tmp/cut.xml"
  expect "xml truncated" 2 "cut.xml:13:[0-9]+: .*the file ends inside" -- import nccl-xml "$tmp/cut.xml"
  sed '26s|32.0 GT/s|7.0 GT/s|' "$ndv5" >"$tmp/speed.xml"
  expect "xml unknown link_speed" 2 "speed.xml:26: 'link_speed': unknown PCIe link speed" -- import nccl-xml "$tmp/speed.xml"
  expect "xml bad nvlink flag" 2 "'--nvlink': 'pcie-gen5-x16' is not an NVLink technology" -- import nccl-xml "$ndv5" --nvlink pcie-gen5-x16
fi
