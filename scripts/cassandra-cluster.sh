#!/usr/bin/env bash
# Run a three-node Apache Cassandra 5.0 cluster on loopback addresses for
# integration tests: the nodes of scripts/cassandra.sh (same cached
# distribution, same configuration template), one per address, each with the
# usual ports (CQL 9042, internode 7000), beside the single node on 127.0.0.1.
#
# Usage: scripts/cassandra-cluster.sh COMMAND [args]
#
#   start         start every node that is down (in parallel), then wait until
#                 the cluster is ready: each node answers CQL and a write at
#                 consistency ALL to a keyspace replicated on every node
#                 succeeds through each node as coordinator (so every node sees
#                 the others up and normal)
#   stop          stop every node (SIGTERM, then SIGKILL after
#                 CASSANDRA_STOP_TIMEOUT seconds)
#   status        each node's state; exit 0 only when the cluster is ready
#   kill N        SIGKILL node N (1..3) at once
#   freeze N      SIGSTOP node N (a node that hangs); thaw N sends SIGCONT
#   start-node N  start node N if it is down and wait for its CQL (and, when
#                 every node runs, for the whole cluster to be ready)
#   wipe          kill every node and delete the cluster's directory
#   hosts         print the nodes' addresses, comma-separated
#   cql ...       run CQL on node 1 (scripts/cassandra/cql.py; --host H picks
#                 another node, --consistency CL the consistency level)
#
# Node N lives in DIR/nodeN (conf/, data/, logs/system.log, cassandra.pid).
# The nodes' tokens are evenly spaced over the Murmur3 ring, auto_bootstrap is
# off and every node is a seed, so the nodes start together or one by one in
# any order. A node only knows the pid of a node started from the same DIR:
# status counts a node that answers CQL as up wherever it was started from.
#
# Environment (besides scripts/cassandra.sh's YCSB_CACHE, CASSANDRA_JAVA,
# CASSANDRA_START_TIMEOUT, CASSANDRA_STOP_TIMEOUT, CASSANDRA_JVM_OPTS, ...):
#   CASSANDRA_CLUSTER_DIR    the nodes' parent directory
#                            (default <repo>/.cache/cassandra-cluster)
#   CASSANDRA_CLUSTER_HOSTS  the nodes' addresses, space- or comma-separated
#                            (default 127.0.0.2 127.0.0.3 127.0.0.4). A test's
#                            own cluster uses others (e.g. 127.0.0.5-7) and its
#                            own DIR; 127.0.0.1 is the single node's
#   CASSANDRA_CLUSTER_NAME   cluster name (default ycsb-cluster)
#   CASSANDRA_HEAP_MIN/MAX   each node's JVM heap (default 256m / 512m)
#   CASSANDRA_PORT           CQL port of every node (default 9042)
#   CASSANDRA_STORAGE_PORT   internode port of every node (default 7000)
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$SCRIPT_DIR/.." && pwd)"
NODE_SCRIPT="$SCRIPT_DIR/cassandra.sh"
CQL="$SCRIPT_DIR/cassandra/cql.py"

BASE="${CASSANDRA_CLUSTER_DIR:-$REPO/.cache/cassandra-cluster}"
[[ "$BASE" == /* ]] || BASE="$PWD/$BASE"
read -r -a HOSTS <<<"$(echo "${CASSANDRA_CLUSTER_HOSTS:-127.0.0.2 127.0.0.3 127.0.0.4}" | tr ',' ' ')"
CLUSTER_NAME="${CASSANDRA_CLUSTER_NAME:-ycsb-cluster}"
PORT="${CASSANDRA_PORT:-9042}"
STORAGE_PORT="${CASSANDRA_STORAGE_PORT:-7000}"
START_TIMEOUT="${CASSANDRA_START_TIMEOUT:-240}"
export CASSANDRA_HEAP_MIN="${CASSANDRA_HEAP_MIN:-256m}"
export CASSANDRA_HEAP_MAX="${CASSANDRA_HEAP_MAX:-512m}"
# The keyspace of the readiness check, replicated on every node.
READY_KS=ycsb_cluster_ready

say() { echo "cassandra-cluster: $*"; }
die() { echo "cassandra-cluster: $*" >&2; exit 1; }
usage_error() { echo "cassandra-cluster: $*" >&2; exit 2; }

N=${#HOSTS[@]}
((N >= 1)) || usage_error "CASSANDRA_CLUSTER_HOSTS is empty"
for h in "${HOSTS[@]}"; do
    [[ "$h" =~ ^[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$ ]] ||
        usage_error "CASSANDRA_CLUSTER_HOSTS: '$h' is not an IPv4 address"
done
[[ "$PORT" =~ ^[0-9]+$ ]] && ((PORT >= 1 && PORT <= 65535)) || usage_error "CASSANDRA_PORT: '$PORT' is not a port in 1..65535"
[[ "$STORAGE_PORT" =~ ^[0-9]+$ ]] && ((STORAGE_PORT >= 1 && STORAGE_PORT <= 65535)) ||
    usage_error "CASSANDRA_STORAGE_PORT: '$STORAGE_PORT' is not a port in 1..65535"

SEEDS=""
for h in "${HOSTS[@]}"; do SEEDS+="${SEEDS:+,}$h:$STORAGE_PORT"; done
# Evenly spaced Murmur3 tokens: node i of n owns (-2^63 + (i-1) * 2^64/n).
read -r -a TOKENS <<<"$(python3 -c 'import sys; n=int(sys.argv[1]); print(" ".join(str(-2**63 + i * 2**64 // n) for i in range(n)))' "$N")"

# node_index N: the 0-based index of node N (1..n), or exit 2.
node_index() {
    [[ "${1:-}" =~ ^[0-9]+$ ]] && (($1 >= 1 && $1 <= N)) || usage_error "node number must be 1..$N, not '${1:-}'"
    echo $(($1 - 1))
}

# node I ARGS...: scripts/cassandra.sh ARGS for node index I.
node() {
    local i=$1
    shift
    CASSANDRA_HOME_DIR="$BASE/node$((i + 1))" \
        CASSANDRA_HOST="${HOSTS[$i]}" \
        CASSANDRA_PORT="$PORT" \
        CASSANDRA_STORAGE_PORT="$STORAGE_PORT" \
        CASSANDRA_SEEDS="$SEEDS" \
        CASSANDRA_CLUSTER_NAME="$CLUSTER_NAME" \
        CASSANDRA_INITIAL_TOKEN="${TOKENS[$i]}" \
        CASSANDRA_UNSAFE_SYSTEM=false \
        "$NODE_SCRIPT" "$@"
}

# answers I [TIMEOUT]: node index I answers CQL.
answers() {
    python3 "$CQL" --host "${HOSTS[$1]}" --port "$PORT" --timeout "${2:-5}" --quiet >/dev/null 2>&1
}

# node_pid I: the pid of node index I when started from this directory.
node_pid() {
    local f="$BASE/node$(($1 + 1))/cassandra.pid" pid
    [[ -f "$f" ]] || return 1
    pid=$(tr -dc '0-9' <"$f")
    [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
    echo "$pid"
}

rss_mib() {
    awk '/^VmRSS:/{printf "%d", $2/1024}' "/proc/$1/status" 2>/dev/null || echo "?"
}

# ready_once: every node, as coordinator, writes at ALL to a keyspace that
# every node replicates. Prints the first failure on stderr.
ready_once() {
    local i err
    if ! err=$(python3 "$CQL" --host "${HOSTS[0]}" --port "$PORT" --timeout 10 --quiet \
        "CREATE KEYSPACE IF NOT EXISTS $READY_KS WITH replication = {'class': 'SimpleStrategy', 'replication_factor': $N}" \
        "CREATE TABLE IF NOT EXISTS $READY_KS.probe (k int PRIMARY KEY, v text)" 2>&1); then
        echo "${HOSTS[0]}: $err" >&2
        return 1
    fi
    for ((i = 0; i < N; i++)); do
        if ! err=$(python3 "$CQL" --host "${HOSTS[$i]}" --port "$PORT" --timeout 10 --quiet --consistency ALL \
            "INSERT INTO $READY_KS.probe (k, v) VALUES ($i, '${HOSTS[$i]}')" 2>&1); then
            echo "${HOSTS[$i]}: $err" >&2
            return 1
        fi
    done
}

# wait_ready T0: poll ready_once until it passes or START_TIMEOUT.
wait_ready() {
    local t0=$1 last=""
    while :; do
        if last=$(ready_once 2>&1); then
            local rss="" i pid
            for ((i = 0; i < N; i++)); do
                pid=$(node_pid "$i") && rss+="${rss:+/}$(rss_mib "$pid")" || rss+="${rss:+/}?"
            done
            say "ready: $N nodes up on ${HOSTS[*]} port $PORT, a keyspace at RF=$N written at ALL through each, in $((SECONDS - t0))s; rss $rss MiB (heap $CASSANDRA_HEAP_MIN/$CASSANDRA_HEAP_MAX)"
            return 0
        fi
        if ((SECONDS - t0 >= START_TIMEOUT)); then
            die "not ready after ${START_TIMEOUT}s: $last"
        fi
        sleep 1
    done
}

cmd_start() {
    local t0=$SECONDS i pids=() names=() failed=0
    for ((i = 0; i < N; i++)); do
        if answers "$i"; then
            node_pid "$i" >/dev/null || say "${HOSTS[$i]} answers CQL (started from another directory than $BASE)"
            continue
        fi
        # Down, or still starting: scripts/cassandra.sh start starts it or waits.
        node "$i" start &
        pids+=($!)
        names+=("${HOSTS[$i]}")
    done
    for i in "${!pids[@]}"; do
        wait "${pids[$i]}" || { echo "cassandra-cluster: node ${names[$i]} did not start" >&2; failed=1; }
    done
    ((failed == 0)) || exit 1
    wait_ready "$t0"
}

cmd_start_node() {
    local i t0=$SECONDS j all=1
    i=$(node_index "${1:-}")
    node "$i" start
    for ((j = 0; j < N; j++)); do
        ((j == i)) && continue
        answers "$j" 2 || all=0
    done
    if ((all)); then
        wait_ready "$t0"
    else
        say "node $((i + 1)) (${HOSTS[$i]}) answers; not every other node does, so the cluster is not waited for"
    fi
}

cmd_stop() {
    local i pids=() failed=0
    for ((i = 0; i < N; i++)); do
        node "$i" stop &
        pids+=($!)
    done
    for i in "${pids[@]}"; do wait "$i" || failed=1; done
    return $failed
}

cmd_status() {
    local i pid up=0 state
    for ((i = 0; i < N; i++)); do
        pid=$(node_pid "$i") || pid=""
        if answers "$i"; then
            up=$((up + 1))
            state="answers CQL"
        elif [[ -n "$pid" && "$(awk '/^State:/{print $2}' "/proc/$pid/status" 2>/dev/null)" == T ]]; then
            state="frozen (SIGSTOP)"
        elif [[ -n "$pid" ]]; then
            state="running, not answering CQL"
        else
            state="down"
        fi
        say "node $((i + 1)) ${HOSTS[$i]}:$PORT: $state${pid:+ (pid $pid, rss $(rss_mib "$pid") MiB)}"
    done
    if ((up < N)); then
        say "not ready: $up of $N nodes answer"
        return 1
    fi
    local err
    if ! err=$(ready_once 2>&1); then
        say "not ready: $err"
        return 1
    fi
    say "ready"
}

cmd_wipe() {
    # The data goes: SIGKILL, not a drain of up to CASSANDRA_STOP_TIMEOUT.
    local i pids=()
    for ((i = 0; i < N; i++)); do
        node "$i" kill &
        pids+=($!)
    done
    for i in "${pids[@]}"; do wait "$i" || true; done
    case "$BASE" in
        "" | / | "$HOME" | "$REPO" | "$REPO/.cache") die "refusing to delete '$BASE'" ;;
    esac
    rm -rf "$BASE"
    say "wiped $BASE"
}

usage() {
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'
}

case "${1:-}" in
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    kill | freeze | thaw)
        i=$(node_index "${2:-}") # exits 2 on a bad number, before any signal
        node "$i" "$1"
        ;;
    start-node) cmd_start_node "${2:-}" ;;
    wipe) cmd_wipe ;;
    hosts) (IFS=,; echo "${HOSTS[*]}") ;;
    cql) shift; exec python3 "$CQL" --host "${HOSTS[0]}" --port "$PORT" "$@" ;;
    help | -h | --help) usage ;;
    *) usage >&2; exit 2 ;;
esac
