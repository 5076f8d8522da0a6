#!/usr/bin/env bash
# Run a Redis Cluster on loopback for the redis binding's tests and
# benchmarks: Debian's redis-server, three masters with one replica each,
# ports 7001-7006 on 127.0.0.1, nothing persisted, and a short
# cluster-node-timeout so that a replica takes over from a dead master
# within a few seconds.
#
# Usage: scripts/redis-cluster.sh COMMAND [args]
#
#   start      start the nodes and create the cluster (redis-cli --cluster
#              create), then wait until every node's CLUSTER INFO says
#              cluster_state:ok and every replica's link to its master is
#              up; prints the nodes' addresses. A cluster
#              that already runs and is ok is left as it is; one with nodes
#              missing is wiped and made again.
#   stop       stop every node (SHUTDOWN NOSAVE, then SIGKILL)
#   status     each node's role; exit 0 only when every node runs and says ok
#   addrs      print the nodes' addresses, comma-separated
#   kill PORT  SIGKILL the node on PORT; freeze PORT sends SIGSTOP, thaw
#              PORT SIGCONT, start-node PORT starts it again (it rejoins as
#              it left: its nodes.conf is kept)
#
# Node P lives in DIR/P (nodes.conf, redis.pid, redis.log). A replica takes
# over however long ago it last heard from its master
# (cluster-replica-validity-factor 0): a test's fault must not leave slots
# without a master because a replica had not caught up yet.
#
# Environment:
#   REDIS_CLUSTER_DIR      the nodes' parent directory
#                          (default <repo>/.cache/redis-cluster)
#   REDIS_CLUSTER_PORT     the first port (default 7001); the nodes take it
#                          and the next five. A test's own cluster takes
#                          other ports (e.g. 7101) and its own DIR.
#   REDIS_NODE_TIMEOUT_MS  cluster-node-timeout (default 1000)
#   REDIS_FULL_COVERAGE    cluster-require-full-coverage, yes or no
#                          (default yes, Redis's): with yes every node
#                          refuses every command (CLUSTERDOWN) from the
#                          moment a master is marked failed until its
#                          replica has taken over; with no the other
#                          masters go on serving their slots
#   REDIS_START_TIMEOUT    seconds to wait for cluster_state:ok (default 30)
set -euo pipefail

NAME=redis-cluster
# shellcheck source=scripts/redis-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/redis-common.sh"
BASE="$(absolute "${REDIS_CLUSTER_DIR:-$REPO/.cache/redis-cluster}")"
FIRST="$(number REDIS_CLUSTER_PORT 7001)"
((FIRST >= 1 && FIRST + 5 <= 55535)) || die "REDIS_CLUSTER_PORT=$FIRST: want 1..55535 (the cluster bus takes port+10000)"
NODE_TIMEOUT="$(number REDIS_NODE_TIMEOUT_MS 1000)"
FULL_COVERAGE="${REDIS_FULL_COVERAGE:-yes}"
[[ "$FULL_COVERAGE" == yes || "$FULL_COVERAGE" == no ]] || die "REDIS_FULL_COVERAGE=$FULL_COVERAGE: want yes or no"
START_TIMEOUT="$(number REDIS_START_TIMEOUT 30)"
PORTS=()
for i in 0 1 2 3 4 5; do PORTS+=($((FIRST + i))); done


cli() { local p=$1; shift; redis-cli -h "$HOST" -p "$p" "$@"; }
up() { [[ "$(cli "$1" PING 2>/dev/null)" == PONG ]]; }
ok() { cli "$1" CLUSTER INFO 2>/dev/null | tr -d '\r' | grep -qx 'cluster_state:ok'; }
addrs() { local IFS=,; local a=(); for p in "${PORTS[@]}"; do a+=("$HOST:$p"); done; echo "${a[*]}"; }

# synced: every replica's link to its master is up (its first copy done),
# so that a replica can take over from the start.
synced() {
    local p
    for p in "${PORTS[@]}"; do
        local info
        info=$(cli "$p" INFO replication 2>/dev/null | tr -d '\r')
        if grep -qx 'role:slave' <<<"$info" && ! grep -qx 'master_link_status:up' <<<"$info"; then
            return 1
        fi
    done
}

all_ok() {
    for p in "${PORTS[@]}"; do ok "$p" || return 1; done
    synced
}

start_node() {
    local p=$1 d="$BASE/$1"
    mkdir -p "$d"
    up "$p" && return 0
    redis-server --port "$p" --bind "$HOST" --dir "$d" --daemonize yes --save "" --appendonly no \
        --pidfile "$d/redis.pid" --logfile "$d/redis.log" \
        --cluster-enabled yes --cluster-config-file "$d/nodes.conf" --cluster-node-timeout "$NODE_TIMEOUT" \
        --cluster-replica-validity-factor 0 --cluster-require-full-coverage "$FULL_COVERAGE" ||
        die "node $p did not start (see $d/redis.log)"
    local deadline=$((SECONDS + START_TIMEOUT))
    until up "$p"; do
        ((SECONDS < deadline)) || die "node $p: no PONG after ${START_TIMEOUT}s (see $d/redis.log)"
        sleep 0.1
    done
}

stop_node() {
    local p=$1 d="$BASE/$1"
    up "$p" && cli "$p" SHUTDOWN NOSAVE >/dev/null 2>&1 || true
    stop_pid "$d/redis.pid" 30
}

signal_node() {
    local sig=$1 p=${2:-}
    [[ " ${PORTS[*]} " == *" $p "* ]] || die "no node on port '${p}' (want one of ${PORTS[*]})"
    [[ -f "$BASE/$p/redis.pid" ]] || die "node $p has no pid file in $BASE/$p"
    kill "-$sig" "$(cat "$BASE/$p/redis.pid")"
}

wait_ok() { wait_until all_ok "cluster_state is not ok on every node" "$BASE/*/redis.log"; }

cmd_start() {
    install
    if all_ok; then
        # Only this setting of the environment's may differ on a running
        # cluster; Redis takes it without a restart.
        for p in "${PORTS[@]}"; do
            cli "$p" CONFIG SET cluster-require-full-coverage "$FULL_COVERAGE" >/dev/null ||
                die "node $p: CONFIG SET cluster-require-full-coverage $FULL_COVERAGE failed"
        done
        say "already running and ok: $(addrs)"
        return 0
    fi
    # Anything less than a whole cluster is made again from scratch.
    for p in "${PORTS[@]}"; do stop_node "$p"; done
    rm -rf "$BASE"
    for p in "${PORTS[@]}"; do start_node "$p"; done
    local a=()
    for p in "${PORTS[@]}"; do a+=("$HOST:$p"); done
    redis-cli --cluster create "${a[@]}" --cluster-replicas 1 --cluster-yes >"$BASE/create.log" 2>&1 ||
        die "redis-cli --cluster create failed (see $BASE/create.log)"
    wait_ok
    say "ready: $(addrs)"
}

cmd_stop() {
    installed || { say "not installed"; return 0; }
    for p in "${PORTS[@]}"; do stop_node "$p"; done
    say "stopped"
}

cmd_status() {
    local rc=0
    for p in "${PORTS[@]}"; do
        if ! up "$p"; then
            say "$HOST:$p down"
            rc=1
            continue
        fi
        local role state
        role=$(cli "$p" ROLE 2>/dev/null | head -1 | tr -d '\r')
        state=$(cli "$p" CLUSTER INFO 2>/dev/null | tr -d '\r' | sed -n 's/^cluster_state://p')
        say "$HOST:$p $role $state"
        [[ "$state" == ok ]] || rc=1
    done
    return $rc
}

case "${1:-help}" in
start) cmd_start ;;
stop) cmd_stop ;;
status) cmd_status ;;
addrs) addrs ;;
kill) signal_node KILL "${2:-}" ;;
freeze) signal_node STOP "${2:-}" ;;
thaw) signal_node CONT "${2:-}" ;;
start-node)
    [[ " ${PORTS[*]} " == *" ${2:-} "* ]] || die "no node on port '${2:-}' (want one of ${PORTS[*]})"
    start_node "$2" ;;
help | -h | --help) usage ;;
*) die "unknown command ${1} (want start, stop, status, addrs, kill, freeze, thaw, start-node)" ;;
esac
