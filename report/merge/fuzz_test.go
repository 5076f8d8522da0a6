package merge

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/report/reportblock"
)

// hdrLog writes an interval log of the given intervals' values.
func hdrLog(t testing.TB, intervals ...[]int64) []byte {
	var buf bytes.Buffer
	w := hdrhistogram.NewHistogramLogWriter(&buf)
	w.OutputLogFormatVersion()
	w.OutputComment("[Logging for: READ]")
	w.OutputLegend()
	for i, vals := range intervals {
		h := hdrhistogram.New(1, 3_600_000_000, 3)
		for _, v := range vals {
			h.RecordValue(v)
		}
		h.SetStartTimeMs(int64(i) * 1000)
		h.SetEndTimeMs(int64(i+1) * 1000)
		if err := w.OutputIntervalHistogram(h); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// FuzzReadReports: no input, a JSON report or a log with report blocks,
// makes the reader panic, and every report it accepts has the figures
// jsonreport.Read guarantees.
func FuzzReadReports(f *testing.F) {
	var doc bytes.Buffer
	jsonreport.Write(&doc, fake(f, 1, 0, 3, 10, 100))
	f.Add(doc.Bytes())
	var log bytes.Buffer
	log.WriteString("[OVERALL], RunTime(ms), 3000\n")
	reportblock.Write(&log, doc.Bytes())
	f.Add(log.Bytes())
	f.Add([]byte(`{"format":"ycsb-go-report","version":2,"operations":-5}`))
	f.Add([]byte(reportblock.Begin + "\n{\"format\":\"ycsb-go-report\",\"version\":2,\"intervals\":[{\"ops\":-1}]}\n" + reportblock.End + "\n"))
	// Two clients of one rendezvous, the second's clock 30 s ahead.
	var fleet bytes.Buffer
	for i, skew := range []time.Duration{0, 30 * time.Second} {
		var one bytes.Buffer
		jsonreport.Write(&one, skewed(byRendezvous(fake(f, uint64(i+1), 0, 3, 10, 100)), skew))
		reportblock.Write(&fleet, one.Bytes())
	}
	f.Add(fleet.Bytes())
	// The reports a run, a merge and a capacity search wrote, alone and
	// as a log's report blocks.
	var goldens bytes.Buffer
	for _, g := range []string{"testdata/run.json", "testdata/merge.json", "../htmlreport/testdata/capacity.json"} {
		data, err := os.ReadFile(g)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		reportblock.Write(&goldens, data)
	}
	f.Add(goldens.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		named, err := ReadReports("in.log", data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "in.log") {
				t.Fatalf("error is not one line naming the file: %q", err)
			}
			return
		}
		for _, n := range named {
			r := n.Report
			if r.Operations < 0 || r.RunTimeMs < 0 || r.Throughput < 0 || r.Clients < 1 {
				t.Fatalf("accepted operations %d, runtime %d, throughput %v, clients %d", r.Operations, r.RunTimeMs, r.Throughput, r.Clients)
			}
			for _, iv := range r.Intervals {
				if iv.Ops < 0 || iv.EndMs < iv.StartMs {
					t.Fatalf("accepted interval %+v", iv)
				}
			}
			for _, m := range r.Measurements {
				if m.Count < 0 || m.MeanUs < 0 || m.MinUs < 0 || m.MaxUs < 0 {
					t.Fatalf("accepted measurement %+v", m)
				}
			}
			// What merge does with a report it accepted must not panic.
			if _, err := Merge([]string{n.Name}, []*jsonreport.Report{r}); err != nil && strings.Contains(err.Error(), "\n") {
				t.Fatalf("merge error of more than one line: %q", err)
			}
		}
		// Nor of several together, whatever their starttimes say of
		// their clocks (OnRendezvousClock).
		if len(named) > 1 {
			var paths []string
			var reps []*jsonreport.Report
			for _, n := range named {
				paths, reps = append(paths, n.Name), append(reps, n.Report)
			}
			if _, err := Merge(paths, reps); err != nil && strings.Contains(err.Error(), "\n") {
				t.Fatalf("merge error of more than one line: %q", err)
			}
			Warnings(paths, reps)
		}
	})
}

// FuzzParseHdrLog: no input makes the HDR log reader panic, and a log it
// accepts sums to a histogram whose buckets are non-negative and add up to
// its total count.
func FuzzParseHdrLog(f *testing.F) {
	f.Add(hdrLog(f, []int64{100, 200}, []int64{300}))
	f.Add(hdrLog(f, nil))
	f.Add([]byte("#[Histogram log format version 1.3]\n0.0,1.0,0.1,HISTFAAAAnotbase64!!\n"))
	f.Add([]byte("#[Histogram log format version 1.3]\n"))
	f.Add([]byte("#[Histogram log format version 1.3]\n\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n" +
		"Tag=READ,0.127,1.007,2.769,HISTFAAAACZ42pJpmSzMwMDAzAABMJoRRFybvITB/gNE4DoLEyAAAP//YWoFZw==\n-5.000,1.000,0.300,HISTFAAAACZ42pJpmSzMwMDAzAABMJoRRFybvITB/gNE4DoLEyAAAP//YWoFZw==\n"))
	f.Add([]byte("#[StartTime: NaN (seconds since epoch), x]\n#[BaseTime: 12345678901234567890 (seconds since epoch)]\n"))
	f.Add([]byte("Tag=A,1.0,1.0,0.1,HISTFAAAACZ42pJpmSzMwMDAzAABMJoRRFybvITB/gNE4DoLEyAAAP//YWoFZw==\nTag=A,0.5,1.0,0.1,HISTFAAAACZ42pJpmSzMwMDAzAABMJoRRFybvITB/gNE4DoLEyAAAP//YWoFZw==\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := parseHdrLog("x.hdr", data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "x.hdr: ") {
				t.Fatalf("error is not one line naming the file: %q", err)
			}
			return
		}
		if l.Hist == nil || l.Name == "" {
			t.Fatalf("accepted a log without a histogram or a name: %+v", l)
		}
		var sum int64
		for _, b := range l.Hist.Distribution() {
			if b.Count < 0 {
				t.Fatalf("a negative count %d at %d", b.Count, b.From)
			}
			sum += b.Count
			if sum < 0 {
				t.Fatal("the counts overflow")
			}
		}
		if sum != l.Hist.TotalCount() {
			t.Fatalf("buckets hold %d values, total says %d", sum, l.Hist.TotalCount())
		}
	})
}
