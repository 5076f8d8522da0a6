package progress

import (
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// draw is one call of Line at t0+at.
type draw struct {
	at   time.Duration
	ops  int64
	lat  []Latency
	want string
}

func TestLine(t *testing.T) {
	read := []Latency{{"READ", 1234}, {"UPDATE", 850}}
	tests := []struct {
		name  string
		m     Meter
		width int
		draws []draw
	}{
		{
			name: "unbounded",
			m:    Meter{Start: t0},
			draws: []draw{
				{time.Second, 1000, read, "0:01 | 1,000 ops | 1,000 ops/s now, 1,000 avg | p99 READ 1.23ms UPDATE 850us"},
				{3 * time.Second, 5000, nil, "0:03 | 5,000 ops | 2,000 ops/s now, 1,667 avg"},
			},
		},
		{
			name: "operationcount",
			m:    Meter{Start: t0, TotalOps: 10000, BarWidth: 10},
			draws: []draw{
				{0, 0, nil, "[>         ]   0% 0:00 ETA - | 0 ops | - ops/s now, - avg"},
				{2 * time.Second, 2500, nil, "[==>       ]  25% 0:02 ETA 0:06 | 2,500 ops | 1,250 ops/s now, 1,250 avg"},
				{8 * time.Second, 10000, nil, "[==========] 100% 0:08 ETA 0:00 | 10,000 ops | 1,250 ops/s now, 1,250 avg"},
			},
		},
		{
			name: "maxexecutiontime wins when it ends first",
			m:    Meter{Start: t0, TotalOps: 1_000_000, MaxTime: 10 * time.Second, BarWidth: 10},
			draws: []draw{
				{5 * time.Second, 1000, nil, "[=====>    ]  50% 0:05 ETA 0:05 | 1,000 ops | 200 ops/s now, 200 avg"},
			},
		},
		{
			name: "warm-up then measured average",
			m:    Meter{Start: t0, WarmupEnd: t0.Add(2 * time.Second)},
			draws: []draw{
				{time.Second, 100, nil, "0:01 | warm-up, 0:01 left | 100 ops | 100 ops/s now, 100 avg"},
				{2 * time.Second, 300, nil, "0:02 | 300 ops | 200 ops/s now, - avg"},
				{4 * time.Second, 1300, read[:1], "0:04 | 1,300 ops | 500 ops/s now, 500 avg | p99 READ 1.23ms"},
			},
		},
		{
			name: "warm-up ends between two draws",
			m:    Meter{Start: t0, WarmupEnd: t0.Add(1500 * time.Millisecond)},
			draws: []draw{
				{time.Second, 100, nil, "0:01 | warm-up, 0:01 left | 100 ops | 100 ops/s now, 100 avg"},
				{2 * time.Second, 300, nil, "0:02 | 300 ops | 200 ops/s now, 200 avg"},
			},
		},
		{
			name:  "cut to the terminal width",
			m:     Meter{Start: t0},
			width: 20,
			draws: []draw{{time.Hour + 2*time.Minute + 3*time.Second, 7, nil, "1:02:03 | 7 ops | 0"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := tt.m
			for i, d := range tt.draws {
				got := m.Line(t0.Add(d.at), d.ops, d.lat, tt.width)
				if got != d.want {
					t.Errorf("draw %d:\n got %q\nwant %q", i, got, d.want)
				}
			}
		})
	}
}

func TestFormats(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Latency99(0), "0us"}, {Latency99(999), "999us"}, {Latency99(1000), "1.00ms"}, {Latency99(12_345), "12.3ms"},
		{Latency99(123_456), "123ms"}, {Latency99(2_500_000), "2.50s"},
		{Duration(59 * time.Second), "0:59"}, {Duration(61 * time.Minute), "1:01:00"}, {Duration(-time.Second), "0:00"},
		{Bar(0.5, 4), "[==> ]"}, {Bar(1.5, 4), "[====]"}, {Bar(-1, 3), "[>  ]"},
		{Cut("µµµµ", 2), "µµ"}, {Cut("abc", 0), "abc"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
