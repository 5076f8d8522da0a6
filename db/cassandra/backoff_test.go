package cassandra

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/internal/backoff"
)

// The session backs off (see package backoff) after an error that says
// no node could take the operation, and not after another.
func TestFailBacksOff(t *testing.T) {
	s := newSession(nil)
	ctx := context.Background()
	s.fail(ctx, opRead, gocql.ErrNoConnections)
	s.fail(ctx, opRead, fmt.Errorf("x: %w", syscall.ECONNREFUSED))
	if got := s.backoff.Current(); got != 2*backoff.Min {
		t.Errorf("two failures for want of a node: a wait of %v, want %v", got, 2*backoff.Min)
	}
	s.backoff.Reset() // as a success does
	s.fail(ctx, opRead, errors.New("bad request"))
	s.fail(ctx, opRead, fmt.Errorf("x: %w", gocql.ErrTimeoutNoResponse)) // it has waited already
	if got := s.backoff.Current(); got != 0 {
		t.Errorf("errors that are not for want of a node set a backoff of %v", got)
	}
}

// testDownNodeIsBackedOff (TestOwnNode) stops the test's own node under an
// unpaced run: the workers must back off instead of failing millions of
// operations, and the report must say how many succeeded.
func testDownNodeIsBackedOff(t *testing.T, n *ownNode) {
	if testing.Short() {
		t.Skip("stops a Cassandra node of its own; skipped with -short")
	}
	common := []string{"-P", "workloads/workloadc", "-p", "hosts=" + testHost, "-p", "port=" + n.port, "-p", "cassandra.keyspace=ycsb_backoff",
		"-p", "cassandra.createschema=true", "-p", "recordcount=1000", "-p", "cassandra.readtimeoutmillis=2000",
		"-p", "cassandra.connecttimeoutmillis=1000", "-threads", "2"}
	if stdout, stderr, code := ycsb(t, time.Minute, append([]string{"load", "cassandra-cql"}, common...)...); code != 0 {
		t.Fatalf("load: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// The stop takes about 5 s (the script's SIGTERM, the node's drain):
	// the node is down for the last 5 s or more.
	const runFor = 15
	done := make(chan struct{})
	var stdout, stderr string
	var code int
	go func() {
		defer close(done)
		stdout, stderr, code = ycsb(t, 3*runFor*time.Second, append([]string{"run", "cassandra-cql"}, append(common,
			"-p", "operationcount=0", "-p", fmt.Sprintf("maxexecutiontime=%d", runFor))...)...)
	}()
	time.Sleep(4 * time.Second)
	stopped := time.Now()
	n.must("stop")
	t.Logf("node stopped in %.1fs", time.Since(stopped).Seconds())
	<-done
	if code != 0 || !strings.Contains(stdout, "[OVERALL], RunTime(ms)") {
		t.Fatalf("run: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	failed := 0
	for _, m := range regexp.MustCompile(`(?m)^\[READ\], Return=(\w+), (\d+)$`).FindAllStringSubmatch(stdout, -1) {
		if m[1] != "OK" {
			v, _ := strconv.Atoi(m[2])
			failed += v
		}
	}
	t.Logf("%d reads failed while the node was down", failed)
	if failed == 0 {
		t.Errorf("no read failed while the node was down:\n%s", stdout)
	}
	// Two workers over at most 11 s down, backing off up to 1 s: a few
	// dozen failures each. Without a backoff it is millions.
	if failed > 2000 {
		t.Errorf("%d reads failed in at most %d s with the node down: no backoff", failed, runFor)
	}
	total := regexp.MustCompile(`(?m)^\[OVERALL\], Throughput\(ops/sec\), ([\d.]+)$`).FindStringSubmatch(stdout)
	ok := regexp.MustCompile(`(?m)^\[OVERALL\], SuccessfulThroughput\(ops/sec\), ([\d.]+)$`).FindStringSubmatch(stdout)
	if total == nil || ok == nil {
		t.Fatalf("no Throughput and SuccessfulThroughput rows:\n%s", stdout)
	}
	if a, _ := strconv.ParseFloat(ok[1], 64); a <= 0 {
		t.Errorf("SuccessfulThroughput %s: the reads before the stop succeeded", ok[1])
	}
}

// The driver's path's policy retries on the next node what
// cqlwire.Retryable says, up to its bound, and counts each retry.
func TestDriverRetry(t *testing.T) {
	var n int64
	p := &driverRetry{max: 2, n: &n}
	try := func(attempts int, err error) gocql.RetryType {
		p.Attempt(fakeRetryable{attempts})
		return p.GetRetryType(err)
	}
	if got := try(1, gocql.ErrNoConnections); got != gocql.RetryNextHost {
		t.Errorf("first failure: %v, want RetryNextHost", got)
	}
	if got := try(2, syscall.ECONNRESET); got != gocql.RetryNextHost {
		t.Errorf("second failure: %v, want RetryNextHost", got)
	}
	if got := try(3, gocql.ErrNoConnections); got != gocql.Rethrow {
		t.Errorf("past the bound: %v, want Rethrow", got)
	}
	if got := try(1, errors.New("syntax")); got != gocql.Rethrow {
		t.Errorf("an error not to retry: %v, want Rethrow", got)
	}
	if n != 2 {
		t.Errorf("%d retries counted, want 2", n)
	}
}

type fakeRetryable struct{ n int }

func (f fakeRetryable) Attempts() int                     { return f.n }
func (f fakeRetryable) SetConsistency(gocql.Consistency)  {}
func (f fakeRetryable) GetConsistency() gocql.Consistency { return gocql.One }
func (f fakeRetryable) Context() context.Context          { return context.Background() }
