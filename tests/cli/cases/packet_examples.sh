# The packet model's example scenarios (examples/incast-pfc*.yaml, permutation-fat-tree.yaml,
# congestion-spreading.yaml) run with `gpufabric run` and show, in the model statistics the
# report prints, the behaviour each one is there for. Paths are relative to the repository root.
ex="$(dirname "${BASH_SOURCE[0]}")/../../../examples"

# PFC incast: lossless (0 drops) and the switch pauses the senders (a non-zero pause count).
expect "example incast-pfc pauses, never drops" 0 "Model statistics \(packet\).*drops +0[[:space:]].*pause_frames +[1-9][0-9,]*[[:space:]]" -- run "$ex/incast-pfc.yaml"
# With DCQCN: ECN marks and CNPs appear.
expect "example incast-pfc-dcqcn marks" 0 "pause_frames +[0-9,]+[[:space:]]+ecn_marks +[1-9][0-9,]*[[:space:]]+cnps +[1-9]" -- run "$ex/incast-pfc-dcqcn.yaml"

# ... and fewer pause frames than PFC alone (the issue's "with PFC and DCQCN, fewer pauses").
pauses() { "$bin" run "$1" --format json | grep -Eo '"pause_frames": *[0-9]+' | grep -Eo '[0-9]+$'; }
p_pfc=$(pauses "$ex/incast-pfc.yaml")
p_dcqcn=$(pauses "$ex/incast-pfc-dcqcn.yaml")
if [ -n "$p_pfc" ] && [ -n "$p_dcqcn" ] && [ "$p_dcqcn" -lt "$p_pfc" ]; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL example incast DCQCN pauses less: pfc '$p_pfc', pfc+dcqcn '$p_dcqcn'"
fi

# The same incast on lossy Ethernet with TCP (the two lines the example's comment names): drops,
# and at least as many retransmissions as drops.
sed -e 's/^  flow_control: pfc/  flow_control: none/' -e 's/^  congestion_control: none/  congestion_control: tcp/' \
  -e 's|^cluster: roce-hosts-one-switch.yaml|cluster: '"$ex"'/roce-hosts-one-switch.yaml|' "$ex/incast-pfc.yaml" >"$tmp/incast-tcp.yaml"
expect "example incast on lossy TCP drops" 0 "drops +[1-9][0-9,]*[[:space:]]+retransmissions +[1-9][0-9,]*[[:space:]].*pause_frames +0[[:space:]]" -- run "$tmp/incast-tcp.yaml"

# Congestion spreading: the victim's job takes far longer than its 8 MiB alone (0.67 ms at
# 12.5 GB/s): over 2,000 us, a four-digit mean_us, while pause frames are sent.
expect "example congestion-spreading slows the victim" 0 "victim +0 +sendrecv +8.00 MiB +servers 1,7 x 1 GPU +2 +1 +0.00 +[2-9][0-9]{3}\.[0-9]+ .*pause_frames +[1-9]" -- run "$ex/congestion-spreading.yaml"

# Permutation on the fat-tree: ECMP hashing and per-packet adaptive routing both finish; adaptive
# has the shorter makespan (collisions dissolve).
makespan() { "$bin" run "$1" --format json | grep -Eo '"makespan_us": *[0-9.]+' | grep -Eo '[0-9]+\.?[0-9]*$' | cut -d. -f1; }
sed -e 's/^  load_balance: ecmp /  load_balance: adaptive /' \
  -e 's|^cluster: ib-hosts-fat-tree-k4.yaml|cluster: '"$ex"'/ib-hosts-fat-tree-k4.yaml|' "$ex/permutation-fat-tree.yaml" >"$tmp/perm-adaptive.yaml"
expect "example permutation-fat-tree runs" 0 "model packet, routing ecmp.*p7 +0 +sendrecv +16.00 MiB" -- run "$ex/permutation-fat-tree.yaml"
m_ecmp=$(makespan "$ex/permutation-fat-tree.yaml")
m_adaptive=$(makespan "$tmp/perm-adaptive.yaml")
if [ -n "$m_ecmp" ] && [ -n "$m_adaptive" ] && [ "$m_adaptive" -lt "$m_ecmp" ]; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL example permutation adaptive beats ECMP: ecmp '$m_ecmp' us, adaptive '$m_adaptive' us"
fi

# Congestion spreading inside the fabric (congestion-spreading-fabric.yaml): the victim's time
# against its time alone (the same file without the incast jobs h4-h11). Bounds, from the seeds'
# claims rather than the model's figures: under PFC the victim is held up behind the incast's
# paused queues, so it takes at least twice as long as alone; on lossy Ethernet nothing pauses, so
# it takes at most 1.3x (it still shares links with the incast's backed-off flows); on InfiniBand
# credits stall links as PFC does, and per-packet adaptive routing shortens the victim's time
# against per-flow ECMP by letting its packets take the least-backed-up core links.
victim_us() { "$bin" run "$1" --format json | grep -Eo '"mean_us": *[0-9.]+' | head -1 | grep -Eo '[0-9]+\.?[0-9]*$' | cut -d. -f1; }
spread="$ex/congestion-spreading-fabric.yaml"
fix_cluster() { sed -e 's|^cluster: \(.*\)$|cluster: '"$ex"'/\1|' "$@"; }
fix_cluster -e '/name: h[0-9]/d' "$spread" >"$tmp/spread-alone.yaml"
fix_cluster -e 's/^  flow_control: pfc/  flow_control: none/' -e 's/^  congestion_control: none/  congestion_control: tcp/' "$spread" >"$tmp/spread-lossy.yaml"
fix_cluster -e 's/roce-hosts-fat-tree-k4/ib-hosts-fat-tree-k4/' -e '/^  flow_control:/d' -e '/^  congestion_control:/d' "$spread" >"$tmp/spread-ib.yaml"
sed -e 's/^  load_balance: ecmp /  load_balance: adaptive /' "$tmp/spread-ib.yaml" >"$tmp/spread-ib-adaptive.yaml"
expect "example congestion-spreading-fabric pauses" 0 "victim +0 +sendrecv +16.00 MiB.*pause_frames +[1-9]" -- run "$spread"
v_alone=$(victim_us "$tmp/spread-alone.yaml")
v_pfc=$(victim_us "$spread")
v_lossy=$(victim_us "$tmp/spread-lossy.yaml")
v_ib=$(victim_us "$tmp/spread-ib.yaml")
v_ib_ar=$(victim_us "$tmp/spread-ib-adaptive.yaml")
if [ -n "$v_alone" ] && [ -n "$v_pfc" ] && [ -n "$v_lossy" ] && [ -n "$v_ib" ] && [ -n "$v_ib_ar" ] &&
   [ "$v_pfc" -ge $((2 * v_alone)) ] && [ $((10 * v_lossy)) -le $((13 * v_alone)) ] && [ "$v_ib_ar" -lt "$v_ib" ]; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL congestion spreading in the fabric: alone '$v_alone', pfc '$v_pfc', lossy '$v_lossy', ib ecmp '$v_ib', ib adaptive '$v_ib_ar' us"
fi

# InfiniBand congestion control with adaptive routing (congestion-spreading-ibcc.yaml): the
# victim starts at 3 ms, after the control has throttled the incast. Bounds, from the physics
# rather than the model's figures: once the incast is held to its share of host 0's port, no
# upstream queue stays full, and adaptive routing spreads the victim over core links that each
# carry about a quarter of one port's incast traffic, so it meets no full link and takes its time
# alone (5 % slack for the packets it queues behind at shared ports). Without congestion control
# the credits keep the congestion tree standing and the victim queues behind it: at least 1.5x.
ibcc="$ex/congestion-spreading-ibcc.yaml"
fix_cluster -e '/name: h[0-9]/d' "$ibcc" >"$tmp/ibcc-alone.yaml"
fix_cluster -e 's/^  congestion_control: ibcc .*$/  congestion_control: none/' "$ibcc" >"$tmp/ibcc-none.yaml"
expect "example congestion-spreading-ibcc draws BECNs" 0 "becns +[1-9]" -- run "$ibcc"
c_alone=$(victim_us "$tmp/ibcc-alone.yaml")
c_cc=$(victim_us "$ibcc")
c_none=$(victim_us "$tmp/ibcc-none.yaml")
if [ -n "$c_alone" ] && [ -n "$c_cc" ] && [ -n "$c_none" ] &&
   [ $((100 * c_cc)) -le $((105 * c_alone)) ] && [ $((10 * c_none)) -ge $((15 * c_alone)) ]; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL InfiniBand congestion control isolates the victim: alone '$c_alone', ibcc '$c_cc', no control '$c_none' us"
fi

# Observability: the JSON report lists the deepest queues with their depth over time, and the
# incast's sender ports (paused by PFC) among them with their pause frames.
expect "run --format json lists queues over time" 0 '"queue_bytes": \[' -- run "$ex/incast-pfc.yaml" --format json
expect "run --format json gives queues their pause frames" 0 '"pauses_received": *[1-9]' -- run "$ex/incast-pfc.yaml" --format json
expect "run text report draws the deepest queues" 0 "Deepest egress queues \(10; over_time: mean depth.*switch0 +server0/nic0 +[0-9.]+ KiB" -- run "$ex/incast-pfc.yaml"
