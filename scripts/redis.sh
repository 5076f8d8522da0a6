#!/usr/bin/env bash
# Run a real Redis for the redis binding's integration tests and benchmarks:
# Debian's redis-server, one instance with its own directory, listening on
# 127.0.0.1 only, nothing persisted.
#
# Usage: scripts/redis.sh {start|stop|restart|status|cli|help} [args]
#
#   start    install redis-server with apt-get if missing, make the TLS
#            certificates if missing (a CA, a server and a client
#            certificate), start the server, wait until it answers PING
#   stop     shut the server down (SHUTDOWN NOSAVE, then SIGKILL)
#   restart  stop then start
#   status   exit 0 if the server answers PING on its port, 1 otherwise
#   cli      run redis-cli against it: scripts/redis.sh cli DBSIZE
#
# The server: plain port REDIS_PORT (default 6379) and TLS port
# REDIS_TLS_PORT (default 6380; client certificates optional), both on
# 127.0.0.1. Its users: "default" without a password (the reference's and
# go-ycsb's bindings connect without one), and the ACL user ycsb with
# password ycsb and every right (redis.username=ycsb redis.password=ycsb).
# The certificates are in DIR/tls: ca.crt, server.crt/.key (for 127.0.0.1
# and localhost), client.crt/.key.
#
# Environment:
#   REDIS_DIR            the server's directory (default <repo>/.cache/redis)
#   REDIS_PORT           plain port (default 6379)
#   REDIS_TLS_PORT       TLS port (default 6380; 0: none)
#   REDIS_START_TIMEOUT  seconds to wait for PING (default 20)
set -euo pipefail

NAME=redis
# shellcheck source=scripts/redis-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/redis-common.sh"
DIR="$(absolute "${REDIS_DIR:-$REPO/.cache/redis}")"
PORT="$(number REDIS_PORT 6379)"
TLS_PORT="$(number REDIS_TLS_PORT 6380)"
START_TIMEOUT="$(number REDIS_START_TIMEOUT 20)"

# certs makes a CA and a server and a client certificate signed by it, once.
certs() {
    local t="$DIR/tls"
    [[ -f "$t/client.key" ]] && return 0
    mkdir -p "$t"
    command -v openssl >/dev/null 2>&1 || die "openssl is needed to make the TLS certificates"
    (
        cd "$t"
        openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=ycsb test CA" \
            -keyout ca.key -out ca.crt 2>/dev/null
        printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >san.ext
        for who in server client; do
            openssl req -newkey rsa:2048 -nodes -subj "/CN=ycsb test $who" \
                -keyout "$who.key.tmp" -out "$who.csr" 2>/dev/null
            openssl x509 -req -in "$who.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 \
                -extfile san.ext -out "$who.crt" 2>/dev/null
            rm -f "$who.csr"
            mv "$who.key.tmp" "$who.key"
        done
        chmod 644 ./*.key
    ) || die "could not make the TLS certificates in $t"
}

cli() { redis-cli -h "$HOST" -p "$PORT" "$@"; }

accepting() { [[ "$(cli PING 2>/dev/null)" == PONG ]]; }

cmd_start() {
    install
    mkdir -p "$DIR"
    if accepting; then
        say "already running on $HOST:$PORT"
    else
        # The configuration is written at each start, from the settings
        # above. Nothing persisted: a test server's data lives as long as
        # it runs.
        {
            echo "port $PORT"
            echo "bind $HOST"
            echo "dir $DIR"
            echo "daemonize yes"
            echo 'save ""'
            echo "appendonly no"
            echo "pidfile $DIR/redis.pid"
            echo "logfile $DIR/redis.log"
            echo "user ycsb on >ycsb ~* &* +@all"
            if [[ "$TLS_PORT" != 0 ]]; then
                echo "tls-port $TLS_PORT"
                echo "tls-cert-file $DIR/tls/server.crt"
                echo "tls-key-file $DIR/tls/server.key"
                echo "tls-ca-cert-file $DIR/tls/ca.crt"
                echo "tls-auth-clients optional"
            fi
        } >"$DIR/redis.conf"
        [[ "$TLS_PORT" == 0 ]] || certs
        redis-server "$DIR/redis.conf" || die "redis-server did not start (see $DIR/redis.log)"
        local deadline=$((SECONDS + START_TIMEOUT))
        until accepting; do
            ((SECONDS < deadline)) || die "no PONG on $HOST:$PORT after ${START_TIMEOUT}s (see $DIR/redis.log)"
            sleep 0.1
        done
    fi
    local tlsnote=""
    [[ "$TLS_PORT" != 0 ]] && tlsnote=", TLS on $HOST:$TLS_PORT (CA $DIR/tls/ca.crt)"
    say "ready on $HOST:$PORT (user ycsb, password ***)$tlsnote"
}

cmd_stop() {
    installed || { say "not installed"; return 0; }
    if accepting; then
        cli SHUTDOWN NOSAVE >/dev/null 2>&1 || true
    fi
    stop_pid "$DIR/redis.pid" 50
    say "stopped"
}

cmd_status() { show_status "answering"; }

case "${1:-help}" in
start) cmd_start ;;
stop) cmd_stop ;;
restart) cmd_stop; cmd_start ;;
status) cmd_status ;;
cli) shift; cli "$@" ;;
help | -h | --help) usage ;;
*) die "unknown command ${1} (want start, stop, restart, status, cli)" ;;
esac
