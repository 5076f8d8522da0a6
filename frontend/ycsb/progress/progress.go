// Package progress renders the live progress line shown on a terminal while
// a run is going: elapsed time, operations done, current and average
// throughput, a bar with an ETA when the run is bounded, and the current
// p99 latency per operation. It only formats; the front end decides when to
// draw and where. Every method takes the time as an argument, so the output
// is a pure function of its inputs and tests need no real clock.
package progress

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/goycsb/ycsb/internal/javafmt"
)

// Latency is one operation's latency in the last interval.
type Latency struct {
	Name  string // READ, UPDATE, ...
	P99Us int64
}

// Meter keeps what the line needs between two draws. Set the exported
// fields before the first call to Line.
type Meter struct {
	Start     time.Time     // when the run started
	WarmupEnd time.Time     // end of the warm-up; zero without one
	TotalOps  int64         // operations the run will do; 0 when unbounded
	MaxTime   time.Duration // maxexecutiontime; 0 when unbounded
	BarWidth  int           // cells of the bar; 0 picks 20

	started  bool
	lastOps  int64
	lastTime time.Time
	warmOps  int64 // operations done when the warm-up ended
	warmSeen bool
	lastRate float64
	hasRate  bool
}

// Line returns the progress line for ops operations done at now, with the
// latencies of the last interval, cut to width columns (0: no limit). It
// has no line ending: the caller adds "\r" and the erase sequence.
func (m *Meter) Line(now time.Time, ops int64, lat []Latency, width int) string {
	if !m.started {
		m.started = true
		m.lastTime = m.Start
	}
	warming := !m.WarmupEnd.IsZero() && now.Before(m.WarmupEnd)
	if !warming && !m.WarmupEnd.IsZero() && !m.warmSeen {
		// The first draw after the warm-up: the average starts at the
		// warm-up's end, with the operations done by then interpolated
		// between this draw and the previous one.
		m.warmSeen = true
		m.warmOps = ops
		if dt := now.Sub(m.lastTime); dt > 0 && m.WarmupEnd.After(m.lastTime) {
			f := float64(m.WarmupEnd.Sub(m.lastTime)) / float64(dt)
			m.warmOps = m.lastOps + int64(f*float64(ops-m.lastOps))
		}
	}
	// Current rate: since the previous draw.
	if dt := now.Sub(m.lastTime).Seconds(); dt >= 0.05 {
		m.lastRate = float64(ops-m.lastOps) / dt
		m.hasRate = true
	}
	m.lastOps, m.lastTime = ops, now

	var b strings.Builder
	elapsed := now.Sub(m.Start)
	frac, eta, bounded := m.remaining(now, ops)
	if bounded {
		b.WriteString(Bar(frac, m.barWidth()))
		fmt.Fprintf(&b, " %3d%% ", int(math.Floor(frac*100)))
	}
	b.WriteString(Duration(elapsed))
	if bounded {
		b.WriteString(" ETA ")
		if eta < 0 {
			b.WriteString("-")
		} else {
			b.WriteString(Duration(eta))
		}
	}
	if warming {
		b.WriteString(" | warm-up, ")
		b.WriteString(Duration(m.WarmupEnd.Sub(now)))
		b.WriteString(" left")
	}
	b.WriteString(" | ")
	b.WriteString(javafmt.Grouped(ops))
	b.WriteString(" ops | ")
	if m.hasRate {
		b.WriteString(javafmt.Grouped(int64(math.Round(m.lastRate))))
	} else {
		b.WriteString("-")
	}
	b.WriteString(" ops/s now, ")
	// The average covers the measured part once the warm-up is over.
	from, base := m.Start, int64(0)
	if m.warmSeen {
		from, base = m.WarmupEnd, m.warmOps
	}
	if d := now.Sub(from).Seconds(); d >= 0.05 && ops >= base {
		b.WriteString(javafmt.Grouped(int64(math.Round(float64(ops-base) / d))))
	} else {
		b.WriteString("-")
	}
	b.WriteString(" avg")
	if len(lat) > 0 {
		b.WriteString(" | p99")
		for _, l := range lat {
			b.WriteByte(' ')
			b.WriteString(l.Name)
			b.WriteByte(' ')
			b.WriteString(Latency99(l.P99Us))
		}
	}
	return Cut(b.String(), width)
}

func (m *Meter) barWidth() int {
	if m.BarWidth > 0 {
		return m.BarWidth
	}
	return 20
}

// remaining returns the fraction done and the estimated time left, the
// larger fraction of the operation bound and the time bound.
func (m *Meter) remaining(now time.Time, ops int64) (frac float64, eta time.Duration, bounded bool) {
	eta = -1 // unknown
	elapsed := now.Sub(m.Start)
	if m.TotalOps > 0 {
		bounded = true
		frac = float64(ops) / float64(m.TotalOps)
		if ops > 0 && elapsed > 0 {
			rate := float64(ops) / elapsed.Seconds()
			eta = time.Duration(float64(m.TotalOps-ops) / rate * float64(time.Second))
		}
	}
	if m.MaxTime > 0 {
		bounded = true
		f := elapsed.Seconds() / m.MaxTime.Seconds()
		left := max(m.MaxTime-elapsed, 0)
		if f > frac {
			frac = f
		}
		if eta < 0 || left < eta {
			eta = left
		}
	}
	frac = math.Min(math.Max(frac, 0), 1)
	if eta < 0 && frac >= 1 {
		eta = 0
	}
	return frac, eta, bounded
}

// Bar draws [=====>    ] for a fraction between 0 and 1.
func Bar(frac float64, width int) string {
	frac = math.Min(math.Max(frac, 0), 1)
	full := int(frac * float64(width))
	var b strings.Builder
	b.Grow(width + 2)
	b.WriteByte('[')
	b.WriteString(strings.Repeat("=", full))
	if full < width {
		b.WriteByte('>')
		b.WriteString(strings.Repeat(" ", width-full-1))
	}
	b.WriteByte(']')
	return b.String()
}

// Duration formats d as m:ss, or h:mm:ss from an hour on.
func Duration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int64(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// Latency99 formats a latency in µs with three significant digits at most:
// 850us, 1.25ms, 12.5ms, 125ms, 1.25s.
func Latency99(us int64) string {
	switch {
	case us < 1000:
		return strconv.FormatInt(us, 10) + "us"
	case us < 1_000_000:
		return sig3(float64(us)/1e3) + "ms"
	default:
		return sig3(float64(us)/1e6) + "s"
	}
}

func sig3(v float64) string {
	switch {
	case v < 10:
		return strconv.FormatFloat(v, 'f', 2, 64)
	case v < 100:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
}

// Cut shortens s to at most width columns (runes; the line is ASCII but
// for operation names), so a narrow terminal does not wrap it.
func Cut(s string, width int) string {
	if width <= 0 || utf8.RuneCountInString(s) <= width {
		return s
	}
	n := 0
	for i := range s {
		if n == width {
			return strings.TrimRight(s[:i], " ")
		}
		n++
	}
	return s
}
