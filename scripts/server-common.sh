# What the scripts that run a test server share (scripts/mariadb.sh,
# scripts/postgres.sh, and through scripts/redis-common.sh scripts/redis.sh
# and scripts/redis-cluster.sh), sourced by each once it sets NAME (the
# prefix of its messages): its messages, installing Debian's packages,
# waiting for the server, its status and its help.

say() { echo "$NAME: $*"; }
die() { echo "$NAME: $*" >&2; exit 1; }

# apt_install WHAT MISSING PACKAGE...: unless the caller's installed
# succeeds, installs the packages with apt-get (which needs root). WHAT
# names them in the messages; MISSING says what is still missing should
# installed fail after apt-get.
apt_install() {
    local what=$1 missing=$2
    shift 2
    installed && return 0
    [[ "$(id -u)" == 0 ]] || die "$what is not installed and installing it needs root"
    say "installing $what with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "$@" >/dev/null
    installed || die "apt-get installed $what but $missing"
}

# wait_until CHECK WHAT LOG: runs CHECK every 0.2 s until it succeeds;
# START_TIMEOUT seconds on, ends the script with "WHAT after <n>s (see
# LOG)".
wait_until() {
    local check=$1 what=$2 log=$3
    local deadline=$((SECONDS + START_TIMEOUT))
    until "$check"; do
        ((SECONDS < deadline)) || die "$what after ${START_TIMEOUT}s (see $log)"
        sleep 0.2
    done
}

# show_status ANSWER: exit status 0 and "ANSWER on HOST:PORT" if the caller's
# accepting succeeds, else 1 and "not running on HOST:PORT".
show_status() {
    if accepting; then
        say "$1 on $HOST:$PORT"
        return 0
    fi
    say "not running on $HOST:$PORT"
    return 1
}

# usage prints the script's help: its header comment, from its second line
# to set -euo.
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
