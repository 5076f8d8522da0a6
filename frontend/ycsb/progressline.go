package ycsb

import (
	"io"
	"sync"
	"time"

	"github.com/goycsb/ycsb/frontend/ycsb/progress"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/run"
)

// progressLine redraws one line on a terminal after every collector tick
// (report.interval) while the run goes; see frontend/ycsb/progress. It is an
// run.Output.
type progressLine struct {
	mu     sync.Mutex // the ticker draws, the time limit prints messages
	out    io.Writer
	fd     int // the terminal, for its width; -1 when forced onto a non-terminal
	meter  progress.Meter
	warmup time.Duration
	prog   *run.Progress
	lat    []progress.Latency
	ended  bool // the last line is drawn (set by the ticking goroutine)
}

// eraseLine goes back to the start of the line and clears what is left of
// the previous draw after the new text.
const eraseLine = "\x1b[K"

func newProgressLine(out io.Writer, fd int, s *settings) *progressLine {
	pl := &progressLine{out: out, fd: fd, warmup: s.warmup}
	pl.meter = progress.Meter{TotalOps: s.opCount, MaxTime: s.maxExecution}
	return pl
}

// draw shows the line for now, with the p99 of each operation in snap (the
// interval just harvested).
func (pl *progressLine) draw(now time.Time, snap *measurement.Snapshot) {
	pl.lat = pl.lat[:0]
	for i := range snap.Measurements {
		m := &snap.Measurements[i]
		if m.Intended || m.Kind != measurement.KindOK || m.Hist == nil || m.Hist.TotalCount() == 0 ||
			m.Operation == measurement.YCSB.Name(measurement.ScanLatencyPerRecord) || m.Operation == measurement.CleanupName {
			continue
		}
		st := measurement.StatsOf(m.Hist)
		pl.lat = append(pl.lat, progress.Latency{Name: m.Name, P99Us: st.Percentile(99)})
	}
	pl.write(now, false)
}

func (pl *progressLine) write(now time.Time, final bool) {
	ops, _ := pl.prog.Done()
	width := termWidth(pl.fd)
	if width > 0 {
		width-- // never touch the last column: some terminals wrap there
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	line := "\r" + pl.meter.Line(now, ops, pl.lat, width) + eraseLine
	if final {
		line += "\n"
	}
	io.WriteString(pl.out, line)
}

// message prints a line of text where the progress line is; the next draw
// brings the progress line back below it.
func (pl *progressLine) message(text string) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	io.WriteString(pl.out, "\r"+eraseLine+text+"\n")
}

func (pl *progressLine) WatchProgress(p *run.Progress) { pl.prog = p }

// StartRun draws the first line, before the first interval.
func (pl *progressLine) StartRun(start time.Time, _ int64) {
	pl.meter.Start = start
	if pl.warmup > 0 {
		pl.meter.WarmupEnd = start.Add(pl.warmup)
	}
	pl.draw(time.Now(), &measurement.Snapshot{})
}

// AddInterval draws the line after each tick of the run.
func (pl *progressLine) AddInterval(_, _ int64, iv *measurement.Snapshot) {
	if !pl.ended {
		pl.draw(time.Now(), iv)
	}
}

// EndRun draws the last line, with every operation counted, and ends it;
// the engine's last tick, for the report, draws nothing.
func (pl *progressLine) EndRun(end time.Time) {
	pl.write(end, true)
	pl.ended = true
}
