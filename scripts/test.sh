#!/usr/bin/env bash
# The whole test suite: what `make test` and CI run.
#
# It prepares what the integration tests need (librocksdb-dev, a local
# PostgreSQL, a local Cassandra node, a three-node Cassandra cluster on
# 127.0.0.2-4 started in the background meanwhile), then runs vet, a gofmt check, staticcheck and every
# test with the race detector and the rocksdb build tag, then the install check
# (scripts/install-check.sh: go install from a module proxy, the image build).
#
# With CI=true a missing server is a failure; otherwise the tests that need it
# skip with a message. Set YCSB_NO_SERVERS=1 to skip starting servers.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "test: $*"; }

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

started=()
cleanup() {
    for s in "${started[@]}"; do
        "scripts/$s.sh" stop >/dev/null 2>&1 || true
    done
}
trap cleanup EXIT

if [[ -z "${YCSB_NO_SERVERS:-}" ]]; then
    for s in postgres cassandra; do
        if [[ -x "scripts/$s.sh" ]]; then
            if "scripts/$s.sh" status >/dev/null 2>&1; then
                say "$s already running"
            elif "scripts/$s.sh" start; then
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
    # checks) starts while vet and staticcheck run; go test waits for it.
    if scripts/cassandra-cluster.sh status >/dev/null 2>&1; then
        say "cassandra-cluster already running"
    else
        started+=(cassandra-cluster)
        cluster_log=$(mktemp)
        cluster_t0=$SECONDS
        scripts/cassandra-cluster.sh start >"$cluster_log" 2>&1 &
        cluster_pid=$!
    fi
fi

# wait_cluster: the cluster's start has ended; fatal in CI if it failed.
wait_cluster() {
    [[ -n "${cluster_pid:-}" ]] || return 0
    if wait "$cluster_pid"; then
        say "cassandra-cluster $(tail -n 1 "$cluster_log" | sed "s/^cassandra-cluster: //") (waited $((SECONDS - cluster_t0))s since its start)"
    elif [[ "${CI:-}" == "true" ]]; then
        cat "$cluster_log" >&2
        echo "test: could not start cassandra-cluster" >&2
        exit 1
    else
        tail -n 20 "$cluster_log"
        say "could not start cassandra-cluster: its tests will skip"
    fi
    rm -f "$cluster_log"
    cluster_pid=""
}

say "go vet"
go vet $TAGS ./...
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [[ -n "$unformatted" ]]; then
    echo "test: gofmt needed on:" >&2
    echo "$unformatted" >&2
    exit 1
fi
say "staticcheck"
# A fixed version, run without entering go.mod (see the Makefile's lint).
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 $TAGS ./...
wait_cluster
# Most of the tests' time is spent waiting on servers (nodes and clusters
# of their own starting, runs at a fixed rate, the real cassandra-stress):
# the two longest packages (minutes each, mostly waiting) start first
# instead of last in the alphabet, beside the rest. Two packages run at once:
# with three, the tests that time sleeps and paced runs (frontend/ycsb's
# capacity and client-verdict tests, gate statistics) failed under the
# load in two of two runs.
say "go test -race $TAGS -p 2 ./frontend/cassandrastress ./db/cassandra ./..."
go test -race $TAGS -p 2 -timeout 40m "$@" ./frontend/cassandrastress ./db/cassandra ./...
say "tools/modzip (a module of its own)"
(cd tools/modzip && go vet ./...)
say "install-check: go install from a module proxy, a module importing ours, the image's build steps"
scripts/install-check.sh
