package ycsb

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/goycsb/ycsb/internal/javafmt"
	"github.com/goycsb/ycsb/run"
)

// statusTicker prints the reference's status line every status.interval:
// once at the start, at every deadline, and once at the end. It ticks the
// collector (an run.Ticker).
type statusTicker struct {
	out  io.Writer
	s    *settings
	prog *run.Progress

	lastOps  int64
	lastTime time.Time
	quit     chan struct{}
	done     chan struct{}
}

func (t *statusTicker) Start(p *run.Progress) {
	t.prog, t.lastTime = p, p.Start
	t.quit, t.done = make(chan struct{}), make(chan struct{})
	go t.loop()
}

func (t *statusTicker) loop() {
	defer close(t.done)
	t.print(time.Now())
	next := t.prog.Start.Add(t.s.statusInterval)
	timer := time.NewTimer(time.Until(next))
	defer timer.Stop()
	for {
		select {
		case <-timer.C:
			t.print(time.Now())
			// Deadlines, not sleeps, so the lines do not drift.
			for !next.After(time.Now()) {
				next = next.Add(t.s.statusInterval)
			}
			timer.Reset(time.Until(next))
		case <-t.quit:
			t.print(time.Now())
			return
		}
	}
}

func (t *statusTicker) Stop() {
	close(t.quit)
	<-t.done
}

func (t *statusTicker) print(now time.Time) {
	total, remaining := t.prog.Done()
	c := t.prog.Collector
	snap := c.Tick()
	io.WriteString(t.out, statusLine(t.s.label, now, now.Sub(t.prog.Start), total, t.lastOps, now.Sub(t.lastTime), remaining, snap.Summary(c.Config())))
	t.lastOps = total
	t.lastTime = now
}

// statusLine formats one line as the reference's StatusThread does.
func statusLine(label string, now time.Time, elapsed time.Duration, total, lastTotal int64, sinceLast time.Duration, remaining int64, summaries string) string {
	var b strings.Builder
	b.WriteString(label)
	b.WriteString(now.Format("2006-01-02 15:04:05"))
	fmt.Fprintf(&b, ":%03d ", now.Nanosecond()/1e6)
	elapsedMs := elapsed.Milliseconds()
	b.WriteString(strconv.FormatInt(elapsedMs/1000, 10))
	b.WriteString(" sec: ")
	b.WriteString(strconv.FormatInt(total, 10))
	b.WriteString(" operations; ")
	if total != 0 {
		intervalMs := float64(sinceLast.Microseconds()) / 1000
		cur := 1000 * float64(total-lastTotal) / intervalMs
		b.WriteString(javafmt.Decimal2(cur))
		b.WriteString(" current ops/sec; ")
	}
	if remaining != 0 {
		throughput := 1000 * float64(total) / float64(elapsedMs)
		est := math.Ceil(float64(remaining) / throughput)
		var secs int64
		switch {
		case math.IsNaN(est):
			secs = 0
		case est >= math.MaxInt64:
			secs = math.MaxInt64
		default:
			secs = int64(est)
		}
		b.WriteString("est completion in ")
		b.WriteString(javafmt.Remaining(secs))
	}
	b.WriteString(summaries)
	b.WriteByte('\n')
	return b.String()
}
