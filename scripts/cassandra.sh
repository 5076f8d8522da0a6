#!/usr/bin/env bash
# Run a real single-node Apache Cassandra 5.0 for integration tests, built from
# the cassandra-all artifact and its runtime dependencies (no Docker, no
# tarball download).
#
# Usage: scripts/cassandra.sh {fetch|start|stop|kill|freeze|thaw|status|wipe|cql|help} [args]
#
#   fetch    resolve cassandra-all and its runtime jars into the cache (once)
#   start    fetch if needed, write config, start the node, wait for CQL
#   stop     SIGTERM, up to CASSANDRA_STOP_TIMEOUT seconds, then SIGKILL
#   kill     SIGKILL at once (fault tests: the node comes back on next start)
#   freeze   SIGSTOP (fault tests: a node that hangs); thaw sends SIGCONT
#   status   exit 0 if the node runs and answers CQL, 1 otherwise
#   wipe     stop and delete the node directory (data, commit log, logs)
#   cql      run CQL statements: scripts/cassandra.sh cql "SELECT ..." ...
#            (scripts/cassandra/cql.py, a stdlib-only protocol v4 client; it is
#            also the readiness check, so start/status need python3)
#
# Templates live in scripts/cassandra/ (pom.xml, cassandra.yaml, logback.xml);
# the node directory holds conf/, data/, logs/ (system.log, stdout.log), tmp/
# and cassandra.pid. Data survives stop/start and kill/start; with the default
# periodic commit log a kill loses up to one sync period of acknowledged writes.
#
# Environment:
#   YCSB_CACHE               cache root (default: <repo>/.cache)
#   CASSANDRA_HOME_DIR       node directory (default: <repo>/.cache/cassandra-node)
#   CASSANDRA_HOST           listen and CQL address (default 127.0.0.1)
#   CASSANDRA_PORT           CQL native port (default 9042)
#   CASSANDRA_STORAGE_PORT   internode port (default 7000)
#   CASSANDRA_SEEDS          seeds, comma-separated host:port (default the node itself)
#   CASSANDRA_CLUSTER_NAME   cluster name (default ycsb-test)
#   CASSANDRA_INITIAL_TOKEN  the node's token; when set, auto_bootstrap is off
#                            (scripts/cassandra-cluster.sh sets these for its nodes)
#   CASSANDRA_UNSAFE_SYSTEM  true (default): schema changes are not flushed, which
#                            makes tests' CREATE/DROP fast. A node killed soon
#                            after one comes back without it (the schema is read
#                            before the commit log is replayed): a cluster's
#                            nodes set false
#   CASSANDRA_START_TIMEOUT  seconds to wait for CQL (default 240)
#   CASSANDRA_STOP_TIMEOUT   seconds between SIGTERM and SIGKILL (default 30)
#   CASSANDRA_HEAP_MIN/MAX   JVM heap (default 256m / 1g). Cassandra mlockall()s
#                            its memory when it may (as root), so -Xms is
#                            resident from the start: keep it small
#   CASSANDRA_COMMITLOG_SYNC periodic (default) or batch. With periodic, a
#                            SIGKILL loses the writes of the last sync period,
#                            as in production; batch acknowledges a write only
#                            once it is on disk (slower, loses nothing)
#   CASSANDRA_COMMITLOG_SYNC_PERIOD  periodic sync interval (default 10000ms)
#   CASSANDRA_REQUEST_TIMEOUT  milliseconds for the node's read, range, write,
#                            counter-write and other request timeouts (default:
#                            Cassandra's own, 5000/10000/2000/5000/10000 ms).
#                            The test suite gives its shared node 10000: a
#                            loaded machine's slow answer is not a failure of
#                            the test's (kept below the clients' 12 s)
#   CASSANDRA_JAVA           java binary, must be JDK 11 or 17
#                            (default /usr/lib/jvm/java-17-openjdk-amd64/bin/java)
#   CASSANDRA_JVM_OPTS       extra JVM options, appended last
#   CASSANDRA_CLIENT_TLS_DIR opt-in TLS on the CQL port (PEMBasedSslContextFactory):
#                            DIR/server.pem holds the node's unencrypted private
#                            key and certificate chain; with DIR/client-ca.pem
#                            clients must show a certificate it signed. Plain
#                            connections are still taken (optional: true), which
#                            the readiness check needs
#   MVN                      maven binary (default mvn)
set -euo pipefail

CASSANDRA_VERSION=5.0.8
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$SCRIPT_DIR/.." && pwd)"
TEMPLATES="$SCRIPT_DIR/cassandra"

CACHE_ROOT="${YCSB_CACHE:-$REPO/.cache}"
[[ "$CACHE_ROOT" == /* ]] || CACHE_ROOT="$PWD/$CACHE_ROOT"
DIST="$CACHE_ROOT/cassandra-$CASSANDRA_VERSION"
LIB="$DIST/lib"
MARKER="$DIST/.fetched"

NODE="${CASSANDRA_HOME_DIR:-$REPO/.cache/cassandra-node}"
HOST="${CASSANDRA_HOST:-127.0.0.1}"
# The node runs from its own directory and takes file:// URLs: use absolute paths.
[[ "$NODE" == /* ]] || NODE="$PWD/$NODE"
PORT="${CASSANDRA_PORT:-9042}"
STORAGE_PORT="${CASSANDRA_STORAGE_PORT:-7000}"
SEEDS="${CASSANDRA_SEEDS:-$HOST:$STORAGE_PORT}"
CLUSTER_NAME="${CASSANDRA_CLUSTER_NAME:-ycsb-test}"
INITIAL_TOKEN="${CASSANDRA_INITIAL_TOKEN:-}"
UNSAFE_SYSTEM="${CASSANDRA_UNSAFE_SYSTEM:-true}"
START_TIMEOUT="${CASSANDRA_START_TIMEOUT:-240}"
STOP_TIMEOUT="${CASSANDRA_STOP_TIMEOUT:-30}"
HEAP_MIN="${CASSANDRA_HEAP_MIN:-256m}"
HEAP_MAX="${CASSANDRA_HEAP_MAX:-1g}"
COMMITLOG_SYNC="${CASSANDRA_COMMITLOG_SYNC:-periodic}"
COMMITLOG_SYNC_PERIOD="${CASSANDRA_COMMITLOG_SYNC_PERIOD:-10000ms}"
JAVA="${CASSANDRA_JAVA:-/usr/lib/jvm/java-17-openjdk-amd64/bin/java}"
MVN="${MVN:-mvn}"

CONF_DIR="$NODE/conf"
DATA_DIR="$NODE/data"
LOG_DIR="$NODE/logs"
TMP_DIR="$NODE/tmp"
PIDFILE="$NODE/cassandra.pid"
SYSTEM_LOG="$LOG_DIR/system.log"
STDOUT_LOG="$LOG_DIR/stdout.log"

# A node on another address than the default names itself in every line
# (scripts/cassandra-cluster.sh runs several at once).
TAG=cassandra
[[ "$HOST" == 127.0.0.1 ]] || TAG="cassandra $HOST"
say() { echo "$TAG: $*"; }
die() { echo "$TAG: $*" >&2; exit 1; }

# Checked before anything is made or fetched.
REQUEST_TIMEOUT="${CASSANDRA_REQUEST_TIMEOUT:-}"
[[ -z "$REQUEST_TIMEOUT" || "$REQUEST_TIMEOUT" =~ ^[1-9][0-9]{0,6}$ ]] ||
    die "CASSANDRA_REQUEST_TIMEOUT must be milliseconds (1 to 9999999), not '$REQUEST_TIMEOUT'"

# lock: serialise start/stop/kill/wipe on one node.
# The lock file sits beside the node directory so that wipe can remove the latter.
lock() {
    command -v flock >/dev/null 2>&1 || return 0
    mkdir -p "$(dirname "$NODE")"
    exec 9>"$NODE.lock"
    flock -w 600 9 || die "another scripts/cassandra.sh holds $NODE.lock"
}

# ---------------------------------------------------------------- fetch --

fetch_complete() {
    [[ -f "$MARKER" && -f "$LIB/cassandra-all-$CASSANDRA_VERSION.jar" ]]
}

cmd_fetch() {
    if fetch_complete; then
        say "cassandra-all $CASSANDRA_VERSION already in $LIB"
        return 0
    fi
    command -v "$MVN" >/dev/null 2>&1 || die "maven ($MVN) not found; install it (e.g. apt-get install maven)"
    mkdir -p "$DIST"
    if command -v flock >/dev/null 2>&1; then
        # Several node directories may share one cache: one fetch at a time.
        exec 8>"$DIST.lock"
        flock -w 900 8 || die "another fetch holds $DIST.lock"
        if fetch_complete; then
            exec 8>&-
            say "cassandra-all $CASSANDRA_VERSION already in $LIB"
            return 0
        fi
    fi
    local t0=$SECONDS tmp="$LIB.tmp.$$"
    rm -rf "$tmp"
    sed "s/@CASSANDRA_VERSION@/$CASSANDRA_VERSION/g" "$TEMPLATES/pom.xml" >"$DIST/pom.xml"
    say "resolving cassandra-all $CASSANDRA_VERSION and its runtime dependencies"
    # Some Maven builds print bare colour resets even in batch mode: strip them.
    if ! "$MVN" -B -q -Dstyle.color=never -f "$DIST/pom.xml" \
        org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
        -DincludeScope=runtime -DoutputDirectory="$tmp" 2>&1 | sed -e 's/\x1b\[[0-9;]*m//g' -e '/^$/d'; then
        rm -rf "$tmp"
        die "maven could not resolve cassandra-all $CASSANDRA_VERSION"
    fi
    [[ -f "$tmp/cassandra-all-$CASSANDRA_VERSION.jar" ]] || { rm -rf "$tmp"; die "cassandra-all jar missing after fetch"; }
    ls "$tmp"/jamm-*.jar >/dev/null 2>&1 || { rm -rf "$tmp"; die "jamm agent jar missing after fetch"; }
    rm -rf "$LIB"
    mv "$tmp" "$LIB"
    local n
    n=$(find "$LIB" -name '*.jar' | wc -l)
    echo "cassandra-all $CASSANDRA_VERSION, $n jars, $(date -u +%FT%TZ)" >"$MARKER"
    say "fetched $n jars ($(du -sh "$LIB" | cut -f1)) into $LIB in $((SECONDS - t0))s"
    exec 8>&- 2>/dev/null || true
}

# ------------------------------------------------------------- process --

read_pid() {
    [[ -f "$PIDFILE" ]] || return 1
    local pid
    pid=$(tr -dc '0-9' <"$PIDFILE")
    [[ -n "$pid" ]] || return 1
    echo "$pid"
}

# pid_alive PID: the process exists and is our Cassandra (guards against pid reuse).
pid_alive() {
    local pid=$1
    kill -0 "$pid" 2>/dev/null || return 1
    [[ -r "/proc/$pid/cmdline" ]] || return 0
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q "CassandraDaemon" || return 1
    # zombie: gone for our purposes
    [[ "$(awk '/^State:/{print $2}' "/proc/$pid/status" 2>/dev/null)" != Z ]]
}

# pid_gone PID: the process has finished exiting (no such pid, or a zombie).
# Unlike pid_alive this does not look at the command line, which the kernel
# empties while a process is still tearing down (and still holding its sockets).
pid_gone() {
    kill -0 "$1" 2>/dev/null || return 0
    [[ "$(awk '/^State:/{print $2}' "/proc/$1/status" 2>/dev/null)" == Z ]]
}

# wait_gone PID SECONDS
wait_gone() {
    local i
    for ((i = 0; i < $2 * 5; i++)); do
        pid_gone "$1" && return 0
        sleep 0.2
    done
    return 1
}

running_pid() {
    local pid
    pid=$(read_pid) || return 1
    pid_alive "$pid" || return 1
    echo "$pid"
}

port_open() {
    (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null
}

cql_ok() {
    command -v python3 >/dev/null 2>&1 || return 0  # port check only
    python3 "$TEMPLATES/cql.py" --host "$HOST" --port "$PORT" --timeout 5 --quiet >/dev/null 2>&1
}

answering() {
    port_open "$PORT" && cql_ok
}

rss_mib() {
    awk '/^VmRSS:/{printf "%d", $2/1024}' "/proc/$1/status" 2>/dev/null || echo "?"
}

# Lines of the logs that predate the current start attempt; show_logs skips them.
SYS_LOG_SKIP=0
STDOUT_LOG_SKIP=0

line_count() {
    if [[ -f "$1" ]]; then wc -l <"$1"; else echo 0; fi
}

show_logs() {
    local sys out
    sys=$(tail -n +"$((SYS_LOG_SKIP + 1))" "$SYSTEM_LOG" 2>/dev/null | tail -n 50)
    out=$(tail -n +"$((STDOUT_LOG_SKIP + 1))" "$STDOUT_LOG" 2>/dev/null | tail -n 20)
    if [[ -n "$sys" ]]; then
        echo "---- last 50 lines of $SYSTEM_LOG ----" >&2
        echo "$sys" >&2
    fi
    if [[ -n "$out" ]]; then
        echo "---- last 20 lines of $STDOUT_LOG (JVM output) ----" >&2
        echo "$out" >&2
    fi
    echo "----" >&2
}

# terminate PID GRACE: SIGTERM, wait GRACE seconds, then SIGKILL.
terminate() {
    local pid=$1 grace=$2
    kill -TERM "$pid" 2>/dev/null || return 0
    kill -CONT "$pid" 2>/dev/null || true # a frozen node handles SIGTERM only once thawed
    wait_gone "$pid" "$grace" && return 0
    say "pid $pid still alive after ${grace}s, sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    wait_gone "$pid" 10 || die "pid $pid did not exit after SIGKILL"
}

# ----------------------------------------------------------------- start --

find_java() {
    [[ -x "$JAVA" ]] || die "JDK 17 not found at $JAVA (apt-get install openjdk-17-jdk-headless, or set CASSANDRA_JAVA)"
    local v
    v=$("$JAVA" -version 2>&1 | awk -F'"' '/version/{print $2; exit}')
    case "$v" in
        11.* | 17.*) ;;
        *) die "$JAVA is Java $v; Cassandra $CASSANDRA_VERSION runs on Java 11 or 17 only" ;;
    esac
}

write_config() {
    mkdir -p "$CONF_DIR" "$DATA_DIR" "$LOG_DIR" "$TMP_DIR"
    local sync=()
    case "$COMMITLOG_SYNC" in
        periodic) sync=(-e "s|^commitlog_sync_period:.*|commitlog_sync_period: $COMMITLOG_SYNC_PERIOD|") ;;
        batch) sync=(-e "s|^commitlog_sync: .*|commitlog_sync: batch|" -e "/^commitlog_sync_period:/d") ;;
        *) die "CASSANDRA_COMMITLOG_SYNC must be periodic or batch, not '$COMMITLOG_SYNC'" ;;
    esac
    sed -e "s|@DATA_DIR@|$DATA_DIR|g" \
        -e "s|@HOST@|$HOST|g" \
        -e "s|@SEEDS@|$SEEDS|g" \
        -e "s|@CLUSTER_NAME@|$CLUSTER_NAME|g" \
        -e "s|@NATIVE_PORT@|$PORT|g" \
        -e "s|@STORAGE_PORT@|$STORAGE_PORT|g" \
        "${sync[@]}" \
        "$TEMPLATES/cassandra.yaml" >"$CONF_DIR/cassandra.yaml"
    if [[ -n "$INITIAL_TOKEN" ]]; then
        # A node of a cluster made at once: its token is given, it streams
        # nothing from the others when it joins.
        printf 'initial_token: %s\nauto_bootstrap: false\n' "$INITIAL_TOKEN" >>"$CONF_DIR/cassandra.yaml"
    fi
    if [[ -n "$REQUEST_TIMEOUT" ]]; then
        local t
        for t in read_request_timeout range_request_timeout write_request_timeout \
            counter_write_request_timeout request_timeout; do
            echo "$t: ${REQUEST_TIMEOUT}ms"
        done >>"$CONF_DIR/cassandra.yaml"
    fi
    if [[ -n "${CASSANDRA_CLIENT_TLS_DIR:-}" ]]; then
        local tls="$CASSANDRA_CLIENT_TLS_DIR"
        [[ "$tls" == /* ]] || tls="$PWD/$tls"
        [[ -f "$tls/server.pem" ]] || die "CASSANDRA_CLIENT_TLS_DIR: no $tls/server.pem (key and certificate chain, PEM)"
        {
            echo "client_encryption_options:"
            echo "  enabled: true"
            echo "  optional: true"
            echo "  ssl_context_factory:"
            echo "    class_name: org.apache.cassandra.security.PEMBasedSslContextFactory"
            echo "  keystore: $tls/server.pem"
            if [[ -f "$tls/client-ca.pem" ]]; then
                echo "  require_client_auth: true"
                echo "  truststore: $tls/client-ca.pem"
            else
                echo "  require_client_auth: false"
            fi
        } >>"$CONF_DIR/cassandra.yaml"
    fi
    cp "$TEMPLATES/logback.xml" "$CONF_DIR/logback.xml"
}

jvm_flags() {
    local jamm
    jamm=$(find "$LIB" -maxdepth 1 -name 'jamm-*.jar' | sort | head -n 1)
    [[ -n "$jamm" ]] || die "no jamm agent jar in $LIB; delete $DIST and fetch again"
    JVM_FLAGS=(
        "-Xms$HEAP_MIN" "-Xmx$HEAP_MAX" -Xss256k
        -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError
        -Djava.net.preferIPv4Stack=true
        "-javaagent:$jamm"
        "-Dcassandra.config=file://$CONF_DIR/cassandra.yaml"
        "-Dcassandra.storagedir=$DATA_DIR"
        "-Dcassandra.logdir=$LOG_DIR"
        "-Dlogback.configurationFile=$CONF_DIR/logback.xml"
        -Dcassandra-foreground=yes
        -Dcassandra.skip_wait_for_gossip_to_settle=0
        "-Dcassandra.unsafesystem=$UNSAFE_SYSTEM"
        "-Djava.io.tmpdir=$TMP_DIR" "-Djna.tmpdir=$TMP_DIR"
        -Djdk.attach.allowAttachSelf=true
        -Dio.netty.tryReflectionSetAccessible=true
    )
    local m
    for m in java.base/jdk.internal.misc java.management.rmi/com.sun.jmx.remote.internal.rmi \
        java.rmi/sun.rmi.registry java.rmi/sun.rmi.server java.sql/java.sql java.base/java.lang.ref \
        jdk.unsupported/sun.misc jdk.compiler/com.sun.tools.javac.file jdk.attach/sun.tools.attach \
        java.management/com.sun.jmx.remote.security; do
        JVM_FLAGS+=("--add-exports=$m=ALL-UNNAMED")
    done
    for m in java.base/java.lang.module java.base/jdk.internal.loader java.base/jdk.internal.ref \
        java.base/jdk.internal.reflect java.base/jdk.internal.math java.base/jdk.internal.module \
        java.base/jdk.internal.util.jar jdk.management/com.sun.management.internal java.base/sun.nio.ch \
        java.base/java.io java.base/java.lang.reflect jdk.compiler/com.sun.tools.javac \
        java.base/java.lang java.base/java.util java.base/java.nio; do
        JVM_FLAGS+=("--add-opens=$m=ALL-UNNAMED")
    done
    if [[ -n "${CASSANDRA_JVM_OPTS:-}" ]]; then
        local extra
        read -r -a extra <<<"$CASSANDRA_JVM_OPTS"
        JVM_FLAGS+=("${extra[@]}")
    fi
}

# wait_ready PID T0: poll until CQL answers, the process dies, or the timeout.
wait_ready() {
    local pid=$1 t0=$2
    local deadline=$((t0 + START_TIMEOUT))
    while :; do
        if pid_gone "$pid"; then
            echo "cassandra: process $pid exited during startup" >&2
            show_logs
            rm -f "$PIDFILE"
            exit 1
        fi
        if port_open "$PORT" && cql_ok; then
            say "ready on $HOST:$PORT in $((SECONDS - t0))s, rss $(rss_mib "$pid") MiB (pid $pid, node $NODE)"
            return 0
        fi
        if ((SECONDS >= deadline)); then
            echo "cassandra: not answering CQL on $HOST:$PORT after ${START_TIMEOUT}s; stopping pid $pid" >&2
            show_logs
            terminate "$pid" 10 || true
            rm -f "$PIDFILE"
            exit 1
        fi
        sleep 1
    done
}

cmd_start() {
    local t0=$SECONDS pid
    mkdir -p "$NODE"
    if pid=$(running_pid); then
        if answering; then
            say "already running on $HOST:$PORT (pid $pid, rss $(rss_mib "$pid") MiB)"
            return 0
        fi
        say "pid $pid is running but not answering yet; waiting"
        wait_ready "$pid" "$t0"
        return 0
    fi
    rm -f "$PIDFILE"
    # A node killed from outside may still be releasing its ports: allow it a moment.
    local p i
    for p in "$PORT" "$STORAGE_PORT"; do
        for ((i = 0; i < 50; i++)); do
            port_open "$p" || continue 2
            sleep 0.2
        done
        die "port $HOST:$p is already in use by another process"
    done
    find_java
    fetch_complete || cmd_fetch
    write_config
    jvm_flags
    SYS_LOG_SKIP=$(line_count "$SYSTEM_LOG")
    STDOUT_LOG_SKIP=$(line_count "$STDOUT_LOG")
    {
        echo "==== $(date -u +%FT%TZ) starting Cassandra $CASSANDRA_VERSION"
        printf '%q ' "$JAVA" "${JVM_FLAGS[@]}" -cp "$CONF_DIR:$LIB/*" org.apache.cassandra.service.CassandraDaemon
        echo
    } >>"$STDOUT_LOG"
    # setsid: own session, so the node outlives the shell that started it and
    # gets no terminal signals. The subshell is not a process-group leader, so
    # setsid execs in place and $! is the JVM's pid.
    (
        cd "$NODE"
        exec 8>&- 9>&- # the node must not hold the script's locks
        exec setsid "$JAVA" "${JVM_FLAGS[@]}" -cp "$CONF_DIR:$LIB/*" \
            org.apache.cassandra.service.CassandraDaemon </dev/null >>"$STDOUT_LOG" 2>&1
    ) &
    pid=$!
    echo "$pid" >"$PIDFILE"
    say "started pid $pid (heap $HEAP_MIN/$HEAP_MAX), waiting up to ${START_TIMEOUT}s for CQL on $HOST:$PORT"
    wait_ready "$pid" "$t0"
}

# ------------------------------------------------------------ stop etc. --

cmd_stop() {
    local pid
    if ! pid=$(running_pid); then
        rm -f "$PIDFILE"
        say "not running"
        return 0
    fi
    local t0=$SECONDS
    terminate "$pid" "$STOP_TIMEOUT"
    rm -f "$PIDFILE"
    say "stopped pid $pid in $((SECONDS - t0))s"
}

cmd_kill() {
    local pid
    if ! pid=$(running_pid); then
        rm -f "$PIDFILE"
        say "not running"
        return 0
    fi
    kill -KILL "$pid" 2>/dev/null || true
    wait_gone "$pid" 10 || die "pid $pid did not exit after SIGKILL"
    rm -f "$PIDFILE"
    say "killed pid $pid (SIGKILL)"
}

# signal_node SIG VERB: SIGSTOP/SIGCONT the running node.
signal_node() {
    local pid
    pid=$(running_pid) || die "not running"
    kill "-$1" "$pid" || die "could not send SIG$1 to pid $pid"
    say "$2 pid $pid (SIG$1)"
}

cmd_status() {
    local pid
    if ! pid=$(running_pid); then
        say "not running"
        return 1
    fi
    if answering; then
        say "running on $HOST:$PORT (pid $pid, rss $(rss_mib "$pid") MiB)"
        return 0
    fi
    say "pid $pid is running but not answering CQL on $HOST:$PORT"
    return 1
}

cmd_wipe() {
    cmd_stop
    case "$NODE" in
        "" | / | "$HOME" | "$REPO") die "refusing to delete '$NODE'" ;;
    esac
    rm -rf "$NODE"
    say "wiped $NODE"
}

cmd_cql() {
    command -v python3 >/dev/null 2>&1 || die "python3 is needed for the cql subcommand"
    exec python3 "$TEMPLATES/cql.py" --host "$HOST" --port "$PORT" "$@"
}

usage() {
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'
}

case "${1:-}" in
    fetch) lock; cmd_fetch ;;
    start) lock; cmd_start ;;
    stop) lock; cmd_stop ;;
    kill) lock; cmd_kill ;;
    freeze) signal_node STOP frozen ;;
    thaw) signal_node CONT thawed ;;
    status) cmd_status ;;
    wipe) lock; cmd_wipe ;;
    cql) shift; cmd_cql "$@" ;;
    help | -h | --help) usage ;;
    *) usage >&2; exit 2 ;;
esac
