#!/usr/bin/env bash
# The whole test suite: what `make test` and CI run.
#
# It prepares what the integration tests need (librocksdb-dev, a local
# PostgreSQL, a local MariaDB with MyRocks, a local Cassandra node, a local Redis
# and a Redis Cluster on 7001-7006 (redis-server and MariaDB are installed by
# their scripts when missing), a three-node Cassandra cluster on 127.0.0.2-4
# started in the background meanwhile), runs vet and a gofmt
# check, then every test with the race detector and the rocksdb build tag,
# with staticcheck and the install check (scripts/install-check.sh: go
# install from a module proxy, the image build) beside them.
#
# With CI=true a missing server is a failure; otherwise the tests that need it
# skip with a message. Set YCSB_NO_SERVERS=1 to skip starting servers.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each line says how long the suite has run, so that a slow phase shows.
say() { echo "test: [${SECONDS}s] $*"; }

have_rocksdb() { [[ -e /usr/include/rocksdb/c.h ]]; }

# Debian packages the tests use: the RocksDB library, tmux (the progress line
# is tested in a real terminal) and, in CI, Chromium (the HTML report is
# tested in a real browser). Installed when missing and we are root.
need=()
have_rocksdb || need+=(librocksdb-dev)
command -v tmux >/dev/null || need+=(tmux)
if [[ "${CI:-}" == "true" ]] && ! command -v chromium >/dev/null; then
    need+=(chromium)
fi
if ((${#need[@]})) && [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    say "installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    (apt-get install -y -q "${need[@]}" >/dev/null 2>&1 ||
        { apt-get update -q >/dev/null && apt-get install -y -q "${need[@]}" >/dev/null; }) ||
        say "could not install ${need[*]}"
fi
TAGS=""
if have_rocksdb; then
    TAGS="-tags rocksdb"
elif [[ "${CI:-}" == "true" ]]; then
    echo "test: librocksdb-dev is required in CI" >&2
    exit 1
else
    say "librocksdb-dev not installed: testing without the rocksdb binding"
fi

# The test servers' JVMs compile with C1 alone: a test's work is short,
# and C2's compiling costs more than it saves before the test ends (a node
# starting and serving 30,000 operations: 9 CPU-seconds against 23-26, the
# operations in 4 s against 9-20 s on a loaded 2-core machine). The nodes
# and clusters the tests start themselves take the same
# (ycsbtest.ServerJVMOptions). Benchmarks (make cassandra-start, the bench
# scripts) keep the JVM's default.
export CASSANDRA_JVM_OPTS="${CASSANDRA_JVM_OPTS:--XX:TieredStopAtLevel=1}"

started=()
bg_pids=()
cleanup() {
    for p in "${bg_pids[@]}"; do
        kill -- "$p" 2>/dev/null || true
    done
    for s in "${started[@]}"; do
        "scripts/$s.sh" stop >/dev/null 2>&1 || true
    done
}
trap cleanup EXIT

# start_server NAME: the shared Cassandra node answers a slow request late
# rather than with a timeout (CASSANDRA_REQUEST_TIMEOUT): its tests check
# answers, and a loaded CI machine once took more than Cassandra's 2 s to
# apply one 65,535-row batch, ten times over. The cluster keeps Cassandra's
# timeouts: its fault tests count them.
start_server() {
    if [[ "$1" == cassandra ]]; then
        CASSANDRA_REQUEST_TIMEOUT="${CASSANDRA_REQUEST_TIMEOUT:-10000}" scripts/cassandra.sh start
    else
        "scripts/$1.sh" start
    fi
}

if [[ -z "${YCSB_NO_SERVERS:-}" ]]; then
    for s in postgres mariadb cassandra redis redis-cluster; do
        if [[ -x "scripts/$s.sh" ]]; then
            if "scripts/$s.sh" status >/dev/null 2>&1; then
                say "$s already running"
            elif start_server "$s"; then
                started+=("$s")
            elif [[ "${CI:-}" == "true" ]]; then
                echo "test: could not start $s" >&2
                exit 1
            else
                say "could not start $s: its integration tests will skip"
            fi
        fi
    done
    # The cluster (about 20 s on a quiet 2-core machine, longer beside the
    # checks) starts in the background while vet runs and the tests build;
    # the tests that use it wait for its start to end
    # (YCSB_CLUSTER_STARTED, read by ycsbtest.CassandraCluster): the file
    # is empty until the start ends, then says "ready" or "failed".
    if scripts/cassandra-cluster.sh status >/dev/null 2>&1; then
        say "cassandra-cluster already running"
    else
        started+=(cassandra-cluster)
        cluster_log=$(mktemp)
        export YCSB_CLUSTER_STARTED
        YCSB_CLUSTER_STARTED=$(mktemp)
        (if scripts/cassandra-cluster.sh start >"$cluster_log" 2>&1; then
            echo ready >"$YCSB_CLUSTER_STARTED"
        else
            echo failed >"$YCSB_CLUSTER_STARTED"
            exit 1
        fi) &
        cluster_pid=$!
    fi
fi

# wait_cluster: the cluster's start has ended and said how; fatal in CI if
# it failed.
wait_cluster() {
    [[ -n "${cluster_pid:-}" ]] || return 0
    if wait "$cluster_pid"; then
        say "cassandra-cluster $(tail -n 1 "$cluster_log" | sed "s/^cassandra-cluster: //")"
    elif [[ "${CI:-}" == "true" ]]; then
        cat "$cluster_log" >&2
        echo "test: could not start cassandra-cluster" >&2
        exit 1
    else
        tail -n 20 "$cluster_log"
        say "could not start cassandra-cluster: its tests will skip"
    fi
    rm -f "$cluster_log" "${YCSB_CLUSTER_STARTED:-}"
    cluster_pid=""
}

say "go vet"
go vet $TAGS ./...
(cd tools/modzip && go vet ./...) # a module of its own
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [[ -n "$unformatted" ]]; then
    echo "test: gofmt needed on:" >&2
    echo "$unformatted" >&2
    exit 1
fi

# staticcheck and the install check need no server and are short or mostly
# wait (on the proxies and the checksum database): they run beside the
# tests, each's output shown when it ends, its failure the suite's.
bg_names=() bg_logs=()
background() {
    local name=$1 log
    shift
    log=$(mktemp)
    "$@" >"$log" 2>&1 &
    bg_names+=("$name") bg_pids+=($!) bg_logs+=("$log")
    say "$name: started beside the tests"
}
# wait_background: every background check has ended and said how; returns
# how many failed.
wait_background() {
    local i failed=0
    for i in "${!bg_pids[@]}"; do
        if wait "${bg_pids[$i]}"; then
            say "${bg_names[$i]}: passed"
            cat "${bg_logs[$i]}"
        else
            cat "${bg_logs[$i]}" >&2
            say "${bg_names[$i]}: FAILED" >&2
            failed=$((failed + 1))
        fi
        rm -f "${bg_logs[$i]}"
    done
    bg_pids=()
    return $failed
}
# A fixed version, run without entering go.mod (see the Makefile's lint).
background staticcheck go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 $TAGS ./...
background "install-check (go install from a module proxy, a module importing ours, the image's build steps)" scripts/install-check.sh
# Much of the tests' time is spent waiting on servers (nodes and clusters
# of their own starting, runs at a fixed rate, the real cassandra-stress):
# the two longest packages (minutes each, mostly waiting) start first
# instead of last in the alphabet, and three packages run at once, so that
# the others fill the cores while those two wait. Tests that time sleeps
# or paced runs judge what they measured, not what a quiet machine does.
say "go test -race $TAGS -p 3 ./frontend/stress ./db/cassandra ./..."
tests=0
go test -race $TAGS -p 3 -timeout 40m "$@" ./frontend/stress ./db/cassandra ./... || tests=$?
wait_cluster
checks=0
wait_background || checks=$?
if ((tests != 0 || checks != 0)); then
    say "FAILED: go test exit $tests, $checks background check(s) failed" >&2
    exit 1
fi
say "passed"
