# Bad Chakra traces end to end (issue 24, "Bad input"): a dependency cycle and an unknown
# collective, each written byte by byte so the case needs no generator (sourced by
# run_cli_tests.sh: expect helper, $tmp, $bin).
#
# Wire format (mlcommons/chakra schema/protobuf/et_def.proto; protobuf encoding): a file is a
# stream of messages, each behind its length as a varint; the first is GlobalMetadata (here empty:
# length 0x00). Node fields: id 1 (tag 0x08), type 3 (0x18; COMP_NODE 4, COMM_COLL_NODE 7),
# ctrl_deps 4 (0x20), duration_micros 7 (0x38), attr 10 (0x52, a length-delimited
# AttributeProto: name 1 (0x0a), int64_val 11 (0x58)).

# Two compute nodes of 5 us, node 1 depending on node 2 and node 2 on node 1 (8 bytes each).
mkdir -p "$tmp/chakra_cycle"
printf '\x00\x08\x08\x01\x18\x04\x20\x02\x38\x05\x08\x08\x02\x18\x04\x20\x01\x38\x05' >"$tmp/chakra_cycle/trace.0.et"
expect "replay chakra cycle" 2 "chakra_cycle/trace.0.et: 'node [12]': dependency cycle.*hint: a trace's dependencies must form a DAG" -- \
  replay "$tmp/chakra_cycle" --cluster dgx-h100

# One COMM_COLL_NODE whose comm_type is 99, which CollectiveCommType does not define: the node is
# 4 bytes of id and type, then the attribute's tag and length (2) and its 13 bytes (2 + 9 for the
# name "comm_type", 2 for the value): 0x13 = 19 bytes in all.
mkdir -p "$tmp/chakra_coll"
printf '\x00\x13\x08\x01\x18\x07\x52\x0d\x0a\x09comm_type\x58\x63' >"$tmp/chakra_coll/trace.0.et"
expect "replay chakra unknown collective" 2 "chakra_coll/trace.0.et: 'node 1': unknown collective: comm_type 99.*hint: supported comm_type values" -- \
  replay "$tmp/chakra_coll" --cluster dgx-h100
