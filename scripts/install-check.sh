#!/usr/bin/env bash
# Installs the module as its users do, before anything is published
# (`make install-check`, and scripts/test.sh in CI):
#
#  1. tools/modzip serves the committed tree (REV, default HEAD) as a module
#     proxy would: the list, .info, .mod and .zip of its pseudo-version,
#     under a temporary GOPROXY=file:// directory;
#  2. `go install github.com/goycsb/ycsb/cmd/ycsb@VERSION` into a clean
#     GOPATH, the other modules from the module cache's download directory
#     (itself a proxy layout) or from the default proxy, every one checked
#     against the checksum database but ours; then the installed binary
#     runs `ycsb run basic`;
#  3. a throwaway module requires that version and builds a program that
#     imports every package of ours another module may import;
#  4. scripts/image-steps.sh: the Dockerfile's build steps, without a
#     container runtime.
#
# What is checked is the commit, not the work tree: commit first.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "install-check: $*"; }
REV="${REV:-HEAD}"
if [[ -n "$(git status --porcelain --untracked-files=no)" ]]; then
    say "note: uncommitted changes are not checked (the commit $REV is)"
fi

# One fixed directory, emptied before and after (flock: one check at a
# time): the module cache's paths are then the same from one check to the
# next, so the build cache, which keys a package by its directory as well
# as its content, compiles only what changed.
work="${TMPDIR:-/tmp}/ycsb-install-check"
exec 9>"$work.lock"
flock 9
wipe() { chmod -R u+w "$work" 2>/dev/null || true; rm -rf "$work"; }
wipe
trap wipe EXIT
mkdir -p "$work"
proxy="$work/proxy"
mv=$(cd tools/modzip && go run . -repo ../.. -rev "$REV" -out "$proxy")
version=${mv#*@}
module=${mv%@*}
say "serving $mv from file://$proxy"

# A clean GOPATH and module cache: every module is resolved and extracted
# afresh, downloads come through the proxies below. The build cache is the
# machine's: it is keyed by content, so sharing it changes no result, only
# the time (two cold builds of every dependency took minutes of the suite).
export GOPATH="$work/gopath" GOMODCACHE="$work/gopath/pkg/mod"
export GOBIN="$work/bin"
upstream=$(go env GOPROXY)
cache="$(cd "$(dirname "$0")/.." && GOPATH= GOMODCACHE= go env GOMODCACHE)/cache/download"
export GOPROXY="file://$proxy,file://$cache,$upstream"
export GONOSUMDB="$module" GOFLAGS=-mod=mod GOWORK=off
unset GOPRIVATE GONOPROXY GOINSECURE

say "go install $module/cmd/ycsb@$version"
(cd "$work" && go install "$module/cmd/ycsb@$version")
out=$("$GOBIN/ycsb" run basic -p workload=site.ycsb.workloads.CoreWorkload \
    -p recordcount=1000 -p operationcount=1000 2>&1) || {
    echo "$out" >&2
    say "the installed ycsb failed"
    exit 1
}
grep -q '^\[OVERALL\], Throughput' <<<"$out" || {
    echo "$out" >&2
    say "the installed ycsb printed no [OVERALL] throughput"
    exit 1
}
say "the installed ycsb ran basic: $(grep '^\[OVERALL\], Throughput' <<<"$out")"

# A module of its own that imports every package another module may
# import of ours (not internal, not a command).
lib="$work/importer"
mkdir -p "$lib"
cd "$lib"
go mod init example.com/importer >/dev/null 2>&1
go get "$module@$version" >/dev/null 2>&1 || go get "$module@$version"
# -e and .GoFiles: a directory of tests alone (the module root's
# architecture test) is no package to import.
pkgs=$(go list -e -f '{{if and (ne .Name "main") .GoFiles}}{{.ImportPath}}{{end}}' "$module/..." | grep -v '/internal/')
{
    echo "// Command importer imports every importable package of $module."
    echo "package main"
    echo
    echo "import ("
    for p in $pkgs; do echo "	_ \"$p\""; done
    echo ")"
    echo
    echo "func main() {}"
} >main.go
go mod tidy >/dev/null 2>&1 || go mod tidy
go build -o /dev/null .
cd - >/dev/null
say "a module importing $(wc -w <<<"$pkgs") packages of $mv builds"

scripts/image-steps.sh
