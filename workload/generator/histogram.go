package generator

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/goycsb/ycsb/internal/infile"
)

// Histogram draws sizes from a bucket histogram file: YCSB's
// HistogramGenerator (fieldlengthdistribution=histogram). Shareable
// (read-only).
type Histogram struct {
	blockSize int64
	cum       []int64 // running sum of bucket counts
}

// LoadHistogram reads a histogram file, a regular file or a pipe of at most
// infile.MaxText bytes read until ctx ends; see ParseHistogram for the
// format.
func LoadHistogram(ctx context.Context, path string) (*Histogram, error) {
	text, err := infile.Read(ctx, path, infile.MaxText)
	if err != nil {
		return nil, err
	}
	h, err := ParseHistogram(bytes.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("histogram %s: %w", path, err)
	}
	return h, nil
}

// ParseHistogram reads YCSB's histogram format: a first line
// "BlockSize<TAB>n", then one "bucket<TAB>count" line per bucket, buckets
// numbered 0, 1, 2, ... in order (YCSB inserts each at its index, so other
// orders are not meaningful there). Fields after the second are ignored, as
// in YCSB; blank lines and trailing CRs are tolerated.
func ParseHistogram(rd io.Reader) (*Histogram, error) {
	sc := bufio.NewScanner(rd)
	line := 0
	next := func() ([]string, bool) {
		for sc.Scan() {
			line++
			s := strings.TrimRight(sc.Text(), "\r")
			if strings.TrimSpace(s) == "" {
				continue
			}
			f := strings.Split(s, "\t")
			for i := range f {
				f[i] = strings.TrimSpace(f[i])
			}
			return f, true
		}
		return nil, false
	}

	f, ok := next()
	if !ok {
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("line %d: %w", line+1, err)
		}
		return nil, errors.New("empty input, expected \"BlockSize<TAB>n\"")
	}
	if len(f) < 2 || f[0] != "BlockSize" {
		return nil, fmt.Errorf("line %d: expected \"BlockSize<TAB>n\", got %q", line, strings.Join(f, "\t"))
	}
	bs, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil || bs <= 0 {
		return nil, fmt.Errorf("line %d: expected a positive block size, got %q", line, f[1])
	}

	h := &Histogram{blockSize: bs}
	var area int64
	for {
		f, ok := next()
		if !ok {
			break
		}
		want := int64(len(h.cum))
		if len(f) < 2 {
			return nil, fmt.Errorf("line %d: expected \"bucket<TAB>count\", got %q", line, strings.Join(f, "\t"))
		}
		b, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: expected bucket number %d, got %q", line, want, f[0])
		}
		if b != want {
			return nil, fmt.Errorf("line %d: expected bucket number %d, got %d (buckets must be 0, 1, 2, ... in order)", line, want, b)
		}
		c, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil || c < 0 {
			return nil, fmt.Errorf("line %d: expected a count >= 0 for bucket %d, got %q", line, b, f[1])
		}
		if c > math.MaxInt64-area {
			return nil, fmt.Errorf("line %d: total count overflows int64", line)
		}
		if b > math.MaxInt64/bs {
			return nil, fmt.Errorf("line %d: bucket %d times block size %d overflows int64", line, b, bs)
		}
		area += c
		h.cum = append(h.cum, area)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	if area == 0 {
		return nil, errors.New("no samples: expected at least one bucket with a count > 0")
	}
	return h, nil
}

// Next follows YCSB exactly, quirks included: with x uniform in [0, area),
// it returns (i+1)*blockSize for the first bucket i <= len-2 whose running
// count reaches x, else (len-1)*blockSize. So bucket 0 gets one extra draw
// and the last bucket's draws land on the value of the one before it
// (a single-bucket histogram always returns 0).
func (h *Histogram) Next(r *rand.Rand) int64 {
	return h.value(r.Int64N(h.cum[len(h.cum)-1]))
}

func (h *Histogram) value(x int64) int64 {
	// Binary search for the first i in [0, len-2] with x <= cum[i].
	lo, hi := 0, len(h.cum)-1
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if x <= h.cum[m] {
			hi = m
		} else {
			lo = m + 1
		}
	}
	if lo == len(h.cum)-1 {
		return int64(lo) * h.blockSize
	}
	return int64(lo+1) * h.blockSize
}
