# What scripts/redis.sh and scripts/redis-cluster.sh share, sourced by both
# once they set NAME (the prefix of their messages): the repository's
# root, the settings from the environment, installing Debian's
# redis-server, and stopping a server by its pid file; with what every
# test server's script shares (scripts/server-common.sh).

# shellcheck source=scripts/server-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/server-common.sh"

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HOST=127.0.0.1

# number VAR DEFAULT prints the environment's VAR, DEFAULT when unset; a
# value that is no number ends the script with a line naming VAR.
number() {
    local v="${!1:-$2}"
    [[ "$v" =~ ^[0-9]+$ ]] || die "$1=$v: want a number"
    echo "$v"
}

# absolute prints the directory $1 as an absolute path.
absolute() { if [[ "$1" == /* ]]; then echo "$1"; else echo "$PWD/$1"; fi; }

installed() { command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1; }

install() { apt_install redis-server "redis-server or redis-cli is missing" redis-server redis-tools; }

# stop_pid PIDFILE TENTHS: wait up to TENTHS tenths of a second for the
# server of PIDFILE to exit (woken first, should a test have frozen it),
# then SIGKILL it and remove PIDFILE.
stop_pid() {
    local file=$1 tenths=$2 pid
    [[ -f "$file" ]] || return 0
    pid=$(cat "$file")
    kill -CONT "$pid" 2>/dev/null || true
    for _ in $(seq "$tenths"); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$file"
}
