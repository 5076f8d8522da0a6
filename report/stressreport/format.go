package stressreport

import (
	"fmt"
	"strconv"
	"time"

	"github.com/goycsb/ycsb/internal/javafmt"
)

// jf formats v as Java's String.format("%.<prec>f") does, or with
// grouping "%,.<prec>f" (javafmt.Fixed).
func jf(v float64, prec int, group bool) string {
	if group {
		return javafmt.FixedGrouped(v, prec)
	}
	return javafmt.Fixed(v, prec)
}

// jd formats n as Java's "%,d" (group) or "%d".
func jd(n int64, group bool) string {
	if group {
		return javafmt.Grouped(n)
	}
	return strconv.FormatInt(n, 10)
}

// pad right-aligns s in width, as Java's %<width>s.
func pad(s string, width int) string { return fmt.Sprintf("%*s", width, s) }

// hhmmss is commons-lang's DurationFormatUtils.formatDuration(ms,
// "HH:mm:ss", true), the original's Total operation time.
func hhmmss(d time.Duration) string {
	ms := d.Milliseconds()
	h := ms / 3600000
	m := ms / 60000 % 60
	s := ms / 1000 % 60
	return fmt.Sprintf("%02d:%02d:%02d", h, m, s)
}

// prettyMemory is Cassandra's FBUtilities.prettyPrintMemory(bytes, true).
func prettyMemory(b int64) string {
	switch {
	case b >= 1<<30:
		return jf(float64(b)/(1<<30), 3, false) + " GiB"
	case b >= 1<<20:
		return jf(float64(b)/(1<<20), 3, false) + " MiB"
	}
	return jf(float64(b)/(1<<10), 3, false) + " KiB"
}
