#!/usr/bin/env python3
"""Reads Chakra .et files with Debian's protoc (--decode_raw), not with gpufabric's own decoder,
and checks what `gpufabric replay --format json` read from the same files.

An .et file is a stream of messages, each behind a varint length (Chakra's protolib
encodeMessage); the first is GlobalMetadata, the rest Nodes. Node fields (et_def.proto): id 1,
type 3, data_deps 5, duration_micros 7; NodeType COMP_NODE 4, COMM_SEND_NODE 5, COMM_RECV_NODE 6,
COMM_COLL_NODE 7.

usage: protoc_decode.py TRACE_DIR REPLAY_JSON      exit 0 on agreement, 1 with the reason.
"""
import codecs
import glob
import json
import os
import re
import subprocess
import sys


def messages(data):
    i = 0
    while i < len(data):
        n, shift = 0, 0
        while True:
            b = data[i]
            i += 1
            n |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        yield data[i:i + n]
        i += n


def packed(value):
    """A repeated uint64: one number, or (proto3's packed form) a string of varints."""
    if not value.startswith('"'):
        return [value]
    raw = codecs.escape_decode(value[1:-1].encode())[0]
    out, n, shift = [], 0, 0
    for b in raw:
        n |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            out.append(str(n))
            n, shift = 0, 0
    return out


def top_fields(msg):
    """protoc's text for one message: its top-level `N: value` lines (nested blocks skipped)."""
    out = subprocess.run(["protoc", "--decode_raw"], input=msg, capture_output=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"protoc could not decode a message: {out.stderr.decode().strip()}")
    fields, depth = [], 0
    for line in out.stdout.decode().splitlines():
        s = line.strip()
        if s.endswith("{"):
            depth += 1
            continue
        if s == "}":
            depth -= 1
            continue
        m = re.match(r"^(\d+): (.*)$", s)
        if depth == 0 and m:
            fields.append((int(m.group(1)), m.group(2)))
    return fields


def main():
    trace_dir, replay_json = sys.argv[1], sys.argv[2]
    replay = json.load(open(replay_json))
    files = sorted(glob.glob(os.path.join(trace_dir, "*.et")),
                   key=lambda f: int(f.rsplit(".", 2)[-2]))
    total_nodes, comp_us = 0, {}
    for rank, path in enumerate(files):
        msgs = list(messages(open(path, "rb").read()))
        meta = top_fields(msgs[0])
        if not any(k == 1 for k, _ in meta):
            raise SystemExit(f"{path}: GlobalMetadata has no version (field 1)")
        ids, deps, comp = set(), [], 0
        for m in msgs[1:]:
            f = top_fields(m)
            d = dict(f)
            if 1 not in d or 3 not in d:
                raise SystemExit(f"{path}: a node without id or type: {f}")
            if d[1] in ids:
                raise SystemExit(f"{path}: node id {d[1]} twice")
            ids.add(d[1])
            for k, v in f:
                if k == 5:
                    deps += packed(v)
            if d[3] == "4":
                comp += int(d.get(7, "0"))
        missing = [x for x in deps if x not in ids]
        if missing:
            raise SystemExit(f"{path}: data deps on unknown nodes {missing[:5]}")
        total_nodes += len(msgs) - 1
        comp_us[rank] = comp
    if total_nodes != replay["nodes"]:
        raise SystemExit(f"protoc counts {total_nodes} nodes, replay read {replay['nodes']}")
    # replay's recorded_compute_s is the mean over ranks of each rank's COMP durations.
    mean_us = sum(comp_us.values()) / len(comp_us)
    got = replay["recorded_compute_s"] * 1e6
    if abs(mean_us - got) > 1e-6 * max(1.0, got):
        raise SystemExit(f"compute per rank (protoc) {comp_us}: mean {mean_us} us, replay {got} us")
    print(f"protoc decoded {len(files)} files, {total_nodes} nodes; mean compute per rank "
          f"{mean_us} us in both")


main()
