# `gpufabric validate` works from any folder (issue 18): the manifest is found beside the binary's
# build tree when the current folder has no validation/datasets.yaml. Run from the scratch folder.
# rtx4090-pcie-p2p-off-allreduce is a small set (12 rows), and met (docs/accuracy.md).
pushd "$tmp" >/dev/null || exit 1
expect "validate from another folder" 0 "rtx4090-pcie-p2p-off-allreduce .*busbw \|error\| over 12 rows" -- \
  validate --dataset rtx4090-pcie-p2p-off-allreduce
popd >/dev/null || exit 1
