package measurement

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/goycsb/ycsb/db/status"
	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/props"
)

func config(t testing.TB, kv map[string]string) *Config {
	t.Helper()
	cfg, err := ParseConfig(props.FromMap(kv))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// feed records a fixed, varied set of samples into c through two workers:
// READ 1..1000 µs (OK) spread over 2.5 s, READ failures, UPDATEs of
// 2000..40000 µs, one CLEANUP per worker. Times are synthetic Now values
// offset from base0, so the output does not depend on the clock.
func feed(c *Collector) {
	const base0 = int64(1e9)
	ws := []*Recorder{c.NewRecorder(), c.NewRecorder()}
	for i := int64(1); i <= 1000; i++ {
		end := base0 + i*2_500_000 // 2.5 ms apart
		ws[i%2].Done(Read, status.OK, end-i*1000, end, 0)
	}
	for i := int64(0); i < 7; i++ {
		end := base0 + i*300_000_000
		ws[i%2].Done(Read, status.Error, end-(5000+i*10)*1000, end, 0)
		ws[i%2].Done(Read, status.NotFound, end-(100+i)*1000, end, 0)
	}
	for i := int64(0); i < 20; i++ {
		us := 2000 + i*i*100
		end := base0 + i*100_000_000
		ws[i%2].Done(Update, status.OK, end-us*1000, end, end-us*1000-i*1_000_000)
	}
	for _, w := range ws {
		w.Measure(Cleanup, base0+3e9, base0+3e9+42_000, 0)
	}
}

func render(t *testing.T, cfg *Config, snap *Snapshot) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := export.WriteAll(&buf, "text", snap.Rows(cfg)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestTypes renders the report sections and the status-line summary of
// every measurement type from the same samples.
func TestTypes(t *testing.T) {
	tests := []struct {
		name string
		kv   map[string]string
	}{
		{"hdrhistogram", map[string]string{}},
		{"hdrhistogram_verbose", map[string]string{"measurement.histogram.verbose": "true", "hdrhistogram.percentiles": "1,50,99.9"}},
		{"histogram", map[string]string{"measurementtype": "histogram"}},
		{"histogram_verbose", map[string]string{"measurementtype": "histogram", "histogram.buckets": "12", "measurement.histogram.verbose": "true"}},
		{"hdrhistogram+histogram", map[string]string{"measurementtype": "hdrhistogram+histogram", "histogram.buckets": "20"}},
		{"hdrhistogram+raw", map[string]string{"measurementtype": "hdrhistogram+raw"}},
		{"timeseries", map[string]string{"measurementtype": "timeseries"}},
		{"timeseries_500ms", map[string]string{"measurementtype": "timeseries", "timeseries.granularity": "500"}},
		{"raw", map[string]string{"measurementtype": "raw"}},
		{"raw_nosummary", map[string]string{"measurementtype": "raw", "measurement.raw.no_summary": "true"}},
		{"eacherror", map[string]string{"reportlatencyforeacherror": "true"}},
		{"trackederrors", map[string]string{"latencytrackederrors": "NOT_FOUND"}},
		{"interval_both", map[string]string{"measurement.interval": "both"}},
		{"interval_intended_histogram", map[string]string{"measurement.interval": "intended", "measurementtype": "histogram"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := config(t, tt.kv)
			c := NewCollector(cfg, YCSB)
			feed(c)
			iv := c.Tick()
			summary := iv.Summary(cfg)
			got := render(t, cfg, c.Total())
			got = append(got, "--- status summary\n"...)
			got = append(got, summary...)
			got = append(got, '\n')
			ycsbtest.Golden(t, filepath.Join("testdata", "types_"+tt.name+".golden"), got)
		})
	}
}

// TestTotalsAcrossTicks checks that harvesting in several intervals gives
// the same report as harvesting once.
func TestTotalsAcrossTicks(t *testing.T) {
	for _, typ := range measurementTypes {
		t.Run(string(typ), func(t *testing.T) {
			cfg := config(t, map[string]string{"measurementtype": string(typ)})
			once := NewCollector(cfg, YCSB)
			feed(once)
			once.Tick()
			many := NewCollector(cfg, YCSB)
			r := many.NewRecorder()
			for i := int64(1); i <= 300; i++ {
				r.Done(Insert, status.OK, 0, i*7_000_000, 0)
				if i%50 == 0 {
					many.Tick()
				}
			}
			single := NewCollector(cfg, YCSB)
			r2 := single.NewRecorder()
			for i := int64(1); i <= 300; i++ {
				r2.Done(Insert, status.OK, 0, i*7_000_000, 0)
			}
			many.Tick()
			single.Tick()
			a, b := render(t, cfg, many.Total()), render(t, cfg, single.Total())
			if !bytes.Equal(a, b) {
				t.Errorf("ticked six times:\n%s\nticked once:\n%s", a, b)
			}
		})
	}
}

func TestWriteRaw(t *testing.T) {
	cfg := config(t, map[string]string{"measurementtype": "hdrhistogram+raw"})
	c := NewCollector(cfg, YCSB)
	r := c.NewRecorder()
	r.Done(Insert, status.OK, 0, 5_000_000, 0)
	r.Done(Insert, status.OK, 0, 3_000_000, 0)
	c.Tick()
	var buf bytes.Buffer
	if err := c.Total().WriteRaw(&buf, cfg); err != nil {
		t.Fatal(err)
	}
	ms := WallTime(0).UnixMilli()
	want := "RawINSERT latency raw data: op, timestamp(ms), latency(us)\n"
	// In time order, not in the order recorded.
	for _, s := range []RawSample{{WallTime(3_000_000).UnixMilli(), 3000}, {WallTime(5_000_000).UnixMilli(), 5000}} {
		want += "RawINSERT," + itoa(s.EpochMs) + "," + itoa(s.Us) + "\n"
	}
	_ = ms
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}
}

func itoa(v int64) string { return string(export.Int(v).String()) }

func TestFixed2HalfUp(t *testing.T) {
	for in, want := range map[float64]string{0: "0.00", 125.125: "125.13", 1.005: "1.00", 2.5: "2.50", 0.125: "0.13", -0.125: "-0.13", 1.0 / 3: "0.33"} {
		if got := fixed2HalfUp(in); got != want {
			t.Errorf("fixed2HalfUp(%v) = %s, want %s", in, got, want)
		}
	}
}

func TestParseConfigErrors(t *testing.T) {
	for _, kv := range []map[string]string{
		{"measurementtype": "bogus"},
		{"histogram.buckets": "0"},
		{"histogram.buckets": "x"},
		{"timeseries.granularity": "0"},
		{"measurement.raw.no_summary": "maybe"},
		{"hdrhistogram.fileoutput": "yes please"},
	} {
		if _, err := ParseConfig(props.FromMap(kv)); err == nil || !props.IsBadInput(err) {
			t.Errorf("ParseConfig(%v) = %v, want a props error", kv, err)
		}
	}
}

// TestDoneAllocs: the per-operation path allocates nothing once a
// measurement's histogram exists.
func TestDoneAllocs(t *testing.T) {
	for _, typ := range []string{"hdrhistogram", "histogram", "hdrhistogram+histogram"} {
		cfg := config(t, map[string]string{"measurementtype": typ, "measurement.interval": "both"})
		c := NewCollector(cfg, YCSB)
		r := c.NewRecorder()
		r.Done(Read, status.OK, 0, 1000, 0)
		r.Done(Read, status.Error, 0, 1000, 0)
		var i int64
		allocs := testing.AllocsPerRun(1000, func() {
			i++
			r.Done(Read, status.OK, 0, i*1000, 0)
			r.Done(Read, status.Error, 0, i*1000, 0)
		})
		if allocs != 0 {
			t.Errorf("%s: Done allocates %.1f times per call", typ, allocs)
		}
	}
}

func BenchmarkRecorderDone(b *testing.B) {
	for _, typ := range []string{"hdrhistogram", "histogram", "timeseries", "raw"} {
		b.Run(typ, func(b *testing.B) {
			cfg := config(b, map[string]string{"measurementtype": typ})
			c := NewCollector(cfg, YCSB)
			r := c.NewRecorder()
			b.ReportAllocs()
			start := Now()
			for i := 0; b.Loop(); i++ {
				r.Done(Read, status.OK, start, start+int64(i%5000)*1000+500, 0)
			}
		})
	}
}

// TestConcurrentHarvest records from several workers while another
// goroutine harvests (run with -race): nothing is lost or counted twice.
func TestConcurrentHarvest(t *testing.T) {
	for _, typ := range measurementTypes {
		t.Run(string(typ), func(t *testing.T) {
			cfg := config(t, map[string]string{"measurementtype": string(typ), "measurement.interval": "both", "timeseries.granularity": "1"})
			c := NewCollector(cfg, YCSB)
			const workers, per = 4, 5000
			done := make(chan struct{})
			var recs []*Recorder
			for range workers {
				recs = append(recs, c.NewRecorder())
			}
			finished := make(chan struct{}, workers)
			for _, r := range recs {
				go func() {
					for i := int64(1); i <= per; i++ {
						now := Now()
						r.Done(Read, status.OK, now-i, now, 0)
					}
					finished <- struct{}{}
				}()
			}
			go func() {
				defer close(done)
				for n := 0; n < workers; {
					select {
					case <-finished:
						n++
					default:
						c.Tick()
					}
				}
			}()
			<-done
			c.Tick()
			for _, m := range c.Total().Measurements {
				if m.Name != "READ" && m.Name != "Intended-READ" {
					continue
				}
				if got := m.Hist.TotalCount(); got != workers*per {
					t.Errorf("%s: %d samples, want %d", m.Name, got, workers*per)
				}
				if cfg.Type != "hdrhistogram" && m.Count != workers*per {
					t.Errorf("%s: exact count %d, want %d", m.Name, m.Count, workers*per)
				}
				if cfg.HasRaw() && len(m.Raw) != workers*per {
					t.Errorf("%s: %d raw samples, want %d", m.Name, len(m.Raw), workers*per)
				}
			}
		})
	}
}

// TestServed: a passing step shows what it achieved, at most what it
// was asked; what it was asked when nothing was measured.
func TestServed(t *testing.T) {
	for _, c := range []struct{ asked, achieved, want float64 }{
		{1000, 950, 950}, {1000, 1010, 1000}, {1000, 0, 1000}, {1000, 1000, 1000},
	} {
		if got := Served(c.asked, c.achieved); got != c.want {
			t.Errorf("Served(%v, %v) = %v, want %v", c.asked, c.achieved, got, c.want)
		}
	}
}
