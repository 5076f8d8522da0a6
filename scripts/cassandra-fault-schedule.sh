#!/usr/bin/env bash
# Run a client command against a three-node cluster under docs/cassandra.md's
# fault schedule and print what it did each second: node 1 frozen (SIGSTOP)
# from FREEZE_AT for FREEZE_FOR seconds, node 2 killed (SIGKILL) at KILL_AT,
# every time from the command's start, or with FAULT_START_MARK from the first
# line of its output that matches that regular expression (its first interval
# line: a JVM's start can take tens of seconds on a busy machine, and the
# schedule is the measured run's). The cluster is scripts/cassandra-cluster.sh's
# at CASSANDRA_CLUSTER_HOSTS in CASSANDRA_CLUSTER_DIR: give addresses and a
# directory of your own; the script refuses the shared cluster's
# (127.0.0.2-4) and the single node's (127.0.0.1). It starts the nodes that
# are down first, so a run after a kill finds the cluster whole again.
#
# Usage: CASSANDRA_CLUSTER_HOSTS=127.0.0.81,127.0.0.82,127.0.0.83 \
#          CASSANDRA_CLUSTER_DIR=/tmp/faults scripts/cassandra-fault-schedule.sh \
#          OUT_PREFIX -- COMMAND ARGS...
#
# Writes OUT_PREFIX.out and OUT_PREFIX.err (the command's output) and
# OUT_PREFIX.faults (each fault's time from the start, in seconds). The
# per-second figures are in the command's own interval lines (cassandra-stress
# and ycsb stress: -log interval=1s; ycsb run: status.interval=1 and the JSON
# report's intervals).
#
# Environment: FREEZE_AT (10), FREEZE_FOR (10), KILL_AT (30); FAULT_START_MARK
# (e.g. '^total,' for cassandra-stress and ycsb stress, ' [0-9]+ sec: ' for
# ycsb run's status lines) and FAULT_START_FILE (out, the default, or err:
# which of the command's outputs it is looked for in; 120 s at most).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CLUSTER="$SCRIPT_DIR/cassandra-cluster.sh"
FREEZE_AT="${FREEZE_AT:-10}"
FREEZE_FOR="${FREEZE_FOR:-10}"
KILL_AT="${KILL_AT:-30}"

die() { echo "cassandra-fault-schedule: $*" >&2; exit 2; }

[ $# -ge 3 ] && [ "$2" = "--" ] || die "usage: OUT_PREFIX -- COMMAND ARGS..."
out=$1
shift 2
[ -n "${CASSANDRA_CLUSTER_HOSTS:-}" ] || die "set CASSANDRA_CLUSTER_HOSTS to addresses of your own"
[ -n "${CASSANDRA_CLUSTER_DIR:-}" ] || die "set CASSANDRA_CLUSTER_DIR to a directory of your own"
for h in $(echo "$CASSANDRA_CLUSTER_HOSTS" | tr ',' ' '); do
    case "$h" in
        127.0.0.1 | 127.0.0.2 | 127.0.0.3 | 127.0.0.4) die "$h is a shared server's address: never frozen or killed" ;;
    esac
done
for n in "$FREEZE_AT" "$FREEZE_FOR" "$KILL_AT"; do
    [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -le 3600 ] || die "FREEZE_AT, FREEZE_FOR and KILL_AT are whole seconds up to 3600"
done

"$CLUSTER" start >&2
"$@" >"$out.out" 2>"$out.err" &
pid=$!
if [ -n "${FAULT_START_MARK:-}" ]; then
    for _ in $(seq 1200); do
        grep -Eq -- "$FAULT_START_MARK" "$out.${FAULT_START_FILE:-out}" 2>/dev/null && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
fi
t0=$(date +%s.%N)
since() { echo "$(date +%s.%N) - $t0" | bc; }
{
    sleep "$FREEZE_AT"
    echo "freeze node 1 at $(since) s"
    "$CLUSTER" freeze 1 >&2
    echo "frozen at $(since) s"
    sleep "$FREEZE_FOR"
    "$CLUSTER" thaw 1 >&2
    echo "thawed at $(since) s"
    sleep "$(echo "$KILL_AT - $(since)" | bc | sed 's/^-.*/0/')"
    "$CLUSTER" kill 2 >&2
    echo "killed node 2 at $(since) s"
} >"$out.faults" &
faults=$!
rc=0
wait "$pid" || rc=$?
wait "$faults" || true
"$CLUSTER" thaw 1 >/dev/null 2>&1 || true
cat "$out.faults"
echo "exit $rc"
