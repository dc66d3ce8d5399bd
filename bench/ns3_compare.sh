#!/usr/bin/env bash
# gpufabric's packet model against ns-3, side by side in one run: the peers' ring all-reduce on
# their leaf-spine (16 hosts per leaf, 16 spines, 400 Gb/s, 1 us links), 1500-byte MTU, for the
# issue's two workloads: N = 64 with 16 MiB and N = 512 with 1 MiB. ns-3 runs
# ../shared/peers/ns3_allreduce (TCP NewReno, MSS 1448, d-mod-k routes); gpufabric runs
# bench/packet_ns3_bench (same platform from bench/clusters/peer-leafspine.yaml, packet model,
# 1448-byte payloads + 54-byte headers; lossless links and no TCP, so no slow start, unless
# GF_TCP=1, which runs the links lossy with TCP NewReno in the engine, as ns-3 does).
#
#   bench/ns3_compare.sh                 both workloads
#   bench/ns3_compare.sh 64:16MiB        the N:S pairs given
#
# Prints one table: N, S, both simulated times and busbw, the busbw difference, both wall times
# (as each program reports it) and their ratio, each process's CPU time (user + sys) and peak
# memory; PASS when busbw is within 10 % of ns-3's and gpufabric is at least 20x faster in wall
# time (the issue's targets). Exit status 1 if any row fails. Raw CSV rows go to $RAW (default
# /tmp/ns3_compare_raw.csv).
#
# Environment: GF_BUILD (default build-rel), PEERS_BUILD (default build-ns3-peers), PEERS_DIR
# (default ../shared/peers), RING (stream|sync, default stream), GF_TCP=1 (gpufabric runs TCP
# over lossy links: packet_ns3_bench --tcp), NS3_TIMEOUT (s, default 1800),
# NO_BUILD=1 (use the binaries already built). Installs ns3 and libns3-dev with apt-get when
# missing; gpufabric's own build does not need them.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
gf_build="${GF_BUILD:-build-rel}"
peers_build="${PEERS_BUILD:-build-ns3-peers}"
peers_dir="${PEERS_DIR:-$root/../shared/peers}"
ring="${RING:-stream}"
ns3_timeout="${NS3_TIMEOUT:-1800}"
raw="${RAW:-/tmp/ns3_compare_raw.csv}"

log() { echo "[ns3_compare] $*" >&2; }

case "${1:-}" in
  "") pairs=(64:16MiB 512:1MiB) ;;
  -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
  *) pairs=("$@") ;;
esac
for p in "${pairs[@]}"; do
  n="${p%%:*}"
  if ! [[ "$p" == *:* && "$n" =~ ^[0-9]+$ ]] || (( n < 32 || n % 16 != 0 )); then
    echo "error: expected N:SIZE with N a multiple of 16, at least 32 (got '$p')" >&2
    exit 2
  fi
done

# ---------------------------------------------------------------- ns-3 (installed here only)
if [ ! -f /usr/include/ns3/core-module.h ]; then
  log "libns3-dev missing: installing ns3 and libns3-dev"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get install -y ns3 libns3-dev pkg-config >&2
fi

# ---------------------------------------------------------------- builds (Release)
if [ "${NO_BUILD:-0}" != 1 ]; then
  log "building gpufabric's packet_ns3_bench in $gf_build"
  cmake -S . -B "$gf_build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$gf_build" -j2 --target packet_ns3_bench >&2
  log "building the peers in $peers_build"
  cmake -S "$peers_dir" -B "$peers_build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$peers_build" -j2 --target ns3_allreduce >&2
fi
GF="$gf_build/bench/packet_ns3_bench"
gf_tcp=()
[ "${GF_TCP:-0}" = 1 ] && gf_tcp=(--tcp)
NS="$peers_build/ns3_allreduce"

# ---------------------------------------------------------------- runs
: > "$raw"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
rows=()
fails=0
for p in "${pairs[@]}"; do
  n="${p%%:*}"
  size="${p#*:}"
  log "N=$n S=$size $ring: gpufabric"
  gf_row=$(/usr/bin/time -o "$tmp/gf" -f "%U %S %M" "$GF" --n "$n" --size "$size" --ring "$ring" "${gf_tcp[@]}" --csv)
  echo "$gf_row" >> "$raw"
  log "N=$n S=$size $ring: ns-3"
  if ns_row=$(/usr/bin/time -o "$tmp/ns" -f "%U %S %M" timeout "$ns3_timeout" "$NS" --n "$n" --size "$size" \
              --ring "$ring" --csv 2>/dev/null); then
    echo "$ns_row" >> "$raw"
  else
    log "ns-3 failed or ran past ${ns3_timeout}s at N=$n"
    ns_row="ns3,leafspine,$n,0,-1,0,$ns3_timeout,0,allreduce"
    echo "0 0 0" > "$tmp/ns"
  fi
  read -r gf_u gf_s gf_kb < <(tail -1 "$tmp/gf")
  read -r ns_u ns_s ns_kb < <(tail -1 "$tmp/ns")
  # ns-3: tool,topology,N,S,sim_time_s,busbw_GBps,wall_s,events,...
  # gpufabric: tool,N,S,ring,sim_time_s,busbw_GBps,wall_s,setup_s,run_s,packet_hops,events,hops_per_s,peak_packets,rss
  row=$(awk -v n="$n" -v size="$size" -v g="$gf_row" -v s="$ns_row" \
            -v nsu="$ns_u" -v nss="$ns_s" -v gfu="$gf_u" -v gfs="$gf_s" \
            -v nsm="$ns_kb" -v gfm="$gf_kb" 'BEGIN {
    split(g, G, ","); split(s, S, ",");
    ns_t = S[5]; ns_b = S[6]; ns_w = S[7]; ns_e = S[8]; gf_t = G[5]; gf_b = G[6]; gf_w = G[7]; gf_e = G[11];
    nsc = nsu + nss; gfc = gfu + gfs;
    mem = sprintf("%7.0f %7.0f", nsm / 1024, gfm / 1024);
    if (ns_t <= 0) { printf "%5d %7s  %12s %12.6g  %8s %8.3f  %8s  %9s %8.3f  %7s  %8s %7.1f  %s  FAIL (ns-3 did not finish)\n", n, size, "-", gf_t, "-", gf_b, "-", ">" ns_w, gf_w, "-", "-", gfc, mem; exit 1 }
    rel = (gf_b - ns_b) / ns_b; arel = rel < 0 ? -rel : rel;
    ratio = gf_w > 0 ? ns_w / gf_w : 1e99;
    ok = (arel <= 0.10 && ratio >= 20);
    printf "%5d %7s  %12.6g %12.6g  %8.3f %8.3f  %+7.3f  %9.3f %8.3f  %7.1f  %8.1f %7.1f  %s  %11d %11d  %s\n", n, size, ns_t, gf_t, ns_b, gf_b, rel,
           ns_w, gf_w, ratio, nsc, gfc, mem, ns_e, gf_e,
           ok ? "PASS" : (arel > 0.10 ? (ratio >= 20 ? "FAIL (busbw)" : "FAIL (busbw, wall)") : "FAIL (wall < 20x)");
    exit ok ? 0 : 1 }') || fails=$((fails + 1))
  rows+=("$row")
  echo "$row" >&2
done

# ---------------------------------------------------------------- table
echo "# ring all-reduce ($ring), gpufabric $([ "${GF_TCP:-0}" = 1 ] && echo "TCP over lossy links" || echo "lossless, no TCP"), leaf-spine 16 hosts/leaf, 16 spines, 400 Gb/s, 1 us links, MTU 1500; $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores"
printf "%5s %7s  %12s %12s  %8s %8s  %7s  %9s %8s  %7s  %8s %7s  %7s %7s  %11s %11s  %s\n" N S "ns-3 sim s" "gf sim s" \
  "ns3 GB/s" "gf GB/s" "busbw d" "ns-3 wall" "gf wall" "ratio" "ns3 cpu" "gf cpu" "ns3 MiB" "gf MiB" "ns-3 events" "gf events" \
  "target (busbw within 10%, >=20x wall)"
printf "%s\n" "${rows[@]}"
if (( fails > 0 )); then
  echo "# $fails row(s) missed a target"
  exit 1
fi
echo "# every row met both targets"
