#!/usr/bin/env bash
# The reference Java YCSB 0.17.0 (its core: Client, CoreWorkload, BasicDB),
# fetched from Maven artifacts into the cache, for the compatibility tests
# in internal/compat.
#
# Usage: scripts/reference-ycsb.sh fetch          prints the classpath
#        scripts/reference-ycsb.sh client ARGS...  runs site.ycsb.Client
#
# Needs JDK 17 and Maven. Environment: YCSB_CACHE (default <repo>/.cache),
# REFERENCE_JAVA (default JDK 17's java).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${YCSB_CACHE:-$REPO/.cache}
LIB=$CACHE/reference-ycsb-0.17.0/lib
JAVA=${REFERENCE_JAVA:-/usr/lib/jvm/java-17-openjdk-amd64/bin/java}
[[ -x "$JAVA" ]] || JAVA=java

fetch() {
    if [[ ! -e "$LIB/.complete" ]]; then
        mkdir -p "$LIB"
        mvn -B -q -Dstyle.color=never -f "$REPO/scripts/reference/pom.xml" \
            org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
            -DincludeScope=runtime -DoutputDirectory="$LIB" >&2
        touch "$LIB/.complete"
    fi
}

case "${1:-}" in
fetch)
    fetch
    echo "$LIB/*"
    ;;
client)
    shift
    fetch
    exec "$JAVA" -cp "$LIB/*" site.ycsb.Client "$@"
    ;;
*)
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
