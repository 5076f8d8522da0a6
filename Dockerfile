# syntax=docker/dockerfile:1
# The image of the pods that `ycsb kube` generates (docs/distributed.md): a
# static binary on distroless/static, which has CA certificates and a
# non-root user (65532) and nothing else. No cgo, so the RocksDB binding
# (build tag rocksdb) is not in it; every network binding is.
#   docker build -t ycsb:0.1.0 .

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /ycsb ./cmd/ycsb

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /ycsb /ycsb
# The shipped workloads, for -P /workloads/workloada without a ConfigMap.
COPY --from=build /src/workloads /workloads
USER 65532:65532
ENTRYPOINT ["/ycsb"]
