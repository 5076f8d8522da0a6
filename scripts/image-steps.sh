#!/usr/bin/env bash
# The Dockerfile's build stage, run as a script: the same steps in the same
# order on the same inputs (go.mod and go.sum alone, `go mod download`, then
# the context without what .dockerignore leaves out, then the static build),
# in a clean module cache, so that a change that breaks the image
# fails the tests on a machine with no container runtime. The Dockerfile's
# build-stage lines must be the ones below: a change to them fails here
# until this script follows it. `make image` builds the image itself.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

say() { echo "image-steps: $*"; }

expected='FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /ycsb ./cmd/ycsb
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /ycsb /ycsb
COPY --from=build /src/workloads /workloads
USER 65532:65532
ENTRYPOINT ["/ycsb"]'
actual=$(grep -E '^[A-Z]+ ' Dockerfile)
if [[ "$actual" != "$expected" ]]; then
    diff <(echo "$expected") <(echo "$actual") >&2 || true
    say "the Dockerfile's steps changed: make scripts/image-steps.sh follow them"
    exit 1
fi

work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
src="$work/src"
mkdir -p "$src"
# As the golang image: no GOFLAGS, an empty module cache, the default proxy
# (the local module cache's downloads first, to spare the network; every
# module is checked against go.sum all the same). The build cache is the
# machine's: keyed by content (and -trimpath leaves the directories out),
# it changes no result, and a cold one cost a minute of the suite.
cache="$(go env GOMODCACHE)/cache/download"
upstream=$(GOPROXY= go env GOPROXY)
export GOPATH="$work/gopath" GOMODCACHE="$work/gopath/pkg/mod"
export GOPROXY="file://$cache,$upstream" GOFLAGS= GOWORK=off
unset GOPRIVATE GONOPROXY GONOSUMDB GOINSECURE

# WORKDIR /src; COPY go.mod go.sum ./; RUN go mod download
cp go.mod go.sum "$src/"
say "go mod download (go.mod and go.sum alone)"
(cd "$src" && go mod download)

# COPY . . (the context less .dockerignore's patterns, from the root)
excludes=()
while IFS= read -r p; do
    [[ -z "$p" || "$p" == \#* ]] && continue
    excludes+=("--exclude=./${p#/}")
done <.dockerignore
tar -C "$repo" --anchored "${excludes[@]}" -cf - . | tar -C "$src" -xf -

# RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /ycsb ./cmd/ycsb
say "go build (static)"
(cd "$src" && CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o "$work/ycsb" ./cmd/ycsb)
# the final stage copies /src/workloads
[[ -f "$src/workloads/workloada" ]] || { say "no workloads/workloada in the build context"; exit 1; }
out=$(cd "$src" && "$work/ycsb" run basic -P workloads/workloadc -p recordcount=1000 -p operationcount=1000 2>&1) || { echo "$out" >&2; say "the built ycsb failed"; exit 1; }
say "the image's binary builds and runs basic with /workloads"
