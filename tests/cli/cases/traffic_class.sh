# Traffic classes in the packet model (docs/models.md, "Traffic classes"; docs/scenarios.md, the
# job key `traffic_class`): bad input exits 2 naming file, line and key; the priorities example
# keeps its victim near its time alone.
ex="$(dirname "${BASH_SOURCE[0]}")/../../../examples"

write tc_zero.yaml <<'Y'
cluster: dgx-h100-2node
model: packet
packet:
  traffic_classes: 0
jobs:
  - {name: a, servers: 0-1, calls: [{collective: all_reduce, size: 1M}]}
Y
expect "traffic_classes 0" 2 "tc_zero.yaml:4:[0-9]+: 'packet.traffic_classes': must be 1 to 8, got 0" -- run "$tmp/tc_zero.yaml"

write tc_nine.yaml <<'Y'
cluster: dgx-h100-2node
model: packet
packet:
  traffic_classes: 9
jobs:
  - {name: a, servers: 0-1, calls: [{collective: all_reduce, size: 1M}]}
Y
expect "traffic_classes 9" 2 "tc_nine.yaml:4:[0-9]+: 'packet.traffic_classes': must be 1 to 8, got 9" -- run "$tmp/tc_nine.yaml"

write tc_sched.yaml <<'Y'
cluster: dgx-h100-2node
model: packet
packet:
  traffic_classes: 2
  class_scheduling: strikt
jobs:
  - {name: a, servers: 0-1, calls: [{collective: all_reduce, size: 1M}]}
Y
expect "class_scheduling typo" 2 "tc_sched.yaml:5:[0-9]+: 'packet.class_scheduling': unknown class scheduling 'strikt'.*did you mean 'strict'" -- run "$tmp/tc_sched.yaml"

# A job's class must be below traffic_classes: 2 classes are 0 and 1.
write tc_job.yaml <<'Y'
cluster: dgx-h100-2node
model: packet
packet:
  traffic_classes: 2
jobs:
  - {name: a, servers: 0, calls: [{collective: all_reduce, size: 1M}]}
  - name: b
    servers: 1
    traffic_class: 2
    calls: [{collective: all_reduce, size: 1M}]
Y
expect "job traffic_class >= traffic_classes" 2 "tc_job.yaml:9:[0-9]+: 'jobs\[1\].traffic_class': traffic class 2 does not exist: packet.traffic_classes is 2.*hint: .*traffic_classes: 3" -- run "$tmp/tc_job.yaml"

# Without a packet block there is one class: class 1 is an error too.
write tc_job_one.yaml <<'Y'
cluster: dgx-h100-2node
jobs:
  - {name: a, servers: 0-1, traffic_class: 1, calls: [{collective: all_reduce, size: 1M}]}
Y
expect "job traffic_class without classes" 2 "tc_job_one.yaml:3:[0-9]+: 'jobs\[0\].traffic_class': traffic class 1 does not exist: packet.traffic_classes is 1" -- run "$tmp/tc_job_one.yaml"

# The example runs, and its victim (class 1) stays near its time alone while the incast (class 0)
# is paused. Bounds, from the physics rather than the model's figures: in a class of its own the
# victim is never paused by the incast; it only shares bandwidth on the links it shares with the
# incast's hosts, as on the lossy fabric, where nothing pauses and congestion-spreading-fabric's
# case asserts at most 1.3x alone: the same bound here. (Whatever the ECMP hash puts on its links,
# round robin between two classes leaves it at least half of each, so 2x is the hard ceiling.) It
# must also beat the one-class PFC run of the same file, which that case holds at >= 2x alone.
prio="$ex/congestion-spreading-priorities.yaml"
fix_cluster() { sed -e 's|^cluster: \(.*\)$|cluster: '"$ex"'/\1|' "$@"; }
victim_us() { "$bin" run "$1" --format json | grep -Eo '"mean_us": *[0-9.]+' | head -1 | grep -Eo '[0-9]+\.?[0-9]*$' | cut -d. -f1; }
expect "example congestion-spreading-priorities pauses" 0 "victim +0 +sendrecv +16.00 MiB.*pause_frames +[1-9]" -- run "$prio"
fix_cluster -e '/name: h[0-9]/d' "$prio" >"$tmp/prio-alone.yaml"
fix_cluster -e 's/^  traffic_classes: 2 .*$/  traffic_classes: 1/' -e 's/traffic_class: 1, //' -e '/class_scheduling/d' "$prio" >"$tmp/prio-one.yaml"
t_alone=$(victim_us "$tmp/prio-alone.yaml")
t_two=$(victim_us "$prio")
t_one=$(victim_us "$tmp/prio-one.yaml")
if [ -n "$t_alone" ] && [ -n "$t_two" ] && [ -n "$t_one" ] && [ $((10 * t_two)) -le $((13 * t_alone)) ] && [ "$t_two" -lt "$t_one" ]; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL traffic classes isolate the victim: alone '$t_alone', two classes '$t_two', one class '$t_one' us"
fi

# Classes that carry nothing change nothing: with N classes and N times the port buffer (so class
# 0's share of every buffer is what one class had), traffic all in class 0 must give the one-class
# run's report exactly, under PFC and under InfiniBand credits (4 virtual lanes).
spread="$ex/congestion-spreading-fabric.yaml"
fix_cluster "$spread" >"$tmp/tc-one.yaml"
fix_cluster -e 's/^  load_balance: ecmp /  traffic_classes: 2\n  port_buffer: 1MiB\n  load_balance: ecmp /' "$spread" >"$tmp/tc-two.yaml"
fix_cluster -e 's/roce-hosts-fat-tree-k4/ib-hosts-fat-tree-k4/' -e '/^  flow_control:/d' -e '/^  congestion_control:/d' "$spread" >"$tmp/tc-ib-one.yaml"
fix_cluster -e 's/roce-hosts-fat-tree-k4/ib-hosts-fat-tree-k4/' -e '/^  flow_control:/d' -e '/^  congestion_control:/d' \
  -e 's/^  load_balance: ecmp /  traffic_classes: 4\n  port_buffer: 2MiB\n  load_balance: ecmp /' "$spread" >"$tmp/tc-ib-four.yaml"
report() { "$bin" run "$1" --format json | grep -v '"file":'; }
for pair in "tc-one tc-two" "tc-ib-one tc-ib-four"; do
  set -- $pair
  if [ -n "$(report "$tmp/$1.yaml")" ] && [ "$(report "$tmp/$1.yaml")" = "$(report "$tmp/$2.yaml")" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL unused traffic classes changed the report: $1 against $2"
  fi
done
