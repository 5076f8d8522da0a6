# ycsb for Go. `make help` lists the targets.
GO      ?= go
# Build tags: TAGS=rocksdb links the RocksDB binding (needs librocksdb-dev).
# Never detected automatically: a build must not differ silently by machine.
TAGS    ?=
BIN     ?= bin/ycsb
GOFLAGS_TAGS = $(if $(TAGS),-tags $(TAGS),)

.PHONY: help build run test testrace unit bench bench-client bench-memory bench-pacing fuzz-smoke lint postgres-start postgres-stop cassandra-start cassandra-stop cassandra-cluster-start cassandra-cluster-stop mariadb-start mariadb-stop compare-mysql-engines bench-mysql redis-start redis-stop redis-cluster-start redis-cluster-stop bench-redis compare-stress compare-engines bench-engines-native bench-network install-check image clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-18s %s\n", $$1, $$2}'

build: ## build bin/ycsb (make build TAGS=rocksdb adds the RocksDB binding)
	$(GO) build $(GOFLAGS_TAGS) -o $(BIN) ./cmd/ycsb

run: build ## load and run workload A on the embedded Pebble engine: no server needed
	$(BIN) load pebble -P workloads/workloada -p recordcount=100000 -p engine.fresh=true -s
	$(BIN) run pebble -P workloads/workloada -p recordcount=100000 -p operationcount=200000 -threads 2 -s

test: ## the whole test suite: starts PostgreSQL, MariaDB, Redis and Cassandra, vet, gofmt, go test -race
	./scripts/test.sh

unit: ## unit tests only, no servers
	YCSB_NO_SERVERS=1 $(GO) test $(GOFLAGS_TAGS) ./...

bench: ## benchmarks of the hot path (generators, measurement, workload, basic end to end, the CQL request path)
	$(GO) test $(GOFLAGS_TAGS) -run '^$$' -bench . -benchmem ./workload/... ./measurement/... ./db/basic/ ./frontend/ycsb/ ./internal/cql/cqlwire/

bench-client: ## the client's speed goals with the basic binding (REFERENCE=1 also runs the reference YCSB)
	./scripts/bench-client.sh

bench-memory: ## peak RSS of load and run with the basic binding at 1, 1000 and 4000 threads (THREADS="..." to change)
	./scripts/bench-memory.sh

bench-pacing: ## paced runs (-target) of workload C beside the reference YCSB: intended and wake-up latency, op/s, CPU per op, peak RSS (DURATION=10 RUNS=2)
	./scripts/bench-pacing.sh

fuzz-smoke: ## run every fuzz target briefly
	./scripts/fuzz-smoke.sh

# staticcheck runs at a fixed version without entering go.mod, so that the
# linter's own dependencies never change the product's build.
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2

lint: ## go vet, gofmt and staticcheck
	$(GO) vet $(GOFLAGS_TAGS) ./...
	@test -z "$$(gofmt -l .)" || (gofmt -l .; exit 1)
	$(STATICCHECK) $(GOFLAGS_TAGS) ./...

postgres-start: ## start the local PostgreSQL used by the tests
	./scripts/postgres.sh start

postgres-stop: ## stop it
	./scripts/postgres.sh stop

mariadb-start: ## start the local MariaDB (InnoDB and MyRocks) on 127.0.0.1:3306 used by the tests (MARIADB_DIR to move its data)
	./scripts/mariadb.sh start

mariadb-stop: ## stop it
	./scripts/mariadb.sh stop

compare-mysql-engines: ## load (settled) and run workloads A-F on InnoDB and MyRocks in the local MariaDB, side by side with each engine's statistics
	./scripts/compare-mysql-engines.sh

bench-mysql: ## ours, go-ycsb's mysql and the reference's jdbc binding on the local MariaDB: point reads and a batched load, op/s and client CPU per op (RECORDS=100000 ROUNDS=3)
	./scripts/bench-mysql.sh

cassandra-start: ## fetch (cached) and start a local Cassandra 5.0 node on 127.0.0.1:9042
	./scripts/cassandra.sh start

cassandra-stop: ## stop it
	./scripts/cassandra.sh stop

cassandra-cluster-start: ## start (or complete) a three-node Cassandra 5.0 cluster on 127.0.0.2-4:9042, heaps 256m/512m, and wait until it is ready
	./scripts/cassandra-cluster.sh start

cassandra-cluster-stop: ## stop it
	./scripts/cassandra-cluster.sh stop

redis-start: ## start the local Redis on 127.0.0.1:6379 (ACL user ycsb/ycsb, TLS on 6380 with certificates it makes)
	./scripts/redis.sh start

redis-stop: ## stop it
	./scripts/redis.sh stop

redis-cluster-start: ## start a Redis Cluster of 3 masters and 3 replicas on 127.0.0.1:7001-7006 and wait until it is ok
	./scripts/redis-cluster.sh start

redis-cluster-stop: ## stop it
	./scripts/redis-cluster.sh stop

bench-redis: ## point reads and updates on the local Redis: ours, go-ycsb, the reference (jedis) and redis-benchmark: op/s and client CPU per op
	./scripts/bench-redis.sh

bench-network: ## jdbc and cassandra-cql beside the reference YCSB, and cassandra-cql and stress beside latte, on the local servers: op/s, client and server CPU per op (SUITES="pg cassandra latte")
	./scripts/bench-network.sh

compare-stress: ## ycsb stress vs the real cassandra-stress on the local node: op/s, CPU per op, peak RSS (THREADS="8 64 500")
	./scripts/compare-stress.sh

compare-engines: ## load (settled) each of ENGINES (pebble rocksdb badger bbolt sqlite) and run workloads A-F, each on a copy of the settled store, at most MAXTIME s each; CAPACITY_SLO="READ.p99<=1ms" adds each one's capacity (needs librocksdb-dev)
	./scripts/compare-engines.sh

bench-engines-native: ## random reads and updates on each engine beside its own tool (db_bench from rocksdb-tools, pebble bench at go.mod's version) at the same settings (KEYS=500000 VALUE=400)
	./scripts/bench-engines-native.sh

install-check: ## install cmd/ycsb with go install from the committed tree served as a module proxy would, run it; build a module importing our packages; the Dockerfile's steps as a script
	./scripts/install-check.sh

# The image of `ycsb kube`'s pods (Dockerfile), with docker or else podman.
IMAGE   ?= ycsb:dev
RUNTIME ?= $(shell command -v docker 2>/dev/null || command -v podman 2>/dev/null)

image: ## build the container image (IMAGE=ycsb:dev) with docker or podman, and run basic in it
	@test -n "$(RUNTIME)" || (echo "image: neither docker nor podman is installed (scripts/image-steps.sh runs the build's steps without one)"; exit 2)
	$(RUNTIME) build -t $(IMAGE) .
	$(RUNTIME) run --rm $(IMAGE) run basic -P /workloads/workloadc -p recordcount=1000 -p operationcount=1000

clean: ## remove build output and local data
	rm -rf bin ycsb-data

.PHONY: report-example
report-example: ## Pebble vs RocksDB on workload A as one HTML report, and docs/img/report-example.png (needs librocksdb-dev, chromium)
	SCREENSHOT=docs/img/report-example.png ./scripts/report-example.sh
