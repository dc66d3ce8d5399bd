#!/usr/bin/env bash
# gpufabric against SimGrid, side by side in one run: the peers' ring all-reduce (64 MiB, 400 Gb/s
# links of 1 us, 16 hosts per leaf, full bisection), step by step, in both step semantics (sync,
# stream), at each N. SimGrid runs ../shared/peers/simgrid_allreduce; gpufabric runs
# bench/peer_ring_bench (same platform from bench/clusters/peer-leafspine.yaml, flow model).
#
#   bench/simgrid_compare.sh            N = 256 512 1024 2048 4096 (SimGrid alone: ~25 min at 2048/4096)
#   bench/simgrid_compare.sh quick      N = 256 512 1024
#   bench/simgrid_compare.sh 256 2048   the N given
#
# Prints one table: N, semantics, both simulated times, their relative difference, both wall
# times (as each program reports it: setup + run; SimGrid's route self-check excluded) and the
# wall ratio SimGrid / gpufabric; PASS when the times agree within 1 % and gpufabric is at least
# 10x faster in wall time. On a shared machine wall time follows the load, so the table also gives
# each process's CPU time (user + sys, from /usr/bin/time, whole process) and peak memory.
# Exit status 1 if any row fails. Raw CSV rows of both tools go to $RAW (default
# /tmp/simgrid_compare_raw.csv).
#
# Environment: GF_BUILD (default build-rel), PEERS_BUILD (default build-peers), PEERS_DIR
# (default ../shared/peers), SIZE (default 64MiB), SIMGRID_TIMEOUT (s, default 1800), RAW,
# NO_BUILD=1 (run the binaries already built there, e.g. while the tree is mid-edit).
# Needs libsimgrid-dev (installed with apt-get when missing); gpufabric's own build does not.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
gf_build="${GF_BUILD:-build-rel}"
peers_build="${PEERS_BUILD:-build-peers}"
peers_dir="${PEERS_DIR:-$root/../shared/peers}"
size="${SIZE:-64MiB}"
sg_timeout="${SIMGRID_TIMEOUT:-1800}"
raw="${RAW:-/tmp/simgrid_compare_raw.csv}"

log() { echo "[simgrid_compare] $*" >&2; }

case "${1:-}" in
  "") ns=(256 512 1024 2048 4096) ;;
  quick) ns=(256 512 1024) ;;
  -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
  *) ns=("$@") ;;
esac
for n in "${ns[@]}"; do
  if ! [[ "$n" =~ ^[0-9]+$ ]] || (( n < 32 || n % 16 != 0 )); then
    echo "error: N must be a multiple of 16, at least 32 (got '$n')" >&2
    exit 2
  fi
done

# ---------------------------------------------------------------- SimGrid (installed here only)
if ! pkg-config --exists simgrid 2>/dev/null; then
  log "libsimgrid-dev missing: installing it"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get install -y libsimgrid-dev pkg-config >&2
fi

# ---------------------------------------------------------------- builds (Release)
if [ "${NO_BUILD:-0}" != 1 ]; then
  log "building gpufabric's peer_ring_bench in $gf_build"
  cmake -S . -B "$gf_build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$gf_build" -j2 --target peer_ring_bench >&2
  log "building the peers in $peers_build"
  cmake -S "$peers_dir" -B "$peers_build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$peers_build" -j2 --target simgrid_allreduce >&2
fi
GF="$gf_build/bench/peer_ring_bench"
SG="$peers_build/simgrid_allreduce"

# ---------------------------------------------------------------- runs
: > "$raw"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
rows=()
fails=0
for n in "${ns[@]}"; do
  for ring in sync stream; do
    log "N=$n $ring: gpufabric"
    gf_row=$(/usr/bin/time -o "$tmp/gf" -f "%U %S %M" "$GF" --n "$n" --size "$size" --ring "$ring" --csv)
    echo "$gf_row" >> "$raw"
    log "N=$n $ring: SimGrid"
    if sg_row=$(/usr/bin/time -o "$tmp/sg" -f "%U %S %M" timeout "$sg_timeout" "$SG" --n "$n" --size "$size" \
                --ring "$ring" --csv 2>/dev/null); then
      echo "$sg_row" >> "$raw"
    else
      log "SimGrid failed or ran past ${sg_timeout}s at N=$n $ring"
      sg_row="simgrid,leafspine,$n,0,-1,0,$sg_timeout,0,allreduce"
      echo "0 0 0" > "$tmp/sg"
    fi
    read -r gf_u gf_s gf_kb < <(tail -1 "$tmp/gf")
    read -r sg_u sg_s sg_kb < <(tail -1 "$tmp/sg")
    # simgrid: tool,topology,N,S,sim_time_s,busbw,wall_s,...   gpufabric: tool,N,S,ring,sim_time_s,wall_s,...
    row=$(awk -F, -v n="$n" -v ring="$ring" -v g="$gf_row" -v s="$sg_row" \
              -v sgu="$sg_u" -v sgs="$sg_s" -v gfu="$gf_u" -v gfs="$gf_s" \
              -v sgm="$sg_kb" -v gfm="$gf_kb" 'BEGIN {
      split(g, G, ","); split(s, S, ",");
      sg_t = S[5]; sg_w = S[7]; gf_t = G[5]; gf_w = G[6];
      sgc = sgu + sgs; gfc = gfu + gfs; cpu_ratio = gfc > 0 ? sgc / gfc : 0;
      mem = sprintf("%7.0f %7.0f", sgm / 1024, gfm / 1024);
      if (sg_t <= 0) { printf "%6d  %-6s  %14s  %14.9g  %9s  %10s  %9.3f  %8s  %8s %8.1f %7s  %s  FAIL (SimGrid did not finish)\n", n, ring, "-", gf_t, "-", ">" sg_w, gf_w, "-", "-", gfc, "-", mem; exit 1 }
      rel = (gf_t - sg_t) / sg_t; arel = rel < 0 ? -rel : rel;
      ratio = gf_w > 0 ? sg_w / gf_w : 1e99;
      ok = (arel <= 0.01 && ratio >= 10);
      printf "%6d  %-6s  %14.9g  %14.9g  %+9.2e  %10.3f  %9.3f  %8.1f  %8.1f %8.1f %7.1f  %s  %s\n", n, ring, sg_t, gf_t, rel, sg_w, gf_w, ratio,
             sgc, gfc, cpu_ratio, mem,
             ok ? "PASS" : (arel > 0.01 ? (ratio >= 10 ? "FAIL (time)" : "FAIL (time, wall)") : "FAIL (wall < 10x)");
      exit ok ? 0 : 1 }') || fails=$((fails + 1))
    rows+=("$row")
    echo "$row" >&2
  done
done

# ---------------------------------------------------------------- table
echo "# ring all-reduce, $size, leaf-spine 16 hosts/leaf, 16 spines, 400 Gb/s, 1 us links; $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores"
printf "%6s  %-6s  %14s  %14s  %9s  %10s  %9s  %8s  %8s %8s %7s  %7s %7s  %s\n" N ring "SimGrid sim s" "gpufabric s" \
  "rel diff" "SimGrid wall" "gf wall" "ratio" "SG cpu" "gf cpu" "ratio" "SG MiB" "gf MiB" "target (<1% and >=10x wall)"
printf "%s\n" "${rows[@]}"
if (( fails > 0 )); then
  echo "# $fails row(s) missed a target"
  exit 1
fi
echo "# every row met both targets"
