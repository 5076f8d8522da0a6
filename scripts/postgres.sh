#!/usr/bin/env bash
# Run a real PostgreSQL for the postgres/jdbc/cockroach binding's integration
# tests and benchmarks: Debian's postgresql package, one cluster managed with
# pg_ctlcluster, listening on 127.0.0.1 only.
#
# Usage: scripts/postgres.sh {start|stop|restart|status|psql|help} [args]
#
#   start    install postgresql with apt-get if missing, start the cluster,
#            wait until it accepts connections, create the test role and
#            database if missing
#   stop     stop the cluster (fast shutdown: sessions are disconnected)
#   restart  stop then start (fault tests restart the server mid-run)
#   status   exit 0 if the server accepts TCP connections, 1 otherwise
#   psql     run psql as the test role: scripts/postgres.sh psql -c "SELECT 1"
#
# Environment:
#   PG_VERSION        cluster version (default: the newest installed, else 15)
#   PG_CLUSTER        cluster name (default main)
#   PG_PORT           TCP port (default 5432)
#   PG_START_TIMEOUT  seconds to wait for readiness (default 60)
#   YCSB_PG_USER      test role (default ycsb)
#   YCSB_PG_PASSWORD  its password (default ycsb)
#   YCSB_PG_DB        test database (default ycsb)
#
# The tests read their DSN from YCSB_PG_URL, by default
# postgres://ycsb:ycsb@127.0.0.1:5432/ycsb, which is what start prepares.
# Must run as root or as the postgres user (pg_ctlcluster and the role setup
# need it).
set -euo pipefail
NAME=postgres
# shellcheck source=scripts/server-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/server-common.sh"

HOST=127.0.0.1
PORT="${PG_PORT:-5432}"
CLUSTER="${PG_CLUSTER:-main}"
START_TIMEOUT="${PG_START_TIMEOUT:-60}"
ROLE="${YCSB_PG_USER:-ycsb}"
PASSWORD="${YCSB_PG_PASSWORD:-ycsb}"
DBNAME="${YCSB_PG_DB:-ycsb}"

pg_version() {
    if [[ -n "${PG_VERSION:-}" ]]; then
        echo "$PG_VERSION"
        return
    fi
    local v
    v=$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1 || true)
    echo "${v:-15}"
}

# as_postgres runs a command as the postgres superuser.
as_postgres() {
    if [[ "$(id -un)" == postgres ]]; then
        "$@"
    else
        su postgres -s /bin/bash -c "$(printf '%q ' "$@")"
    fi
}

installed() {
    command -v pg_ctlcluster >/dev/null 2>&1 && [[ -x "/usr/lib/postgresql/$(pg_version)/bin/postgres" ]]
}

install() { apt_install postgresql "no cluster tooling was found" postgresql; }

ensure_cluster() {
    local v
    v=$(pg_version)
    if ! pg_lsclusters -h 2>/dev/null | awk '{print $1" "$2}' | grep -qx "$v $CLUSTER"; then
        say "creating cluster $v/$CLUSTER on port $PORT"
        pg_createcluster "$v" "$CLUSTER" --port "$PORT" >/dev/null
    fi
    # Listen on the loopback address only: tests and benchmarks never need more.
    local confd="/etc/postgresql/$v/$CLUSTER/conf.d"
    if [[ -d "$confd" && ! -f "$confd/ycsb.conf" ]]; then
        cat >"$confd/ycsb.conf" <<EOF
# Written by scripts/postgres.sh for the ycsb integration tests.
listen_addresses = '$HOST'
port = $PORT
max_connections = 200
EOF
        chown postgres:postgres "$confd/ycsb.conf" 2>/dev/null || true
    fi
}

accepting() {
    pg_isready -q -h "$HOST" -p "$PORT" -t 2 >/dev/null 2>&1
}

wait_ready() { wait_until accepting "not accepting connections on $HOST:$PORT" /var/log/postgresql/; }

setup_role() {
    local sql
    sql=$(cat <<EOF
DO \$\$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$ROLE') THEN
    CREATE ROLE "$ROLE" LOGIN PASSWORD '$PASSWORD';
  END IF;
END
\$\$;
EOF
)
    as_postgres psql -q -X -v ON_ERROR_STOP=1 -p "$PORT" -d postgres -c "$sql" >/dev/null
    if ! as_postgres psql -q -X -tA -p "$PORT" -d postgres \
        -c "SELECT 1 FROM pg_database WHERE datname = '$DBNAME'" | grep -q 1; then
        as_postgres psql -q -X -v ON_ERROR_STOP=1 -p "$PORT" -d postgres \
            -c "CREATE DATABASE \"$DBNAME\" OWNER \"$ROLE\"" >/dev/null
    fi
}

cmd_start() {
    install
    ensure_cluster
    local v
    v=$(pg_version)
    if ! accepting; then
        say "starting cluster $v/$CLUSTER"
        pg_ctlcluster "$v" "$CLUSTER" start || accepting || die "pg_ctlcluster $v $CLUSTER start failed"
    fi
    wait_ready
    setup_role
    say "ready on $HOST:$PORT (postgres://$ROLE:***@$HOST:$PORT/$DBNAME)"
}

cmd_stop() {
    installed || { say "not installed"; return 0; }
    local v
    v=$(pg_version)
    pg_ctlcluster "$v" "$CLUSTER" stop -m fast 2>/dev/null || true
    say "stopped"
}

cmd_status() { show_status "accepting connections"; }

cmd_psql() {
    PGPASSWORD="$PASSWORD" psql -X -h "$HOST" -p "$PORT" -U "$ROLE" -d "$DBNAME" "$@"
}

case "${1:-help}" in
start) cmd_start ;;
stop) cmd_stop ;;
restart) cmd_stop; cmd_start ;;
status) cmd_status ;;
psql) shift; cmd_psql "$@" ;;
help | -h | --help) usage ;;
*) die "unknown command ${1} (want start, stop, restart, status, psql)" ;;
esac
