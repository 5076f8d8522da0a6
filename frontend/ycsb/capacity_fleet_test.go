package ycsb

import (
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/report/merge"
)

// TestCapacityFleet is the known answer of a fleet of three clients: each
// of four threads whose operations take a millisecond (a little more: the
// sleeps overshoot) offers at most about 3,600 ops/s. The ladder 4000,
// 6000, 9000, 13500 asks each client a third: 13,500 is beyond the three
// (4,500 each), so the merged answer is the step below it and the clients
// limited it. Each client's report is its share, not judged; the merged
// steps' histograms hold every client's operations.
func TestCapacityFleet(t *testing.T) {
	addr, dir := ycsbtest.FreeAddr(t), t.TempDir()
	var wg sync.WaitGroup
	outs, stderrs, errs := make([]string, 3), make([]string, 3), make([]error, 3)
	paths := make([]string, 3)
	for i := range 3 {
		paths[i] = filepath.Join(dir, strconv.Itoa(i)+".json")
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], stderrs[i], errs[i] = capacityBasic(t, map[string]string{"threadcount": "4", "capacity.maxthreads": "4",
				"capacity.start": "4000", "capacity.growth": "1.5", "capacity.max": "16000",
				"client.count": "3", "client.index": strconv.Itoa(i), "client.rendezvous": addr, "report.json": paths[i]})
		}()
	}
	wg.Wait()
	var reps []*jsonreport.Report
	for i := range 3 {
		if errs[i] != nil {
			t.Fatalf("client %d: %v\n%s", i, errs[i], stderrs[i])
		}
		if l := row(t, outs[i], "CAPACITY", "Limit"); l != "not judged: client "+strconv.Itoa(i)+" of 3; ycsb merge judges each step on the fleet's merged histograms" {
			t.Errorf("client %d: Limit %q", i, l)
		}
		if strings.Contains(outs[i], "MaxThroughput") {
			t.Errorf("client %d answers alone:\n%s", i, outs[i])
		}
		r := readReport(t, paths[i])
		c := r.Capacity
		if c == nil || c.Limit != "fleet" || c.MaxOpsSec != 0 || len(c.Steps) != 4 {
			t.Fatalf("client %d: capacity %+v", i, c)
		}
		for k, s := range c.Steps {
			want := []float64{4000, 6000, 9000, 13500}[k]
			share := float64(int(want) / 3) // the remainder to the first clients
			if i < int(want)%3 {
				share++
			}
			if s.AskedOpsSec != want || s.ShareOpsSec != share || s.SLO == nil || s.SLO.Judged ||
				(s.Verdict != "NOT JUDGED" && s.Verdict != "CLIENT-LIMITED") {
				t.Errorf("client %d step %d: asked %v, share %v, verdict %s", i, k+1, s.AskedOpsSec, s.ShareOpsSec, s.Verdict)
			}
		}
		if s := c.Steps[3]; s.Verdict != "CLIENT-LIMITED" || !strings.Contains(s.Why, "capacity.maxthreads=4") {
			t.Errorf("client %d: 4500 ops/s of 4 threads: %s %s", i, s.Verdict, s.Why)
		}
		reps = append(reps, r)
	}
	m, err := merge.MergeCapacity(paths, reps, "")
	if err != nil {
		t.Fatal(err)
	}
	c := m.Capacity
	// On a quiet machine the answer is 9000; a machine busy elsewhere
	// stretches the sleeps, and the clients give out at a lower step
	// (their threads, or a share's schedule not kept at the threads'
	// edge): still the clients' limit, never the system's.
	// The answer is what its step served, at most the step's rate asked.
	asked := 0.0
	if s := c.AnswerStep(); s != nil {
		asked = s.AskedOpsSec
	}
	if asked > 9000 || c.MaxOpsSec > asked || c.FirstFailingOpsSec != max(1.5*asked, 4000) || c.Limit != "client" ||
		!strings.Contains(c.LimitWhy, "threads limit the fleet (capacity.maxthreads=4)") && !strings.Contains(c.LimitWhy, "did not keep its schedule") {
		t.Errorf("fleet's answer %v (step at %v), first failing %v, limit %s: %s", c.MaxOpsSec, asked, c.FirstFailingOpsSec, c.Limit, c.LimitWhy)
	}
	if asked != 9000 {
		t.Logf("a busy machine: the fleet's answer is %v, not 9000: %s", c.MaxOpsSec, c.LimitWhy)
	}
	if m.Clients != 3 || m.Phase != "capacity" || len(c.Steps) != 4 {
		t.Fatalf("merged: %d clients, phase %s, %d steps", m.Clients, m.Phase, len(c.Steps))
	}
	for k, s := range c.Steps {
		var ops, count int64
		for _, r := range reps {
			ops += r.Capacity.Steps[k].Operations
			count += readCount(r.Capacity.Steps[k].Measurements)
		}
		if s.Operations != ops || readCount(s.Measurements) != count || count == 0 || !s.SLO.Judged {
			t.Errorf("step %d: %d operations, %d READs merged, want %d and %d", k+1, s.Operations, readCount(s.Measurements), ops, count)
		}
	}
	if c.Steps[3].Verdict != "CLIENT-LIMITED" {
		t.Errorf("step 4: %s", c.Steps[3].Verdict)
	}
}

// readCount is the intended READ histogram's count.
func readCount(ms []jsonreport.Measurement) int64 {
	for _, m := range ms {
		if m.Name == "Intended-READ" {
			return m.Count
		}
	}
	return -1
}
