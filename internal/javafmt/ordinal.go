package javafmt

import (
	"math"
	"strconv"
)

// Ordinal returns the label of percentile p in hdrhistogram reports
// ("<label>PercentileLatency(us)"): an integral p becomes an English
// ordinal ("1st", "2nd", "3rd", "11th", "21st", "50th", "100th", "0th") and
// any other p its Double form without suffix ("99.9", "99.99").
//
// As in Java, the integer is (int) p, which saturates at the int32 range.
// Java throws for negative integral p (a negative array index); we give the
// magnitude's suffix instead ("-1st").
func Ordinal(p float64) string {
	if math.Mod(p, 1) != 0 { // also NaN and ±Inf, whose Mod is NaN
		return Double(p)
	}
	j := int64(math.Max(math.MinInt32, math.Min(math.MaxInt32, p)))
	n := j
	if n < 0 {
		n = -n
	}
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.FormatInt(j, 10) + suffix
}
