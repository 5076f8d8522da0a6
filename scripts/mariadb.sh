#!/usr/bin/env bash
# Run a real MariaDB (with the MyRocks engine loaded beside InnoDB) for the
# mysql binding's integration tests and benchmarks: Debian's mariadb-server
# and mariadb-plugin-rocksdb, one server with a data directory of its own,
# listening on 127.0.0.1 only.
#
# Usage: scripts/mariadb.sh {start|stop|restart|status|sql|help} [args]
#
#   start    install the packages with apt-get if missing (as root), create
#            the data directory if missing, start the server, wait until it
#            accepts connections, create the test user and database if
#            missing. Does nothing to a server already running.
#   stop     stop the server (mariadb-admin shutdown, then SIGTERM)
#   restart  stop then start
#   status   exit 0 if the server accepts connections, 1 otherwise
#   sql      run the mariadb client as the test user:
#            scripts/mariadb.sh sql -e "SHOW ENGINES"
#
# Environment:
#   MARIADB_DIR            server directory: data/, the socket, pid file and
#                          log (default: <repo>/.cache/mariadb; set it when
#                          several checkouts share a machine)
#   MARIADB_PORT           TCP port (default 3306)
#   MARIADB_START_TIMEOUT  seconds to wait for readiness (default 60)
#   YCSB_MYSQL_USER        test user (default ycsb)
#   YCSB_MYSQL_PASSWORD    its password (default ycsb)
#   YCSB_MYSQL_DB          test database (default ycsb)
#
# The tests read their DSN from YCSB_MYSQL_URL, by default
# mysql://ycsb:ycsb@127.0.0.1:3306/ycsb, which is what start prepares.
set -euo pipefail
cd "$(dirname "$0")/.."
NAME=mariadb
# shellcheck source=scripts/server-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/server-common.sh"

HOST=127.0.0.1
PORT="${MARIADB_PORT:-3306}"
DIR="${MARIADB_DIR:-$PWD/.cache/mariadb}"
START_TIMEOUT="${MARIADB_START_TIMEOUT:-60}"
USER_NAME="${YCSB_MYSQL_USER:-ycsb}"
PASSWORD="${YCSB_MYSQL_PASSWORD:-ycsb}"
DBNAME="${YCSB_MYSQL_DB:-ycsb}"
SOCK="$DIR/mariadb.sock"
PIDFILE="$DIR/mariadb.pid"
LOG="$DIR/mariadb.log"

installed() {
    command -v mariadbd >/dev/null 2>&1 && command -v mariadb-install-db >/dev/null 2>&1 &&
        ls /usr/lib/mysql/plugin/ha_rocksdb.so >/dev/null 2>&1
}

install() {
    installed && return 0
    [[ "$(id -u)" == 0 ]] || die "mariadb-server and mariadb-plugin-rocksdb are not installed and installing them needs root"
    say "installing mariadb-server mariadb-plugin-rocksdb with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q mariadb-server mariadb-plugin-rocksdb >/dev/null 2>&1 ||
        { apt-get update -q >/dev/null && apt-get install -y -q mariadb-server mariadb-plugin-rocksdb >/dev/null; }
    installed || die "apt-get ran but mariadbd or ha_rocksdb.so is still missing"
}

# The server runs as root when we are root: the checkout may be in a
# directory the mysql user cannot enter.
run_as() { if [[ "$(id -u)" == 0 ]]; then echo root; else id -un; fi; }

root_sql() { mariadb --no-defaults -S "$SOCK" -uroot "$@"; }

accepting() {
    mariadb-admin --no-defaults -h "$HOST" -P "$PORT" -u"$USER_NAME" -p"$PASSWORD" \
        --connect-timeout=2 ping >/dev/null 2>&1
}

# running: our server's process is alive (it may still be starting).
running() { [[ -f "$PIDFILE" ]] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }

init_dir() {
    [[ -d "$DIR/data/mysql" ]] && return 0
    say "creating the data directory $DIR/data"
    mkdir -p "$DIR/data"
    mariadb-install-db --no-defaults --user="$(run_as)" --datadir="$DIR/data" \
        --auth-root-authentication-method=normal --skip-test-db >"$DIR/install-db.log" 2>&1 ||
        { cat "$DIR/install-db.log" >&2; die "mariadb-install-db failed"; }
}

# wait_socket: the server answers as root on its socket. The process this
# start launched (LAUNCHED) is the one watched: mariadbd writes its pid file
# only after its engines' recovery, which on a loaded machine takes longer
# than the few seconds the start waits for the file.
LAUNCHED=""
alive() { if [[ -n "$LAUNCHED" ]]; then kill -0 "$LAUNCHED" 2>/dev/null; else running; fi; }

wait_socket() {
    local deadline=$((SECONDS + START_TIMEOUT))
    until root_sql -e "SELECT 1" >/dev/null 2>&1; do
        alive || { tail -n 30 "$LOG" >&2; die "the server exited during its start (log: $LOG)"; }
        ((SECONDS < deadline)) || die "not ready after ${START_TIMEOUT}s (log: $LOG)"
        sleep 0.2
    done
}

# setup: the test user from 127.0.0.1 ('%') and from localhost (else the
# anonymous user that install-db may create shadows it), the database, and
# the user's rights on it.
setup() {
    root_sql <<EOF
DELETE FROM mysql.global_priv WHERE User = '';
FLUSH PRIVILEGES;
CREATE DATABASE IF NOT EXISTS \`$DBNAME\`;
CREATE USER IF NOT EXISTS '$USER_NAME'@'%' IDENTIFIED BY '$PASSWORD';
CREATE USER IF NOT EXISTS '$USER_NAME'@'localhost' IDENTIFIED BY '$PASSWORD';
GRANT ALL ON \`$DBNAME\`.* TO '$USER_NAME'@'%';
GRANT ALL ON \`$DBNAME\`.* TO '$USER_NAME'@'localhost';
GRANT PROCESS, RELOAD, SUPER ON *.* TO '$USER_NAME'@'%';
GRANT PROCESS, RELOAD, SUPER ON *.* TO '$USER_NAME'@'localhost';
EOF
}

cmd_start() {
    install
    if accepting; then
        # Ours (the socket in DIR answers): the user's rights as below.
        if root_sql -e "SELECT 1" >/dev/null 2>&1; then setup; fi
        say "already running on $HOST:$PORT"
        return 0
    fi
    if ! running; then
        init_dir
        say "starting on $HOST:$PORT (directory $DIR)"
        nohup mariadbd --no-defaults --user="$(run_as)" --datadir="$DIR/data" \
            --port="$PORT" --bind-address="$HOST" --socket="$SOCK" --pid-file="$PIDFILE" \
            --log-error="$LOG" --plugin-load-add=ha_rocksdb \
            --max-connections=500 --innodb-buffer-pool-size=256M \
            --skip-name-resolve >/dev/null 2>&1 &
        LAUNCHED=$!
    fi
    wait_socket
    setup
    accepting || die "the server runs but user $USER_NAME cannot connect over TCP (log: $LOG)"
    root_sql -N -e "SELECT ENGINE FROM information_schema.ENGINES WHERE ENGINE = 'ROCKSDB' AND SUPPORT IN ('YES','DEFAULT')" |
        grep -q ROCKSDB || die "the server runs without the ROCKSDB engine (log: $LOG)"
    say "ready on $HOST:$PORT (mysql://$USER_NAME:***@$HOST:$PORT/$DBNAME, engines InnoDB and ROCKSDB)"
}

cmd_stop() {
    if ! running; then
        say "not running (directory $DIR)"
        return 0
    fi
    local pid
    pid=$(cat "$PIDFILE")
    root_sql -e "SHUTDOWN" >/dev/null 2>&1 || kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
        say "still running 30 s after shutdown: SIGKILL"
        kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$PIDFILE"
    say "stopped"
}

cmd_status() { show_status "accepting connections"; }

cmd_sql() {
    mariadb --no-defaults -h "$HOST" -P "$PORT" -u"$USER_NAME" -p"$PASSWORD" "$DBNAME" "$@"
}

case "${1:-help}" in
start) cmd_start ;;
stop) cmd_stop ;;
restart) cmd_stop; cmd_start ;;
status) cmd_status ;;
sql) shift; cmd_sql "$@" ;;
help | -h | --help) usage ;;
*) die "unknown command ${1} (want start, stop, restart, status, sql)" ;;
esac
